// Rendering a 50-friend page in every registered format against JSON.stringify of the same document, and
// JSON:API against json-api-serializer; negotiation of a repeated browser Accept against negotiator alone.
import JSONAPISerializer from 'json-api-serializer';
import Negotiator from 'negotiator';
import { defaultRepresentations, type StoredPlayer } from '../src/index.js';
import { createNegotiation } from '../src/core/http/negotiate.js';
import { friendsResource, paging, PLAYER } from '../src/player/documents.js';
import { markUriSafe, type Page } from '../src/core/model/resource.js';
import { compare, report } from './support/measure.js';

const BASE = 'https://api.example.com';
const players: StoredPlayer[] = Array.from({ length: 50 }, (_, i) => {
  const p: StoredPlayer = { playerId: `player-${i}`, alias: `alias${i}`, revision: String(i), modifiedAt: 0 };
  if (i % 5 !== 4) p.displayName = `Player Number ${i}`;
  return p;
});
const page = friendsResource(BASE, 'alice', players, paging(2, 50, 180, 50));
const query = new URLSearchParams();

// The formats keep the text of each listed player with its document (shared while the stored record is
// unchanged), so rendering one page again is mostly joins. What is measured here is a first render: each
// format renders a page whose item documents are new copies (the copying is timed on its own and taken
// off the formats' times).
const FRESH = 'copying the page items';
function fresh(): Page {
  const copy: Page = { ...page, items: page.items.map((item) => ({ ...item })) };
  markUriSafe(copy, BASE);
  return copy;
}

// The floor: JSON.stringify of the same 50 players as plain objects. Also reported: each
// format's own output as prebuilt plain objects (so the
// renderer's own overhead shows apart from the size of what the format must write).
const plainPlayers = page.items.map((i) => i.fields);
const candidates = [
  { name: 'floor: JSON.stringify(players)', run: () => JSON.stringify(plainPlayers) },
  { name: FRESH, run: fresh },
];
const sizes = new Map<string, number>();
for (const r of defaultRepresentations) {
  const plan = r.plan?.(query, 'page', PLAYER) ?? {};
  candidates.push({ name: r.name, run: () => r.render(fresh(), plan) });
  const output = r.render(page, plan);
  sizes.set(r.name, output.length);
  if (r.name === 'html') continue;
  const prebuilt = JSON.parse(output) as unknown;
  candidates.push({ name: `JSON.stringify(${r.name} output)`, run: () => JSON.stringify(prebuilt) });
}

// json-api-serializer on the same page, with the same links and meta, stringified like ours.
const Serializer = (JSONAPISerializer as unknown as { default?: typeof JSONAPISerializer }).default ?? JSONAPISerializer;
const serializer = new Serializer();
serializer.register('players', {
  id: 'playerId',
  jsonapiObject: true,
  links: { self: (d: { playerId: string }) => `${BASE}/player/${d.playerId}` },
  topLevelLinks: (extra: { links: Record<string, string> }) => extra.links,
  topLevelMeta: (extra: { meta: Record<string, unknown> }) => extra.meta,
});
const jsonApi = defaultRepresentations.find((r) => r.name === 'jsonapi');
if (jsonApi) {
  const extra = {
    links: Object.fromEntries(page.links.filter((l) => ['self', 'first', 'prev', 'next', 'last'].includes(l.rel)).map((l) => [l.rel, l.href])),
    meta: { total: page.paging.total, page: page.paging.page, pageSize: page.paging.pageSize, lastPage: page.paging.lastPage, size: String(page.paging.size) },
  };
  candidates.push({
    name: 'json-api-serializer',
    run: () =>
      JSON.stringify(
        serializer.serialize(
          'players',
          page.items.map((i) => ({ playerId: i.id, name: i.fields.displayName, alternateName: i.fields.alias, image: i.fields.profilePhotoUrl })),
          extra,
        ),
      ),
  });
}

const measured = compare(candidates, { rounds: 15, iterations: 1000 });
// Each format's time without the copying of its fresh page.
const copying = measured.get(FRESH)!;
const formats = new Set(defaultRepresentations.map((r) => r.name));
const medians = new Map([...measured].map(([name, us]) => [name, formats.has(name) ? us - copying : us]));
report('Render a 50-friend page (formats: a first render, net of copying the page items)', medians, 'floor: JSON.stringify(players)');
const floor = medians.get('floor: JSON.stringify(players)')!;
const goals: string[] = [];
for (const r of defaultRepresentations) {
  if (r.name === 'json') continue;
  const ratio = medians.get(r.name)! / floor;
  const limit = r.name === 'hal' ? 2.0 : 2.3;
  const own = medians.get(`JSON.stringify(${r.name} output)`);
  const overhead = own === undefined ? '' : `; ${(medians.get(r.name)! / own).toFixed(2)}x stringify of its own output`;
  const size = `${(sizes.get(r.name)! / sizes.get('json')!).toFixed(1)}x the bytes of plain JSON`;
  goals.push(`  ${r.name.padEnd(12)} ${ratio.toFixed(2)}x the floor (goal <= ${limit}x): ${ratio <= limit ? 'met' : 'NOT met'} (${size}${overhead})`);
}
if (jsonApi) {
  const speedup = medians.get('json-api-serializer')! / medians.get('jsonapi')!;
  goals.push(`  jsonapi is ${speedup.toFixed(2)}x faster than json-api-serializer (goal >= 1.5x): ${speedup >= 1.5 ? 'met' : 'NOT met'}`);
}
console.log(`\nGoals\n${goals.join('\n')}`);

// Negotiation: a browser's Accept header, repeated (the cache), against negotiator on every request.
const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const choose = createNegotiation(defaultRepresentations);
const types = defaultRepresentations.map((r) => r.mediaType);
const negotiation = compare(
  [
    { name: 'negotiator alone', run: () => new Negotiator({ headers: { accept: browser } }).mediaType(types) },
    { name: 'createNegotiation (cached)', run: () => choose(browser) },
  ],
  { rounds: 15, iterations: 20000 },
);
report('Negotiate a repeated browser Accept header', negotiation, 'negotiator alone');
const perCall = negotiation.get('createNegotiation (cached)')!;
console.log(`\nGoal\n  repeated Accept costs ${perCall.toFixed(3)} us (goal < 0.2 us): ${perCall < 0.2 ? 'met' : 'NOT met'}`);
