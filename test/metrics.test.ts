import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { createPlayerService } from '../src/index.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from './support/adapter-servers.js';

// /metrics in the Prometheus text format, read by a Prometheus text parser, over a real server.
const metrics = suite('metrics');
let servers: AdapterServer[] = [];
let guarded: AdapterServer[] = [];

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }[];
}

metrics.before(async () => {
  servers = await startAdapterServers(['node'], { metrics: true });
  guarded = await startAdapterServers(['node'], { metrics: 'authenticated' });
});
metrics.after(async () => {
  await Promise.all([...servers, ...guarded].map((s) => s.close()));
});

let lastText = '';

async function scrape(origin: string, headers: Record<string, string> = {}): Promise<Family[]> {
  const res = await fetch(`${origin}/metrics`, { headers });
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  lastText = await res.text();
  return (parsePrometheusTextFormat as (text: string) => Family[])(lastText);
}

metrics('should count requests by route, method and status, with latencies, kept answers and store errors', async () => {
  const [s] = servers;
  for (let i = 0; i < 3; i++) await fetch(`${s!.origin}/player/alice`).then((r) => r.arrayBuffer());
  await fetch(`${s!.origin}/player/nobody`).then((r) => r.arrayBuffer());
  await fetch(`${s!.origin}/no/such/path`).then((r) => r.arrayBuffer());
  const families = await scrape(s!.origin);
  const requests = families.find((f) => f.name === 'player_hypermedia_requests_total')!;
  assert.is(requests.type, 'COUNTER');
  const count = (route: string, status: string) =>
    Number(requests.metrics.find((m) => m.labels?.route === route && m.labels?.method === 'GET' && m.labels?.status === status)?.value ?? 0);
  assert.is(count('/player/{id}', '200'), 3);
  assert.is(count('/player/{id}', '404'), 1);
  assert.is(count('unmatched', '404'), 1);
  const durations = families.find((f) => f.name === 'player_hypermedia_request_duration_seconds')!;
  assert.is(durations.type, 'HISTOGRAM');
  // (This parser merges a histogram's labelled series: the per-route lines are checked as text.)
  assert.match(lastText, 'player_hypermedia_request_duration_seconds_count{route="/player/{id}",method="GET"} 4');
  assert.match(lastText, 'player_hypermedia_request_duration_seconds_bucket{route="/player/{id}",method="GET",le="+Inf"} 4');
  const sources = families.find((f) => f.name === 'player_hypermedia_answers_total')!;
  assert.ok(Number(sources.metrics.find((m) => m.labels?.source === 'kept')?.value) >= 1, 'repeated reads answered from the memo');
  assert.ok(families.some((f) => f.name === 'player_hypermedia_store_errors_total'));
  assert.ok(families.some((f) => f.name === 'player_hypermedia_answer_memo_lookups_total'));
  assert.ok(families.some((f) => f.name === 'player_hypermedia_body_cache_lookups_total'));
});

metrics('should count invented methods as OTHER: 400 methods a client makes up add one series, not 400', async () => {
  // Node's parser knows a fixed list of methods; Deno, Bun and Workers pass any token on (Fetch allows it).
  const service = createPlayerService({ baseUrl: 'http://x.test', metrics: true });
  for (let i = 0; i < 400; i++) assert.is((await service.fetch(new Request('http://x.test/player/alice', { method: `X${i}METHOD` }))).status, 501);
  assert.is((await service.fetch(new Request('http://x.test/player/alice', { method: 'PATCH' }))).status, 401);
  const text = await (await service.fetch(new Request('http://x.test/metrics'))).text();
  assert.not.match(text, 'X17METHOD');
  assert.match(text, 'player_hypermedia_requests_total{route="/player/{id}",method="OTHER",status="501"} 400');
  assert.match(text, 'player_hypermedia_requests_total{route="/player/{id}",method="PATCH",status="401"} 1');
  assert.ok(text.length < 20_000, `${text.length} bytes of metrics`);
});

metrics("should answer /metrics only to accepted credentials with metrics: 'authenticated'", async () => {
  const [s] = guarded;
  assert.is((await fetch(`${s!.origin}/metrics`)).status, 401);
  assert.is((await fetch(`${s!.origin}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status, 401);
  const families = await scrape(s!.origin, { Authorization: `Bearer ${WRITE_TOKEN}` });
  assert.ok(families.length > 0);
});

metrics('should be off by default', async () => {
  const [plain] = await startAdapterServers(['node']);
  try {
    assert.is((await fetch(`${plain!.origin}/metrics`)).status, 404);
  } finally {
    await plain!.close();
  }
});

metrics.run();
