import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from '../support/adapter-servers.js';
import { assertProblem, eachServer } from '../support/hostile.js';

// Request bodies read by their own members only (a member named like an Object.prototype property is
// an unknown member, 400 with its pointer), and JSON-LD bodies bounded before the processor runs.
const members = suite('body members named like prototype properties, and JSON-LD bodies past their bounds');
let servers: AdapterServer[] = [];
const AUTH: [string, string] = ['Authorization', `Bearer ${WRITE_TOKEN}`];

members.before(async () => {
  servers = await startAdapterServers(['node', 'express']);
});
members.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** POSTs `body` as `type` to alice's friends on every server; the answer is `status` naming `pointer`, and nothing changed. */
async function expectRefused(type: string, body: string, status: number, pointer: string): Promise<void> {
  const headers: [string, string][] = [AUTH, ['Content-Type', type]];
  const outcomes = await eachServer(servers, { method: 'POST', target: '/player/alice/friends', headers, body: Buffer.from(body) }, (a, label) => {
    const problem = assertProblem(a, status, label);
    assert.is((problem.errors as { pointer: string }[])[0]!.pointer, pointer, label);
  }, `${type} ${body.slice(0, 60)}`);
  assert.equal(outcomes, { node: 'reused', express: 'reused' });
}

members('should answer 400 with a pointer for __proto__, valueOf and toString members in every body format', async () => {
  const cases: [string, string, string][] = [
    // Once read as the prototype of the fields, this made a create into "add bob".
    ['application/vnd.api+json', '{"data":{"type":"players","attributes":{"__proto__":{"playerId":"bob"}}}}', '/data/attributes/__proto__'],
    ['application/vnd.api+json', '{"data":{"type":"players","attributes":{"alternateName":"a","valueOf":1}}}', '/data/attributes/valueOf'],
    ['application/x-www-form-urlencoded', 'alternateName=a&__proto__=1', '/__proto__'],
    ['application/x-www-form-urlencoded', 'alternateName=a&toString=1', '/toString'],
    ['application/vnd.siren+json', '{"alternateName":"a","__proto__":{"playerId":"bob"}}', '/__proto__'],
    ['application/ld+json', '{"@context":"https://schema.org/","alternateName":"a","__proto__":{"x":1}}', '/__proto__'],
    ['application/ld+json', '{"@context":"https://schema.org/","alternateName":"a","valueOf":1}', '/valueOf'],
    ['application/vnd.collection+json', '{"template":{"data":[{"name":"alternateName","value":"a","__proto__":{"x":1}}]}}', '/template/data/0/__proto__'],
    ['application/vnd.collection+json', '{"template":{"data":[{"name":"alternateName","value":"a"}]},"toString":1}', '/toString'],
    ['application/hal+json', '{"alternateName":"a","__proto__":{"playerId":"bob"}}', '/__proto__'],
  ];
  for (const [type, body, pointer] of cases) await expectRefused(type, body, 400, pointer);
});

members('should answer a type-scoped context of 600 terms over 2,000 nodes with 413 at once', async () => {
  const terms = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`t${i}`, `https://example.test/t${i}`]));
  const body = JSON.stringify({
    '@context': { '@vocab': 'https://schema.org/', Scoped: { '@id': 'https://example.test/Scoped', '@context': terms } },
    alternateName: 'a',
    knows: Array.from({ length: 2000 }, () => ({ '@type': 'Scoped' })),
  });
  assert.ok(body.length < 64 * 1024);
  await expectRefused('application/ld+json', body, 413, '/@context/Scoped/@context/t255');
});

members('should answer 2,000 one-term contexts with 413 at once', async () => {
  const body = JSON.stringify({
    '@context': 'https://schema.org/',
    alternateName: 'a',
    knows: Array.from({ length: 2000 }, () => ({ '@context': { a: 'x:a' }, a: 1 })),
  });
  assert.ok(body.length < 64 * 1024);
  await expectRefused('application/ld+json', body, 413, '/knows/7/@context');
});

members.run();
