import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from '../support/adapter-servers.js';
import { assertProblem, eachServer } from '../support/hostile.js';

// A short JSON Patch must not be able to exhaust the server: copies that double the player per
// operation, thousands of operations, or a result nested past the body depth are 413 at once.
const budget = suite('JSON Patch bodies that would do unbounded work');
let servers: AdapterServer[] = [];
const HEADERS: [string, string][] = [
  ['Authorization', `Bearer ${WRITE_TOKEN}`],
  ['Content-Type', 'application/json-patch+json'],
];

budget.before(async () => {
  servers = await startAdapterServers(['node', 'express', 'fastify']);
});
budget.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Sends `ops` as a PATCH of alice on every server and expects a quick 413 naming `reason`. */
async function expectRefused(ops: unknown[], reason: string, pointer: string): Promise<void> {
  const body = Buffer.from(JSON.stringify(ops));
  const outcomes = await eachServer(servers, { method: 'PATCH', target: '/player/alice', headers: HEADERS, body }, (a, label) => {
    const problem = assertProblem(a, 413, label);
    assert.is(problem.reason, reason, label);
    assert.equal((problem.errors as { pointer: string }[])[0]!.pointer, pointer, label);
  }, `PATCH ${reason}`);
  assert.equal(outcomes, { node: 'reused', express: 'reused', fastify: 'reused' });
}

budget('should answer a doubling copy chain (1.3 KB, 28 copies) with 413 within the time limit', async () => {
  const ops = [
    { op: 'add', path: '/x', value: { pad: 'p'.repeat(200) } },
    ...Array.from({ length: 28 }, (_, n) => ({ op: 'copy', from: '/x', path: `/x/c${n}` })),
  ];
  assert.ok(JSON.stringify(ops).length < 1500);
  const started = performance.now();
  await expectRefused(ops, 'too-large', '/9');
  assert.ok(performance.now() - started < 2000, 'three servers answered within 2 s');
});

budget('should refuse more than 1,000 operations', async () => {
  await expectRefused(Array.from({ length: 1001 }, () => ({ op: 'test', path: '/playerId', value: 'alice' })), 'too-many-operations', '/1000');
});

budget('should refuse a result nested deeper than a body may be', async () => {
  const ops = [{ op: 'add', path: '/x', value: {} }, ...Array.from({ length: 40 }, () => ({ op: 'copy', from: '/x', path: '/x/x' }))];
  await expectRefused(ops, 'too-deep', '/31/path');
});

budget.run();
