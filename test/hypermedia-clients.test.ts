import { Ketting } from 'ketting';
import { Jsona } from 'jsona';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { JSON_API_MEDIA_TYPE } from '../src/representations/json-api.js';
import { SIREN_MEDIA_TYPE } from '../src/representations/siren.js';
import { PLAYER_VOCAB } from '../src/player/api.js';
import { startDemoServer } from './support/http-server.js';
import { walkFriendPages } from './support/ketting-walk.js';

const clients = suite('real hypermedia clients over node:http');
let base = '';
let server: Awaited<ReturnType<typeof startDemoServer>> | undefined;

clients.before(async () => {
  server = await startDemoServer();
  base = server.origin;
});
clients.after(() => server!.close());

clients('should let ketting follow friends and next to the last page in Siren', async () => {
  const client = new Ketting(base);
  // Siren links our own relation types as extension URIs (RFC 8288 section 2.1.2).
  const pages = await walkFriendPages(client, SIREN_MEDIA_TYPE, '/player/alice', `${PLAYER_VOCAB}friends`);
  assert.equal(pages.map((p) => p.data.size), ['10', '10', '10', '2']);
  const last = await client.go('/player/alice/friends?page=4').get();
  assert.is(last.data.size, '2');
  assert.equal(
    last.links.getMany('item').map((l) => l.href),
    [`${base}/player/kai-31`, `${base}/player/lena-32`],
  );
  const action = last.action('add-friend');
  assert.equal(action.fields.map((f) => f.name), ['name', 'alternateName', 'image']);
});

clients('should let ketting follow friends and next to the last page in JSON:API', async () => {
  const client = new Ketting(base);
  const pages = (await walkFriendPages(client, JSON_API_MEDIA_TYPE, '/player/alice')).map((p) => p.data.data.map((r: { id: string }) => r.id) as string[]);
  assert.equal(pages.map((p) => p.length), [10, 10, 10, 2]);
  assert.is(new Set(pages.flat()).size, 32);
  assert.is(pages[3]![1], 'lena-32');
});

clients('should let jsona deserialise our JSON:API players, pages and compound documents', async () => {
  const jsona = new Jsona();
  const get = async (path: string) => (await fetch(base + path, { headers: { Accept: JSON_API_MEDIA_TYPE } })).json();
  const bob = jsona.deserialize(await get('/player/bob?include=friends')) as any;
  assert.is(bob.id, 'bob');
  assert.is(bob.name, 'Bob Builder');
  assert.equal(bob.friends.map((f: { id: string }) => f.id), ['ada-01', 'kai-11', 'ada-21', 'kai-31']);
  assert.is(bob.friends[0].alternateName, 'ada1');
  const page = jsona.deserialize(await get('/player/alice/friends?page=2&fields[players]=name')) as any[];
  assert.is(page.length, 10);
  assert.equal(Object.keys(page[0]).filter((k) => !['type', 'id', 'links', 'relationshipNames'].includes(k)), ['name']);
});

clients.run();
