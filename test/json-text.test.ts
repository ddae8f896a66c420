import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultRepresentations, type StoredPlayer } from '../src/index.js';
import { playerResource, PLAYER } from '../src/player/documents.js';
import { friendsResource, paging } from '../src/player/documents.js';
import { flat, jsonChars, jsonKey, jsonNumber, jsonString, jsonUri, uriChars } from '../src/core/json/text.js';

const BASE = 'https://api.example.com';
/** Text JSON.stringify escapes (quote, backslash, controls, lone surrogates) or leaves alone (U+2028, pairs). */
const HOSTILE = ['say "hi"', 'back\\slash', 'tab\there', 'nl\n', '\u0000\u001f', 'lone \ud800 high', 'lone \udc00 low', 'pair \ud83d\ude00', 'sep \u2028\u2029', 'plain', ''];

const helpers = suite('JSON text helpers');

helpers('should quote every string exactly as JSON.stringify does', () => {
  for (const s of HOSTILE) {
    assert.is(jsonString(s), JSON.stringify(s), JSON.stringify(s));
    assert.is(`"${jsonChars(s)}"`, JSON.stringify(s), JSON.stringify(s));
    assert.is(jsonKey(s), `${JSON.stringify(s)}:`);
  }
});

helpers('should return a string that needs no escaping as it is, and write URIs and numbers as JSON does', () => {
  const url = `${BASE}/player/bob`;
  assert.is(jsonChars(url), url);
  assert.is(uriChars(url), url);
  assert.is(jsonUri(url), JSON.stringify(url));
  assert.is(flat(`a${url}`), `a${url}`);
  for (const n of [0, -0, 32, 1.5, 1e21, NaN, Infinity]) assert.is(jsonNumber(n), JSON.stringify(n));
});

helpers.run();

const renderers = suite('renderers write the bytes of JSON.stringify');

const odd: StoredPlayer[] = HOSTILE.map((text, i) => {
  const p: StoredPlayer = { playerId: `odd-${i}`, alias: text === '' ? 'x' : text, revision: '1', modifiedAt: 0 };
  if (i % 2 === 0) p.displayName = text;
  return p;
});
const ODD_BASE = 'https://x.test/a"b\\c\u0007';
// A player id the service's id rule refuses, as a store written to directly could still hold.
const oddId: StoredPlayer = { playerId: 'we"ird\\id\u2028', alias: 'a', displayName: 'b', revision: '1', modifiedAt: 0 };
const resources = {
  player: playerResource(BASE, odd[0]!),
  oddId: playerResource(BASE, oddId, friendsResource(BASE, oddId.playerId, [oddId], paging(1, 10, 1, 1))),
  oddIdPage: friendsResource(BASE, 'alice', [oddId, { ...oddId, displayName: undefined }], paging(1, 10, 2, 2)),
  // A base URL with characters JSON escapes (render() and the CLI take any string), and a resource
  // built by hand with such a link: their URIs are checked and escaped.
  oddBasePlayer: playerResource(ODD_BASE, odd[1]!, friendsResource(ODD_BASE, odd[1]!.playerId, odd.slice(0, 2), paging(1, 10, 2, 2))),
  oddBasePage: friendsResource(ODD_BASE, 'alice', odd.slice(0, 3), paging(2, 3, 9, 3), 'q'),
  byHand: { ...playerResource(BASE, odd[2]!), links: [{ rel: 'self', href: 'https://x.test/"\\\u0001' }] },
  page: friendsResource(BASE, 'alice', odd, paging(1, 20, odd.length, odd.length)),
  middle: friendsResource(BASE, 'alice', odd.slice(0, 3), paging(2, 3, 9, 3)),
  search: friendsResource(BASE, 'alice', odd.slice(0, 2), paging(1, 10, 2, 2), 'a "q" \\ \u0000 \u2028'),
  empty: friendsResource(BASE, 'zed', [], paging(1, 10, 0, 0)),
};

for (const r of defaultRepresentations.filter((f) => /json/.test(f.mediaType))) {
  renderers(`should render ${r.name} as canonical JSON (what JSON.stringify writes of the parsed document)`, () => {
    for (const [name, resource] of Object.entries(resources)) {
      const body = r.render(resource, r.plan?.(new URLSearchParams(), resource.kind, PLAYER));
      assert.is(body, JSON.stringify(JSON.parse(body)), `${r.name} ${name}`);
    }
  });
}

renderers('should keep every friend\'s avatar URL in each format\'s friends page', () => {
  for (const r of defaultRepresentations) {
    const body = r.render(resources.page, r.plan?.(new URLSearchParams(), 'page', PLAYER));
    for (const p of odd) assert.ok(body.includes(`${BASE}/player/${p.playerId}/avatar.png`), `${r.name}: ${p.playerId}`);
  }
});

renderers.run();
