import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BASE } from './support/service.js';
import { AUTH, writableService } from './support/writes.js';

const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };
const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };
const ALICE = { playerId: 'alice', alias: 'alice', displayName: 'Alice Liddell', profilePhotoUrl: `${BASE}/player/alice/avatar.png` };

/** A writable demo service, and `patch` sending a JSON Patch (or any body and headers) to alice. */
async function setup(options: Parameters<typeof writableService>[0] = {}) {
  const svc = await writableService(options);
  const patch = (body: unknown, headers: Record<string, string> = JSON_PATCH, path = '/player/alice') => svc.send('PATCH', path, body, headers);
  const etag = async (path = '/player/alice') => (await svc.call(path)).headers.get('etag')!;
  return { ...svc, patch, etag };
}

/** Asserts a problem response and that alice was not changed. */
async function refused(s: Awaited<ReturnType<typeof setup>>, res: Response, status: number, before: string) {
  assert.is(res.status, status);
  assert.is(res.headers.get('content-type'), 'application/problem+json');
  const problem = await res.json();
  assert.is(problem.status, status);
  assert.is(await s.etag(), before, 'nothing was written');
  assert.equal(await (await s.call('/player/alice')).json(), ALICE);
  return problem;
}

const ok = suite('PATCH /player/{id}: success');

ok('should apply a JSON Patch atomically and answer 200 with the new representation and its ETag', async () => {
  const s = await setup();
  const res = await s.patch([
    { op: 'test', path: '/alias', value: 'alice' },
    { op: 'replace', path: '/alias', value: 'ali' },
    { op: 'copy', from: '/alias', path: '/displayName' },
  ]);
  assert.is(res.status, 200);
  assert.equal(await res.json(), { ...ALICE, alias: 'ali', displayName: 'ali' });
  const get = await s.call('/player/alice');
  assert.is(res.headers.get('etag'), get.headers.get('etag'));
  assert.equal(await get.json(), { ...ALICE, alias: 'ali', displayName: 'ali' });
});

ok('should remove an optional member', async () => {
  const s = await setup();
  const res = await s.patch([{ op: 'remove', path: '/displayName' }]);
  assert.is(res.status, 200);
  const { displayName, ...rest } = ALICE;
  assert.equal(await res.json(), rest);
});

ok('should apply a merge patch (RFC 7396), null removing a member', async () => {
  const s = await setup();
  const res = await s.patch({ alias: 'al', displayName: null }, MERGE_PATCH);
  assert.is(res.status, 200);
  assert.equal(await res.json(), { playerId: 'alice', alias: 'al', profilePhotoUrl: ALICE.profilePhotoUrl });
});

ok('should answer in the negotiated format', async () => {
  const s = await setup();
  const res = await s.patch([{ op: 'replace', path: '/alias', value: 'ali' }], { ...JSON_PATCH, Accept: 'application/hal+json' });
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type')!, 'application/hal+json');
  const body = await res.json();
  assert.is(body.alternateName, 'ali');
  const get = await s.call('/player/alice', { headers: { Accept: 'application/hal+json' } });
  assert.is(res.headers.get('etag'), get.headers.get('etag'));
});

ok('should accept a charset=utf-8 parameter, and write nothing for a patch that changes nothing', async () => {
  const s = await setup();
  const before = await s.etag();
  const res = await s.patch([{ op: 'test', path: '/alias', value: 'alice' }], { 'Content-Type': 'application/json-patch+json; charset=UTF-8' });
  assert.is(res.status, 200);
  assert.is(res.headers.get('etag'), before);
});

ok('should advertise the patch formats in OPTIONS', async () => {
  const s = await setup();
  const res = await s.call('/player/alice', { method: 'OPTIONS' });
  assert.match(res.headers.get('allow')!, 'PATCH');
  assert.is(res.headers.get('accept-patch'), 'application/json-patch+json, application/merge-patch+json, application/vnd.api+json');
});

ok.run();

const conditional = suite('PATCH /player/{id}: If-Match as compare-and-set');

conditional('should apply with a current If-Match and refuse a stale one with 412', async () => {
  const s = await setup();
  const first = await s.etag();
  const res = await s.patch([{ op: 'replace', path: '/alias', value: 'ali' }], { ...JSON_PATCH, 'If-Match': first });
  assert.is(res.status, 200);
  const second = res.headers.get('etag')!;
  const stale = await s.patch([{ op: 'replace', path: '/alias', value: 'lost' }], { ...JSON_PATCH, 'If-Match': first });
  assert.is(stale.status, 412);
  assert.is(await s.etag(), second);
  assert.is((await (await s.call('/player/alice')).json()).alias, 'ali');
});

conditional('should let exactly one of 20 racing patches with the same If-Match win', async () => {
  const s = await setup();
  const etag = await s.etag();
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => s.patch([{ op: 'replace', path: '/alias', value: `racer-${i}` }], { ...JSON_PATCH, 'If-Match': etag })),
  );
  const statuses = results.map((r) => r.status).sort();
  assert.is(statuses.filter((x) => x === 200).length, 1);
  assert.is(statuses.filter((x) => x === 412).length, 19);
  const winner = results.find((r) => r.status === 200)!;
  assert.is((await (await s.call('/player/alice')).json()).alias, (await winner.json()).alias);
});

conditional('should answer 428 without If-Match when the service requires it', async () => {
  const s = await setup({ requireIfMatch: true });
  const res = await s.patch([{ op: 'replace', path: '/alias', value: 'ali' }]);
  assert.is(res.status, 428);
  assert.is((await s.patch([{ op: 'replace', path: '/alias', value: 'ali' }], { ...JSON_PATCH, 'If-Match': await s.etag() })).status, 200);
});

conditional.run();

const errors = suite('PATCH /player/{id}: failures change nothing');

errors('should answer 415 with Accept-Patch for any other Content-Type', async () => {
  const s = await setup();
  const before = await s.etag();
  for (const type of ['application/json', 'text/plain', 'application/json-patch+json; charset=latin1', 'application/json-patch+json; v=2']) {
    const res = await s.patch([{ op: 'replace', path: '/alias', value: 'x' }], { 'Content-Type': type });
    await refused(s, res, 415, before);
    assert.is(res.headers.get('accept-patch'), 'application/json-patch+json, application/merge-patch+json, application/vnd.api+json');
  }
  const none = await s.call('/player/alice', { method: 'PATCH', headers: AUTH, body: new Uint8Array([91, 93]) });
  await refused(s, none, 415, before);
});

errors('should answer 400 for malformed JSON, a malformed patch or a prototype path', async () => {
  const s = await setup();
  const before = await s.etag();
  await refused(s, await s.patch('[{"op": "replace"'), 400, before);
  await refused(s, await s.patch({ op: 'replace', path: '/alias', value: 'x' }), 400, before);
  const spam = await refused(s, await s.patch([{ op: 'test', path: '/alias', value: 'alice' }, { op: 'spam', path: '/alias' }]), 400, before);
  assert.is(spam.operation, 1);
  assert.equal(spam.errors, [{ pointer: '/1/op', detail: 'invalid-patch' }]);
  await refused(s, await s.patch([{ op: 'add', path: '/alias' }]), 400, before);
  const proto = await refused(s, await s.patch([{ op: 'add', path: '/__proto__/alias', value: 'x' }]), 400, before);
  assert.is(proto.reason, 'prototype-path');
  await refused(s, await s.patch('{"__proto__": {"alias": "x"}}', MERGE_PATCH), 400, before);
  await refused(s, await s.patch('{"alias": "a"', MERGE_PATCH), 400, before);
  assert.is(({} as Record<string, unknown>).alias, undefined);
});

errors('should answer 409 for a failed test or a missing path, discarding earlier operations', async () => {
  const s = await setup();
  const before = await s.etag();
  const test = await refused(s, await s.patch([{ op: 'replace', path: '/alias', value: 'ali' }, { op: 'test', path: '/displayName', value: 'Someone' }]), 409, before);
  assert.equal([test.operation, test.reason], [1, 'test-failed']);
  await refused(s, await s.patch([{ op: 'replace', path: '/nickname', value: 'x' }]), 409, before);
  await refused(s, await s.patch([{ op: 'remove', path: '/alias/0' }]), 409, before);
  await refused(s, await s.patch([{ op: 'move', from: '/image', path: '/alias' }]), 409, before);
});

errors('should answer 422 for a result that breaks the player schema', async () => {
  const s = await setup();
  const before = await s.etag();
  await refused(s, await s.patch([{ op: 'replace', path: '/alias', value: '' }]), 422, before);
  await refused(s, await s.patch([{ op: 'replace', path: '/alias', value: 7 }]), 422, before);
  await refused(s, await s.patch([{ op: 'remove', path: '/alias' }]), 422, before);
  await refused(s, await s.patch([{ op: 'add', path: '/nickname', value: 'x' }]), 422, before);
  await refused(s, await s.patch([{ op: 'replace', path: '', value: [] }]), 422, before);
  await refused(s, await s.patch(['a'], MERGE_PATCH), 422, before);
  await refused(s, await s.patch({ displayName: 'x'.repeat(129) }, MERGE_PATCH), 422, before);
});

errors('should answer 422 for a changed or removed playerId or profilePhotoUrl', async () => {
  const s = await setup();
  const before = await s.etag();
  const id = await refused(s, await s.patch([{ op: 'replace', path: '/playerId', value: 'bob' }]), 422, before);
  assert.equal(id.errors[0].pointer, '/playerId');
  await refused(s, await s.patch([{ op: 'remove', path: '/playerId' }]), 422, before);
  await refused(s, await s.patch([{ op: 'replace', path: '/profilePhotoUrl', value: 'https://cdn.example.com/me.png' }]), 422, before);
  await refused(s, await s.patch({ profilePhotoUrl: null }, MERGE_PATCH), 422, before);
  await refused(s, await s.patch({ playerId: 'bob' }, MERGE_PATCH), 422, before);
});

errors('should need credentials, a known player, and a body within the limit', async () => {
  const s = await setup({ maxBodyBytes: 256 });
  const before = await s.etag();
  const anonymous = await s.call('/player/alice', { method: 'PATCH', headers: JSON_PATCH, body: '[]' });
  await refused(s, anonymous, 401, before);
  assert.match(anonymous.headers.get('www-authenticate')!, /^Bearer /);
  assert.is((await s.patch([{ op: 'test', path: '/alias', value: 'x' }], JSON_PATCH, '/player/nobody')).status, 404);
  const big = [{ op: 'replace', path: '/displayName', value: 'x'.repeat(300) }];
  await refused(s, await s.patch(big), 413, before);
  await refused(s, await s.patch([], { ...JSON_PATCH, Accept: 'text/csv' }), 406, before);
});

errors.run();
