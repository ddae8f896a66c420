import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ketting } from 'ketting';
import { Jsona } from 'jsona';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toNodeListener } from '../src/adapters/node.js';
import { createPlayerService, JSON_API_MEDIA_TYPE, MemoryPlayerStore, seedDemoData, SIREN_MEDIA_TYPE, PLAYER_VOCAB } from '../src/index.js';

/** The demo service on a real node:http server on an ephemeral port, its links built from that port. */
async function startServer(): Promise<{ base: string; server: Server }> {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  let handler: ReturnType<typeof toNodeListener> | undefined;
  const server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handler = toNodeListener(createPlayerService({ baseUrl: base, store }));
  return { base, server };
}

/** Follows `friends` from a player, then `next` until there is none; returns the player ids seen per page. */
async function walk(client: Ketting, start: string, friendsRel: string, items: (data: any) => string[]): Promise<string[][]> {
  let page = await client.go(start).follow(friendsRel);
  const pages: string[][] = [];
  for (;;) {
    const state = await page.get();
    pages.push(items(state.data));
    if (!state.links.has('next')) break;
    page = await page.follow('next');
  }
  return pages;
}

const clients = suite('real hypermedia clients over node:http');
let base = '';
let server: Server | undefined;

clients.before(async () => {
  ({ base, server } = await startServer());
});
clients.after(() => new Promise<void>((resolve) => server!.close(() => resolve())));

clients('should let ketting follow friends and next to the last page in Siren', async () => {
  const client = new Ketting(base);
  client.contentTypeMap = { [SIREN_MEDIA_TYPE]: client.contentTypeMap[SIREN_MEDIA_TYPE]! };
  // Siren links our own relation types as extension URIs (RFC 8288 section 2.1.2).
  const pages = await walk(client, '/player/alice', `${PLAYER_VOCAB}friends`, (d) => [d.size]);
  assert.equal(pages, [['10'], ['10'], ['10'], ['2']]);
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
  client.contentTypeMap = { [JSON_API_MEDIA_TYPE]: client.contentTypeMap[JSON_API_MEDIA_TYPE]! };
  const pages = await walk(client, '/player/alice', 'friends', (d) => d.data.map((r: { id: string }) => r.id));
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
