// Errors that are answers carry no stack trace; faults keep theirs (docs/decisions.md, "Errors that are
// answers carry no stack").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError } from '../src/core/http/problem.js';
import { JsonPatchError } from '../src/core/json/patch-document.js';
import { StoreError } from '../src/stores/contract.js';
import { createPlayerService, seedDemoData, MemoryPlayerStore } from '../src/index.js';

const stacks = suite('stack traces of errors that are answers');
/** Whether an error's stack names a place in the code (`    at ...`). */
const placed = (e: Error) => /\n\s+at /.test(e.stack ?? '');

stacks('should make HttpError, a refused StoreError and JsonPatchError without a stack, and keep the limit', () => {
  const before = Error.stackTraceLimit;
  assert.not.ok(placed(new HttpError(404, 'no player "zed"')));
  assert.is(new HttpError(404, 'no player "zed"').stack, 'HttpError: no player "zed"');
  for (const code of ['not-found', 'revision-mismatch', 'conflict', 'idempotency-mismatch'] as const) assert.not.ok(placed(new StoreError(code, 'refused')), code);
  assert.not.ok(placed(new JsonPatchError('test-failed', 'the test failed')));
  // What is left as it was: the limit, and errors made after.
  assert.is(Error.stackTraceLimit, before);
  assert.ok(placed(new Error('a fault')));
  assert.ok(placed(new TypeError('a fault')));
});

stacks('should keep the stack of a StoreError that is a fault (the database unreachable or busy)', () => {
  assert.ok(placed(new StoreError('unavailable', 'connection refused')));
  assert.ok(placed(new StoreError('busy', 'pool saturated')));
});

stacks('should keep its cause, and answer a 404 and a 412 as before', async () => {
  const cause = new Error('underneath');
  assert.is(new HttpError(400, 'bad', { cause }).cause, cause);
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: 'http://stacks.test', store });
  const missing = await service.fetch(new Request('http://stacks.test/player/nobody'));
  assert.is(missing.status, 404);
  assert.is((await missing.json()).detail, 'There is no player "nobody".');
  assert.ok(placed(new Error('after the service answered')));
});

stacks.run();
