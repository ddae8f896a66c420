// Hydra as its own tools see it, over a real node:http server: hydra-validator's analysis of the resources
// (Link to the ApiDocumentation, the documentation itself, its entry point), and alcaeus finding the
// add-friend operation from the documentation and invoking it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import create from 'alcaeus';
import Environment from '@zazuko/env/Environment.js';
import rdf from '@zazuko/env-node';
import { createPlayerService, type PlayerStore } from '../src/index.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from './support/adapter-servers.js';
import { describeHydra } from '../src/core/descriptions/hydra.js';

const run = promisify(execFile);
const VALIDATOR = fileURLToPath(new URL('../node_modules/.bin/hydra-validator', import.meta.url));
const HYDRA = 'http://www.w3.org/ns/hydra/core#';
const hydra = suite('Hydra: ApiDocumentation, hydra-validator and alcaeus');
let served: AdapterServer;
let origin = '';
let store: PlayerStore;

hydra.before(async () => {
  served = (await startAdapterServers(['node']))[0]!;
  origin = served.origin;
  store = served.store;
});
hydra.after(() => served.close());

hydra('every answer links to the ApiDocumentation, errors and other formats too', async () => {
  const rel = `rel="${HYDRA}apiDocumentation"`;
  for (const [path, accept] of [['/player/alice', 'application/ld+json'], ['/player/alice/friends', 'application/hal+json'], ['/player/nobody', 'application/json'], ['/', '*/*']]) {
    const res = await fetch(origin + path, { headers: { accept: accept! } });
    assert.ok(res.headers.get('link')?.includes(`<${origin}/docs.jsonld>; ${rel}`), `${path}: ${res.headers.get('link')}`);
  }
  const doc = await fetch(`${origin}/docs.jsonld`);
  assert.is(doc.headers.get('content-type'), 'application/ld+json');
  const etag = doc.headers.get('etag')!;
  assert.is((await fetch(`${origin}/docs.jsonld`, { headers: { 'if-none-match': etag } })).status, 304);
});

hydra('hydra-validator analyse reports no failure for the entry point, a player, a friends page and a search page', async () => {
  for (const path of ['/', '/player/alice', '/player/alice/friends?page=2', '/player/alice/friends/search?search=ada']) {
    const result = await run(VALIDATOR, ['analyse', origin + path], { timeout: 60_000 }).catch((error: { stdout: string; stderr: string; code: number }) => {
      throw new Error(`hydra-validator failed (exit ${error.code}) on ${path}:\n${error.stdout}${error.stderr}`);
    });
    // It logs to both streams.
    const stdout = result.stdout + result.stderr;
    assert.not.match(stdout, /FAILURE|ERROR/, stdout);
    assert.match(stdout, /Api Documentation link found|Resource is Api Documentation/, stdout);
    assert.match(stdout, /Entrypoint found/);
    assert.match(stdout, /Found \d+ Supported Classes/);
    assert.not.match(stdout, /WARNING/, `no warning either:\n${stdout}`);
  }
});

hydra('alcaeus finds the POST operation of a friend list in the ApiDocumentation and invokes it', async () => {
  const env = new Environment(create(), { parent: rdf });
  const { representation } = await env.hydra.loadResource(`${origin}/player/bob/friends`);
  const list = representation!.root!;
  assert.ok([...list.types.values()].some((t: { id: { value: string } }) => t.id.value === 'https://w3id.org/player-hypermedia/vocab#FriendList'));
  const post = list.operations.find((o) => o.method === 'POST')!;
  assert.ok(post, 'the POST operation is found');
  // Its title is the documentation's (the page's own inline operation is titled "Add a friend").
  assert.match(post.title ?? "", /^Add a friend: /);
  assert.equal(post.expects.map((c: { id: { value: string } }) => c.id.value), ['https://schema.org/Person']);
  const before = (await store.listFriends('bob', { offset: 0, limit: 1 }))!.total;
  const { response } = await post.invoke(JSON.stringify({ '@context': 'https://schema.org', name: 'Hydra Heracles', alternateName: 'alcaeus' }), {
    'content-type': 'application/ld+json',
    authorization: `Bearer ${WRITE_TOKEN}`,
  });
  assert.is(response!.xhr.status, 201);
  assert.is((await store.listFriends('bob', { offset: 0, limit: 1 }))!.total, before + 1);
});

hydra('the documentation follows the route table: a class per served resource, an operation per method', () => {
  const service = createPlayerService({ baseUrl: 'https://api.example.com' });
  const doc = describeHydra(service.config, 'https://api.example.com') as Record<string, any>;
  const person = doc['hydra:supportedClass'].find((c: any) => c['@id'] === 'schema:Person');
  assert.equal(person['hydra:supportedOperation'].map((o: any) => o['hydra:method']).sort(), ['DELETE', 'GET', 'PATCH', 'PUT']);
  for (const p of person['hydra:supportedProperty']) {
    assert.ok(p['hydra:property']['rdfs:range'], 'the range is on the property');
    assert.not.ok('rdfs:range' in p, 'not on the SupportedProperty');
  }
  const list = doc['hydra:supportedClass'].find((c: any) => c['@id'] === 'ph:FriendList');
  assert.equal(list['hydra:supportedOperation'].map((o: any) => o['hydra:method']), ['GET', 'POST']);
  // Hydra core: a property whose values are IRI templates is a hydra:TemplatedLink, not a hydra:Link.
  const entry = doc['hydra:supportedClass'].find((c: any) => c['@id'] === 'ph:EntryPoint');
  const player = entry['hydra:supportedProperty'].find((p: any) => p['hydra:property']['@id'] === 'ph:player');
  assert.is(player['hydra:property']['@type'], 'hydra:TemplatedLink');
  const friends = person['hydra:supportedProperty'].find((p: any) => p['hydra:property']['@id'] === 'ph:friends');
  assert.is(friends['hydra:property']['@type'], 'hydra:Link');
});

hydra.run();
