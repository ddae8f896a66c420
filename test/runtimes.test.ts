import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONSUMER, installPackedLibrary, RUNTIME_TOKEN, runtimes, startRuntime } from './support/runtimes.js';

// The packed library on Bun, Deno and workerd (installed from npm), as the README shows it:
// Bun.serve({ fetch: service.fetch }), Deno.serve(service.fetch), export default { fetch: service.fetch }. Each serves the same service module,
// and its answers to a script of reads and writes must be the answers Node gives, byte for byte
// (new player ids aside: they are random).
const onRuntimes = suite('the packed library on Bun, Deno and workerd');

type Send = (method: string, path: string, headers?: Record<string, string>, body?: string) => Promise<Response>;
const FORMATS = ['application/json', 'application/ld+json', 'application/hal+json', 'application/vnd.collection+json', 'application/vnd.siren+json', 'application/vnd.api+json'];
const AUTH = { authorization: `Bearer ${RUNTIME_TOKEN}` };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** One line per answer: status, the fields that carry information, and the body, with new ids made neutral. */
async function transcript(send: Send): Promise<string[]> {
  const lines: string[] = [];
  let fresh = 0;
  const ids = new Map<string, string>();
  const neutral = (text: string) =>
    text.replace(new RegExp(UUID.source, 'g'), (id) => {
      if (!ids.has(id)) ids.set(id, `NEW${++fresh}`);
      return ids.get(id)!;
    });
  const record = async (label: string, res: Response) => {
    const fields = ['content-type', 'etag', 'location', 'link', 'total-count', 'idempotent-replayed'].map((n) => `${n}=${res.headers.get(n) ?? ''}`);
    const body = await res.text();
    let line = `${label}: ${res.status} ${fields.join(' ')} ${body}`;
    // The ETag of a new player hashes its random id.
    if (UUID.test(line)) line = line.replace(/etag="[^"]*"/, 'etag="(of a new player)"');
    lines.push(neutral(line));
    return { res, body };
  };
  for (const accept of FORMATS) await record(`GET player ${accept}`, await send('GET', '/player/alice', { accept }));
  await record('GET JSON:API page', await send('GET', '/player/alice/friends?page=1', { accept: 'application/vnd.api+json' }));
  const player = await send('GET', '/player/alice', { accept: 'application/json' });
  const etag = player.headers.get('etag')!;
  await player.body?.cancel();
  await record('GET If-None-Match', await send('GET', '/player/alice', { accept: 'application/json', 'if-none-match': etag }));
  const patch = JSON.stringify([{ op: 'replace', path: '/alias', value: 'ali' }]);
  await record('PATCH If-Match', await send('PATCH', '/player/alice', { ...AUTH, 'content-type': 'application/json-patch+json', 'if-match': etag, accept: 'application/json' }, patch));
  await record('PATCH stale If-Match', await send('PATCH', '/player/alice', { ...AUTH, 'content-type': 'application/json-patch+json', 'if-match': etag }, patch));
  const post = { ...AUTH, 'content-type': 'application/json', 'idempotency-key': 'k-1', accept: 'application/hal+json' };
  const first = await record('POST Idempotency-Key', await send('POST', '/player/alice/friends', post, JSON.stringify({ alias: 'rt', displayName: 'Runtime' })));
  await record('POST same key again', await send('POST', '/player/alice/friends', post, JSON.stringify({ alias: 'rt', displayName: 'Runtime' })));
  await record('GET the new friend', await send('GET', new URL(first.res.headers.get('location')!).pathname, { accept: 'application/vnd.siren+json' }));
  await record('PUT validated', await send('PUT', '/player/zed', { ...AUTH, 'content-type': 'application/json' }, JSON.stringify({ alias: 'zed', image: 'not a url' })));
  return lines;
}

let reference: string[] = [];

onRuntimes.before(async () => {
  await installPackedLibrary();
  // Node, running the same worker module from the packed library, gives the reference answers.
  const { service } = (await import(pathToFileURL(join(CONSUMER, 'service.mjs')).href)) as { service: { fetch: (r: Request) => Promise<Response> } };
  reference = await transcript((method, path, headers = {}, body) => service.fetch(new Request(`http://node.test${path}`, { method, headers, body })));
});

for (const runtime of runtimes()) {
  const test = runtime.missing ? onRuntimes.skip : onRuntimes;
  if (runtime.missing) console.log(`note: ${runtime.name} skipped: ${runtime.missing}`);
  test(`should answer on ${runtime.name} exactly as on Node`, async () => {
    const server = await startRuntime(runtime);
    try {
      const send: Send = (method, path, headers = {}, body) => fetch(server.origin + path, { method, headers, body });
      const lines = await transcript(send);
      assert.is(lines.length, reference.length);
      for (let i = 0; i < lines.length; i++) assert.is(lines[i], reference[i], `${runtime.name}: ${reference[i]!.slice(0, 60)}`);
      assert.match(reference.find((l) => l.startsWith('PATCH If-Match'))!, /^PATCH If-Match: 200 /);
      assert.match(reference.find((l) => l.startsWith('GET If-None-Match'))!, /^GET If-None-Match: 304 /);
      assert.match(reference.find((l) => l.startsWith('PUT validated'))!, /^PUT validated: 422 /);
    } catch (error) {
      console.log(server.output());
      throw error;
    } finally {
      server.stop();
    }
  });
}

onRuntimes.run();
