// bench/compression: what compressing answers costs and saves. 50-friend pages of each format through
// service.fetch, sent as they are (the baseline), compressed once and then served from the body cache
// (repeated reads), and compressed on every request (body cache and answer memo off: the worst case),
// in interleaved rounds; then the bytes each coding sends.
import { createPlayerService, MemoryPlayerStore, type PlayerServiceOptions } from '../src/index.js';
import { nodeContentCodings } from '../src/adapters/node.js';
import { compareAsync, report } from './support/measure.js';

const BASE = 'https://api.example.com';
const PAGES = 20;
const PAGE_SIZE = 50;
const FORMATS: Record<string, string> = { hal: 'application/hal+json', jsonapi: 'application/vnd.api+json', json: 'application/json' };

const store = new MemoryPlayerStore();
await store.putPlayer({ playerId: 'owner', alias: 'owner', displayName: 'The Owner' });
for (let i = 0; i < PAGES * PAGE_SIZE; i++) {
  await store.putPlayer({ playerId: `friend-${i}`, alias: `alias-${i}`, displayName: `Friend Number ${i} of the Owner`, image: `https://cdn.example.com/avatars/${i}.png` });
  await store.addFriend('owner', `friend-${i}`);
}
const make = (options: Partial<PlayerServiceOptions>) => createPlayerService({ baseUrl: BASE, store, pageSize: PAGE_SIZE, ...options });
const plain = make({});
const compressed = make({ compression: { codings: nodeContentCodings() } });
const everyTime = make({ compression: { codings: nodeContentCodings() }, bodyCacheBytes: 0, memoizeAnswers: false });
const plainComputed = make({ bodyCacheBytes: 0, memoizeAnswers: false });

let next = 0;
const page = () => `${BASE}/player/owner/friends?page=${1 + (next++ % PAGES)}`;
const get = (service: typeof plain, accept: string, encoding?: string) => service.fetch(new Request(page(), { headers: { accept, ...(encoding ? { 'accept-encoding': encoding } : {}) } })).then((r) => r.arrayBuffer());

for (const [name, accept] of Object.entries(FORMATS)) {
  const { wall, cpu } = await compareAsync(
    [
      { name: `${name}: identity (baseline)`, run: () => get(plain, accept) },
      { name: `${name}: br, repeated reads`, run: () => get(compressed, accept, 'br') },
      { name: `${name}: gzip, repeated reads`, run: () => get(compressed, accept, 'gzip') },
      { name: `${name}: identity, rendered every time`, run: () => get(plainComputed, accept) },
      { name: `${name}: br, rendered and coded every time`, run: () => get(everyTime, accept, 'br') },
      { name: `${name}: gzip, rendered and coded every time`, run: () => get(everyTime, accept, 'gzip') },
    ],
    { rounds: 7, iterations: 200, warmup: 200 },
  );
  report(`${name} page of ${PAGE_SIZE}, wall time`, wall, `${name}: identity (baseline)`);
  report(`${name} page of ${PAGE_SIZE}, CPU time (zlib's threads included)`, cpu, `${name}: identity (baseline)`);
  const sizes: string[] = [];
  for (const encoding of ['identity', 'gzip', 'br']) {
    const r = await compressed.fetch(new Request(`${BASE}/player/owner/friends?page=1`, { headers: { accept, 'accept-encoding': encoding } }));
    sizes.push(`${encoding} ${(await r.arrayBuffer()).byteLength} B`);
  }
  console.log(`${name} page of ${PAGE_SIZE}, bytes sent: ${sizes.join(', ')}\n`);
}
