// bench:realistic's mixed loads write as they say: a tenth of their requests are writes of their kinds,
// the conditional ones naming an ETag the load was answered with, in whichever format it read it.
// (Until 2026-12-06 (a') read only HAL and JSON:API and kept only plain JSON's ETags, so it never wrote.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mixedLoad, mixedPagesLoad, type Load } from '../bench/support/realistic-loads.js';
import { baselineListener } from '../bench/support/realistic-baseline.js';
import { BASE_URL, TOKEN, seedPlayers } from '../bench/support/realistic-data.js';
import { bearerTokens, createPlayerService, MemoryPlayerStore } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';

interface Sent {
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface Step {
  setupRequest: (defaults: Sent, context: object) => Sent;
  onResponse: (status: number, body: string, context: object, headers: Record<string, string>) => void;
}

/** Drives a load as autocannon does (one context a request), every read of a player answered with an ETag. */
function drive(load: Load, requests: number): Sent[] {
  const step = load.requests[0] as Step;
  const sent: Sent[] = [];
  for (let i = 0; i < requests; i++) {
    const context = {};
    const request = step.setupRequest({ path: '/', headers: { host: 'x' } }, context);
    sent.push(request);
    const status = request.method === 'POST' ? 201 : 200;
    step.onResponse(status, '', context, { etag: `"${i}-${(request.headers.accept ?? '').length}"` });
  }
  return sent;
}

const loads = suite('the mixed loads of bench:realistic');

for (const [name, make, kinds] of [
  ["(a')", mixedPagesLoad, ['PATCH', 'POST']],
  ['(a)', mixedLoad, ['PATCH', 'PUT', 'POST']],
] as const) {
  loads(`${name} should write a tenth of its requests, by its kinds, the conditional ones with If-Match`, () => {
    const sent = drive(make(), 20_000);
    const writes = sent.filter((r) => r.method !== 'GET');
    assert.ok(writes.length > 1_600 && writes.length < 2_400, `${writes.length} writes of 20,000`);
    assert.equal([...new Set(writes.map((r) => r.method))].sort(), [...kinds].sort());
    for (const w of writes) {
      if (w.method === 'POST') assert.ok(w.path.endsWith('/friends'));
      else assert.match(w.headers['if-match'] ?? '', /^"\d+-\d+"$/, 'an ETag it was answered with');
    }
  });
}

loads('(a) should name the ETag last given for the player it writes, forget one answered 412 until read again, and spread its writes', () => {
  const step = mixedLoad().requests[0] as Step;
  // Each read of a player is answered with an ETag of its own; every other conditional write with 412.
  const given = new Map<string, string>();
  const writtenIds = new Set<string>();
  let conditional = 0;
  for (let i = 0; i < 40_000; i++) {
    const context = {};
    const r = step.setupRequest({ path: '/', headers: { host: 'x' } }, context);
    const id = decodeURIComponent(r.path.split('/')[2] ?? '');
    if (r.method === 'GET' && r.path.split('/').length === 3) {
      const etag = `"${i}"`;
      given.set(id, etag);
      step.onResponse(200, '', context, { etag });
    } else if (r.method === 'PATCH' || r.method === 'PUT') {
      conditional++;
      assert.is(r.headers['if-match'], given.get(id), `the ETag last given for ${id}`);
      writtenIds.add(id);
      if (conditional % 2 === 0) {
        step.onResponse(412, '', context, {});
        given.delete(id); // not to be written again before it is read again
      } else {
        const etag = `"w${i}"`;
        given.set(id, etag);
        step.onResponse(200, '', context, { etag });
      }
    } else step.onResponse(r.method === 'POST' ? 201 : 200, '', context, {});
  }
  assert.ok(conditional > 2_000, `${conditional} conditional writes`);
  assert.ok(writtenIds.size > 500, `writes spread over ${writtenIds.size} players`);
});

/** Drives a load against a real server over keep-alive, one request at a time: the statuses of its writes. */
async function driveServer(load: Load, listener: (req: IncomingMessage, res: ServerResponse) => void, requests: number): Promise<Map<string, number[]>> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const step = load.requests[0] as Step;
  const statuses = new Map<string, number[]>();
  try {
    for (let i = 0; i < requests; i++) {
      const context = {};
      const r = step.setupRequest({ path: '/', headers: {} }, context);
      const response = await fetch(base + r.path, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
      const body = await response.text();
      if ((r.method ?? 'GET') !== 'GET') statuses.set(r.method!, [...(statuses.get(r.method!) ?? []), response.status]);
      step.onResponse(response.status, body, context, Object.fromEntries(response.headers));
    }
  } finally {
    server.close();
  }
  return statuses;
}

loads("(a') should have its merge patches, named by an ETag read in HAL or JSON:API, written by both servers", async () => {
  const store = new MemoryPlayerStore();
  await seedPlayers(store);
  const library = toNodeListener(createPlayerService({ baseUrl: BASE_URL, store, pageSize: 10, authenticate: bearerTokens([TOKEN]) }));
  for (const [name, listener] of [['baseline', baselineListener(10)], ['library', library]] as const) {
    const statuses = await driveServer(mixedPagesLoad(), listener, 1_500);
    const patches = statuses.get('PATCH') ?? [];
    assert.ok(patches.length > 20, `${name}: ${patches.length} merge patches`);
    // A POST to a player changes its revision, so an ETag read before it is stale (412): rare here.
    const written = patches.filter((s) => s === 200).length;
    assert.ok(written >= patches.length * 0.8, `${name}: ${written} of ${patches.length} merge patches written (${patches.join(' ')})`);
    assert.ok((statuses.get('POST') ?? []).every((s) => s === 201) && (statuses.get('POST') ?? []).length > 20, `${name}: POSTs ${statuses.get('POST')}`);
  }
});

loads.run();
