import { suite } from 'uvu';
import { friendsResource, paging, PLAYER } from '../src/player/documents.js';
import type { Page } from '../src/core/model/resource.js';
import * as assert from 'uvu/assert';
import jsonld from 'jsonld';
import { HttpError, jsonLdRepresentation } from '../src/index.js';
import { SCHEMA } from '../src/representations/json-ld-context.js';
import { HYDRA } from '../src/core/model/terms.js';
import { loadPlayerContext, PLAYER_CONTEXT, PLAYER_CONTEXT_URL } from '../src/player/linked-data.js';
import { PLAYER_VOCAB } from '../src/player/api.js';
import { readJsonLdBody } from '../src/representations/json-ld.js';
import { unresolved } from './support/links.js';
import { BASE, demoService } from './support/service.js';
import { writableService } from './support/writes.js';

const LD = 'application/ld+json';
/** A PlayerInput without its error pointers. */
const plain = ({ pointers: _, ...input }: { pointers?: unknown; fields: object; ref?: string }) => input;

const get = async (path: string) => {
  const { call, service } = await demoService();
  const res = await call(path, { headers: { Accept: LD } });
  return { res, body: await res.json(), service };
};

/** Expands offline in safe mode: any remote URL is refused and counted. */
async function expandOffline(doc: unknown): Promise<{ expanded: any[]; fetched: string[] }> {
  const fetched: string[] = [];
  const documentLoader = async (url: string) => {
    fetched.push(url);
    throw new Error(`no network: ${url}`);
  };
  const expanded: unknown = await jsonld.expand(doc as any, { documentLoader, safe: true } as any);
  return { expanded: expanded as any[], fetched };
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i;

/** Every IRI of an expanded document that is not absolute: property keys, @id and @type values. */
function relativeIris(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) relativeIris(n, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '@value' || key === '@language') continue;
      if (!key.startsWith('@') && !ABSOLUTE.test(key)) out.push(key);
      if (key === '@id' && !(ABSOLUTE.test(value as string) || (value as string).startsWith('_:'))) out.push(value as string);
      else if (key === '@type') for (const t of ([] as string[]).concat(value as string)) if (!ABSOLUTE.test(t)) out.push(t);
      else relativeIris(value, out);
    }
  }
  return out;
}

/** Every key of a compacted document below @context: each must be a keyword or a term of our context. */
function keys(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) keys(n, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '@context') continue;
      out.add(key);
      keys(value, out);
    }
  }
  return out;
}

/** The values of an expanded property on a node. */
const values = (node: any, iri: string) => (node[iri] ?? []).map((v: any) => v['@id'] ?? v['@value'] ?? v);

const PATHS = ['/player/alice', '/player/elif-05', '/player/alice/friends', '/player/alice/friends?page=2', '/player/alice/friends?page=4', '/player/elif-05/friends', '/player/alice/friends/search?search=okafor'];

const shapes = suite('JSON-LD shapes');

shapes('should render a player as a schema.org Person with its URL as @id and friends as a link', async () => {
  const { res, body } = await get('/player/alice');
  assert.is(res.headers.get('content-type'), LD);
  assert.equal(body['@context'], PLAYER_CONTEXT);
  const { '@context': _, ...rest } = body;
  assert.equal(rest, {
    '@id': `${BASE}/player/alice`,
    '@type': 'Person',
    playerId: 'alice',
    name: 'Alice Liddell',
    alternateName: 'alice',
    image: `${BASE}/player/alice/avatar.png`,
    friends: `${BASE}/player/alice/friends`,
  });
});

shapes('should render a page as a Hydra collection with its view, members, the add-friend operation and the search template', async () => {
  const { body } = await get('/player/alice/friends?page=2');
  const at = (n: number) => `${BASE}/player/alice/friends?page=${n}`;
  assert.is(body['@id'], `${BASE}/player/alice/friends`);
  assert.equal(body['@type'], ['Collection', 'FriendList'], 'a friend list is a ph:FriendList, the class the ApiDocumentation gives the add-friend operation');
  assert.is(body.totalItems, 32);
  assert.is(body.friendsOf, `${BASE}/player/alice`);
  assert.is(body.member.length, 10);
  assert.is(body.member[0]['@id'], `${BASE}/player/kai-11`);
  assert.equal(body.view, { '@id': at(2), '@type': 'PartialCollectionView', size: '10', first: at(1), previous: at(1), next: at(3), last: at(4) });
  const [op] = body.operation;
  assert.is(op['@type'], 'Operation');
  assert.is(op.method, 'POST');
  assert.equal(
    op.expects.supportedProperty.map((p: any) => [p.property, p.range, p.required]),
    [
      [{ '@id': 'schema:name', range: 'xsd:string' }, undefined, false],
      [{ '@id': 'schema:alternateName', range: 'xsd:string' }, undefined, true],
      [{ '@id': 'schema:image', range: 'schema:URL' }, undefined, false],
    ],
    'rdfs:range is said of the property, not of the SupportedProperty',
  );
  assert.equal(body.search, {
    '@type': 'IriTemplate',
    template: `${BASE}/player/alice/friends/search{?search}`,
    variableRepresentation: 'BasicRepresentation',
    mapping: [{ '@type': 'IriTemplateMapping', variable: 'search', property: 'freetextQuery', required: true }],
  });
});

shapes('should write the add operation kept per relation only for its own fields, and a hand-built page its own', () => {
  const items = [{ playerId: 'bob', alias: 'bobby', revision: '1', modifiedAt: 0 }];
  const page = (owner: string) => friendsResource(BASE, owner, items, paging(1, 10, 1, 1));
  const operationOf = (doc: Page) => JSON.parse(jsonLdRepresentation.render(doc)).operation;
  const declared = operationOf(page('alice'));
  assert.equal(operationOf(page('carol')), declared, 'every list of the relation writes the same node');
  assert.equal(declared[0].expects.supportedProperty.map((p: any) => p.title), ['Full name', 'Alias', 'Picture URL']);
  // A hand-built page of the same relation with operations of its own: its fields, not the kept text.
  const handBuilt = page('dana');
  const [add] = handBuilt.operations;
  handBuilt.operations = [{ ...add!, fields: [{ name: 'alternateName', type: 'text', title: 'Handle', required: true }] }];
  const own = operationOf(handBuilt);
  assert.is(own[0].title, declared[0].title);
  assert.equal(own[0].expects.supportedProperty.map((p: any) => p.title), ['Handle']);
  assert.equal(operationOf(page('erin')), declared, 'the kept text is still the declared one');
  // The members after `member` are what JSON.stringify writes of them (key order included).
  const text = jsonLdRepresentation.render(page('fay'));
  const body = JSON.parse(text);
  assert.ok(text.endsWith(`,"view":${JSON.stringify(body.view)},"operation":${JSON.stringify(body.operation)},"search":${JSON.stringify(body.search)}}`));
});

shapes('should leave out previous on the first page, next on the last, and keep member an array when empty', async () => {
  assert.not.ok('previous' in (await get('/player/alice/friends')).body.view);
  const last = (await get('/player/alice/friends?page=4')).body;
  assert.not.ok('next' in last.view);
  assert.is(last.view.size, '2');
  assert.equal((await get('/player/elif-05/friends')).body.member, []);
});

shapes('should render a search page as its own collection, with the friends collection and its operation beside it', async () => {
  const { body } = await get('/player/alice/friends/search?search=okafor');
  assert.is(body['@id'], `${BASE}/player/alice/friends/search?search=okafor`);
  assert.is(body.freetextQuery, 'okafor');
  assert.not.ok('operation' in body);
  assert.is(body.collection['@id'], `${BASE}/player/alice/friends`);
  assert.is(body.collection.operation[0].method, 'POST');
});

shapes.run();

const expansion = suite('JSON-LD expansion with the jsonld library, offline and in safe mode');

expansion('should expand every document to absolute IRIs, fetching nothing and dropping no term', async () => {
  const terms = new Set(Object.keys(PLAYER_CONTEXT));
  for (const path of PATHS) {
    const { body } = await get(path);
    const { expanded, fetched } = await expandOffline(body);
    assert.equal(fetched, [], path);
    assert.is(expanded.length, 1, path);
    assert.equal(relativeIris(expanded), [], path);
    for (const key of keys(body)) assert.ok(key.startsWith('@') || terms.has(key), `${path}: ${key} is not a term`);
  }
});

expansion('should expand the fields to schema.org, Hydra and our vocabulary', async () => {
  const [player] = (await expandOffline((await get('/player/alice')).body)).expanded;
  assert.equal(player['@type'], [`${SCHEMA}Person`]);
  assert.equal(values(player, `${SCHEMA}name`), ['Alice Liddell']);
  assert.equal(values(player, `${SCHEMA}alternateName`), ['alice']);
  assert.equal(values(player, `${SCHEMA}image`), [`${BASE}/player/alice/avatar.png`]);
  assert.equal(values(player, `${PLAYER_VOCAB}playerId`), ['alice']);
  assert.equal(values(player, `${PLAYER_VOCAB}friends`), [`${BASE}/player/alice/friends`]);

  const [page] = (await expandOffline((await get('/player/alice/friends?page=2')).body)).expanded;
  assert.is(values(page, `${HYDRA}member`).length, 10);
  assert.equal(values(page, `${HYDRA}totalItems`), [32]);
  const [view] = page[`${HYDRA}view`];
  assert.equal(values(view, `${HYDRA}next`), [`${BASE}/player/alice/friends?page=3`]);
  assert.equal(values(view, `${PLAYER_VOCAB}size`), ['10']);
  assert.equal(page['@reverse'][`${PLAYER_VOCAB}friends`][0]['@id'], `${BASE}/player/alice`);
  const [op] = page[`${HYDRA}operation`];
  assert.equal(values(op, `${HYDRA}method`), ['POST']);
  const [expects] = op[`${HYDRA}expects`];
  assert.is(expects['@id'], `${SCHEMA}Person`);
  const props = expects[`${HYDRA}supportedProperty`].map((p: any) => values(p, `${HYDRA}property`)[0]);
  assert.equal(props, [`${SCHEMA}name`, `${SCHEMA}alternateName`, `${SCHEMA}image`]);
  const [template] = page[`${HYDRA}search`];
  assert.equal(values(template[`${HYDRA}mapping`][0], `${HYDRA}property`), [`${HYDRA}freetextQuery`]);
});

expansion('should make the context loadable by URL without a network fetch', async () => {
  const doc = await loadPlayerContext(PLAYER_CONTEXT_URL);
  assert.equal(doc.document['@context'], PLAYER_CONTEXT);
  const { body } = await get('/player/alice');
  const byUrl = { ...body, '@context': PLAYER_CONTEXT_URL };
  const expanded = await jsonld.expand(byUrl, { documentLoader: loadPlayerContext as any, safe: true } as any);
  assert.equal(expanded, (await expandOffline(body)).expanded);
  await loadPlayerContext('https://example.com/other.jsonld').then(
    () => assert.unreachable('a foreign context must not load'),
    (e: Error) => assert.match(e.message, 'not loaded'),
  );
});

expansion.run();

const links = suite('JSON-LD links');

links('should resolve every @id and link of every document through the service', async () => {
  const LINK_TERMS = new Set(['@id', 'friends', 'friendsOf', 'first', 'previous', 'next', 'last', 'image']);
  const hrefs = (node: unknown, out: string[] = []): string[] => {
    if (Array.isArray(node)) node.forEach((n) => hrefs(n, out));
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '@context') continue;
        if (k === 'template') out.push(v as string);
        else if (LINK_TERMS.has(k) && typeof v === 'string' && v.startsWith('http')) out.push(v);
        else hrefs(v, out);
      }
    }
    return out;
  };
  for (const path of PATHS) {
    const { body, service } = await get(path);
    const found = hrefs(body);
    assert.ok(found.length >= 3, path);
    assert.equal(await unresolved(service, found, LD), [], path);
  }
});

links.run();

const bodies = suite('JSON-LD request bodies');

bodies('should read a rendered player back, its @id as the reference', async () => {
  const { body } = await get('/player/alice');
  assert.equal(plain(await jsonLdRepresentation.readBody!(body, LD, PLAYER)), {
    fields: { playerId: 'alice', displayName: 'Alice Liddell', alias: 'alice', image: `${BASE}/player/alice/avatar.png` },
    ref: `${BASE}/player/alice`,
  });
});

bodies('should read equivalent JSON-LD: no context, our context by URL, schema.org, full IRIs', async () => {
  const zoe = { fields: { displayName: 'Zoe Quill', alias: 'zoe', image: 'https://cdn.test/z.png' } };
  const payload = { name: 'Zoe Quill', alternateName: 'zoe', image: 'https://cdn.test/z.png' };
  assert.equal(plain(await readJsonLdBody(payload, PLAYER)), zoe);
  assert.equal(plain(await readJsonLdBody({ '@context': PLAYER_CONTEXT_URL, ...payload }, PLAYER)), zoe);
  assert.equal(plain(await readJsonLdBody({ '@context': 'https://schema.org', '@type': 'Person', ...payload }, PLAYER)), zoe);
  assert.equal(plain(await readJsonLdBody({ '@context': { s: 'http://schema.org/' }, 's:name': 'Zoe Quill', 's:alternateName': 'zoe', 's:image': { '@id': 'https://cdn.test/z.png' } }, PLAYER)), zoe);
  assert.equal(plain(await readJsonLdBody({ [`${SCHEMA}name`]: 'Zoe Quill', [`${SCHEMA}alternateName`]: 'zoe', [`${SCHEMA}image`]: 'https://cdn.test/z.png' }, PLAYER)), zoe);
  assert.equal(await readJsonLdBody({ '@id': `${BASE}/player/bob` }, PLAYER), { fields: {}, pointers: { ref: '/@id' }, ref: `${BASE}/player/bob` });
  assert.equal(await readJsonLdBody({ playerId: 'bob' }, PLAYER), { fields: { playerId: 'bob' }, pointers: { playerId: '/playerId' } });
});

bodies('should answer 400 for undefined terms, foreign properties, remote contexts, several values or nodes', async () => {
  const fails = async (b: unknown, detail: string) => {
    try {
      await readJsonLdBody(b, PLAYER);
      assert.unreachable(JSON.stringify(b));
    } catch (e) {
      assert.instance(e, HttpError, JSON.stringify(b));
      assert.is((e as HttpError).status, 400);
      assert.match((e as HttpError).message, detail);
    }
  };
  await fails({ nickname: 'z', alternateName: 'zoe' }, '"nickname" is not defined');
  await fails({ 'http://xmlns.com/foaf/0.1/nick': 'z' }, 'not a player field');
  await fails({ '@context': 'https://example.com/context.jsonld', alternateName: 'zoe' }, 'cannot be loaded');
  await fails({ alternateName: ['a', 'b'] }, 'exactly one value');
  await fails({ '@graph': [{ alternateName: 'a' }, { alternateName: 'b' }] }, 'one node');
  await fails({ '@context': { '@version': 2 } }, 'cannot be read');
  await fails([{ alternateName: 'a' }], 'must be a JSON object');
  await fails(null, 'must be a JSON object');
});

bodies.run();

const post = suite('POST /player/{id}/friends with a JSON-LD body');

post('should create a friend from schema.org JSON-LD and add an existing player by @id', async () => {
  const { send, call } = await writableService();
  const headers = { 'Content-Type': LD, Accept: LD };
  const person = { '@context': 'https://schema.org', '@type': 'Person', name: 'Zoe Quill', alternateName: 'zoe', image: 'https://cdn.test/z.png' };
  const res = await send('POST', '/player/bob/friends', person, headers);
  assert.is(res.status, 201);
  const created = await res.json();
  assert.is(res.headers.get('location'), created['@id']);
  assert.is(created.alternateName, 'zoe');
  const byId = await send('POST', '/player/bob/friends', { '@id': `${BASE}/player/alice` }, { 'Content-Type': `${LD}; profile="http://www.w3.org/ns/json-ld#compacted"` });
  assert.is(byId.status, 201);
  assert.is(byId.headers.get('location'), `${BASE}/player/alice`);
  assert.is((await call('/player/bob/friends')).headers.get('total-count'), '6');
});

post('should answer 400 for an undefined term, 415 for an unknown media type parameter, and change nothing', async () => {
  const { send, call } = await writableService();
  const res = await send('POST', '/player/bob/friends', { nickname: 'zoe' }, { 'Content-Type': LD });
  assert.is(res.status, 400);
  assert.match((await res.json()).detail, 'nickname');
  assert.is((await send('POST', '/player/bob/friends', { alternateName: 'zoe' }, { 'Content-Type': `${LD}; version=2` })).status, 415);
  assert.is((await call('/player/bob/friends')).headers.get('total-count'), '4');
});

post('should serve JSON-LD for a profiled Accept and refuse other parameters', async () => {
  const { call } = await demoService();
  const profiled = await call('/player/alice', { headers: { Accept: `${LD}; profile="http://www.w3.org/ns/json-ld#compacted"` } });
  assert.is(profiled.headers.get('content-type'), LD);
  assert.is((await call('/player/alice', { headers: { Accept: `${LD}; version=2` } })).status, 406);
});

post.run();
