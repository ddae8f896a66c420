// bench:realistic's mixed loads write as they say: a tenth of their requests are writes of their kinds,
// the conditional ones naming an ETag the load was answered with, in whichever format it read it.
// (Until 2026-12-06 (a') read only HAL and JSON:API and kept only plain JSON's ETags, so it never wrote.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mixedLoad, mixedPagesLoad, type Load } from '../bench/support/realistic-loads.js';

interface Sent {
  method?: string;
  path: string;
  headers: Record<string, string>;
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

loads.run();
