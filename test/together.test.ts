import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MOST_TOGETHER, STALLED_MS, Together, type TogetherKind } from '../src/stores/postgres/together.js';
import { StoreError } from '../src/stores/contract.js';

// When Together sends a statement: one at a time while the waiting writes can still grow it, another
// beside it only when a full statement waits or the one in flight has stalled (docs/decisions.md,
// "PostgreSQL writes together"). The kind here is a fake whose statements return when the test says.
const test = suite('Together: when statements go');

/** A kind that records each statement (the ids it carries) and returns each when `finish` is called. */
function recordingKind() {
  const sent: string[][] = [];
  const pending: (() => void)[] = [];
  const statement = (ids: string[]) =>
    new Promise<void>((resolve) => {
      sent.push(ids);
      pending.push(resolve);
    });
  const kind: TogetherKind<string> = {
    keys: (values) => [values[0] as string],
    one: async (values) => (await statement([values[0] as string]), `row ${values[0] as string}`),
    many: async (writes) => (await statement(writes.map((v) => v[0] as string)), writes.map((v) => `row ${v[0] as string}`)),
  };
  /** Returns the oldest statement still in flight. */
  const finish = () => pending.shift()!();
  return { kind, sent, finish, inFlight: () => pending.length };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a lone write goes at once; writes arriving meanwhile wait for it, though a lane is free, and go as one', async () => {
  const { kind, sent, finish } = recordingKind();
  const together = new Together(kind, 2);
  const first = together.send(['a']);
  await turn();
  assert.equal(sent, [['a']]);
  const rest = ['b', 'c', 'd'].map((id) => together.send([id]));
  await turn();
  assert.equal(sent.length, 1, 'the second lane stays shut while the waiting writes can still grow a statement');
  // The next statement is sent before the first's caller hears: the database works while it answers.
  const sentWhenTold = first.then(() => sent.length);
  finish();
  assert.is(await first, 'row a');
  assert.is(await sentWhenTold, 2);
  await turn();
  assert.equal(sent, [['a'], ['b', 'c', 'd']]);
  finish();
  assert.equal(await Promise.all(rest), ['row b', 'row c', 'row d']);
});

test('a full statement waiting opens another lane, up to the limit', async () => {
  const { kind, sent, finish, inFlight } = recordingKind();
  const together = new Together(kind, 2);
  const all = [together.send(['x'])];
  for (let i = 0; i < 3 * MOST_TOGETHER; i++) all.push(together.send([`w${String(i).padStart(2, '0')}`]));
  await turn();
  assert.is(inFlight(), 2, 'the first, and a full statement beside it');
  assert.is(sent[1]!.length, MOST_TOGETHER);
  while (inFlight() > 0) {
    finish();
    await turn();
    await turn();
    assert.ok(inFlight() <= 2, 'never more than writesInFlight');
  }
  assert.is((await Promise.all(all)).length, 3 * MOST_TOGETHER + 1);
  assert.is(sent.flat().length, 3 * MOST_TOGETHER + 1, 'each write sent once');
});

test('a statement in flight for STALLED_MS lets the waiting writes go beside it', async () => {
  const { kind, sent, finish } = recordingKind();
  const together = new Together(kind, 2);
  const stalled = together.send(['slow']);
  await turn();
  const waiting = together.send(['next']);
  await sleep(STALLED_MS / 4);
  assert.equal(sent, [['slow']], 'not before the statement in flight has stalled');
  await sleep(STALLED_MS * 2);
  assert.equal(sent, [['slow'], ['next']]);
  finish();
  finish();
  assert.equal(await Promise.all([stalled, waiting]), ['row slow', 'row next']);
});

test('with one lane a stalled statement keeps the others waiting, up to the wait limit: busy', async () => {
  const { kind, sent, finish } = recordingKind();
  const together = new Together(kind, 1, STALLED_MS * 3);
  const stalled = together.send(['slow']);
  await turn();
  const waiting = together.send(['next']);
  // Together's timers do not keep a process alive; this test's wait must.
  const alive = setInterval(() => {}, 1000);
  let error: unknown;
  try {
    await waiting;
  } catch (e) {
    error = e;
  } finally {
    clearInterval(alive);
  }
  assert.instance(error, StoreError);
  assert.is((error as StoreError).code, 'busy');
  assert.equal(sent, [['slow']], 'nothing sent beside it, and the write that failed is not sent later');
  finish();
  assert.is(await stalled, 'row slow');
  await turn();
  assert.equal(sent, [['slow']]);
});

test.run();
