// bench/avatar: the avatar endpoint's paths (identicon drawn, identicon cached, 304, uploaded PNG) and
// /swagger.json, against a plain JSON player GET in the same run, through service.fetch.
import { createPlayerService, MemoryPlayerStore } from '../src/index.js';
import { identiconPng } from '../src/player/avatar/identicon.js';
import { compareAsync, report } from './support/measure.js';

const BASE = 'https://api.example.com';
const IDS = 1000;

const store = new MemoryPlayerStore();
for (let i = 0; i < IDS; i++) await store.putPlayer({ playerId: `p${i}`, alias: `p${i}` });
await store.putAvatar('p0', await identiconPng('uploaded'), 'image/png');
const service = createPlayerService({ baseUrl: BASE, store });
const get = (path: string, headers: Record<string, string> = {}) => service.fetch(new Request(BASE + path, { headers })).then((r) => r.arrayBuffer());
const etag = (await service.fetch(new Request(`${BASE}/player/p1/avatar.png`))).headers.get('etag')!;
const swaggerTag = (await service.fetch(new Request(`${BASE}/swagger.json`))).headers.get('etag')!;

let next = 0;
const { wall, cpu } = await compareAsync(
  [
    { name: 'GET player (JSON, baseline)', run: () => get('/player/p1') },
    // More ids than the identicon cache holds, visited in turn: every call draws and encodes a PNG.
    { name: 'GET identicon, drawn', run: () => get(`/player/p${2 + (next++ % (IDS - 2))}/avatar.png`) },
    { name: 'GET identicon, cached', run: () => get('/player/p1/avatar.png') },
    { name: 'GET identicon, 304', run: () => get('/player/p1/avatar.png', { 'If-None-Match': etag }) },
    { name: 'GET uploaded avatar', run: () => get('/player/p0/avatar.png') },
    { name: 'GET /swagger.json', run: () => get('/swagger.json') },
    { name: 'GET /swagger.json, 304', run: () => get('/swagger.json', { 'If-None-Match': swaggerTag }) },
  ],
  { rounds: 7, iterations: 300, warmup: 300 },
);
report('Avatar and description paths, wall time', wall, 'GET player (JSON, baseline)');
report('Avatar and description paths, CPU time', cpu, 'GET player (JSON, baseline)');
