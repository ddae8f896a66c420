// bench/memory: the heap after GC of the library under a crawler of distinct URLs (10k, 100k, 1M), every
// format, against what its options promise: the caches within 1.25x of their budgets, nothing kept per
// player or per URL outside a budget. Each configuration runs in a process of its own
// (bench/support/memory-crawl.ts). With a database (BENCH_DATABASE_URL, or TEST_DATABASE_URL as
// .ci/with-postgres sets), the same on the PostgreSQL store, whose records and pages the memo keeps
// (10k and 100k URLs: MEMORY_PG_CHECKPOINTS). Last line: `all goals met` or what was not.
import { spawn } from 'node:child_process';

const MiB = 1024 * 1024;
const CHECKPOINTS = (process.env.MEMORY_CHECKPOINTS ?? '10000,100000,1000000').split(',').map(Number);
/** What the caches may cost beyond their budgets: estimates of their objects err, within this. */
const BUDGET_FACTOR = 1.25;
/** What may be kept outside any cache option: the listed players' documents (2,048) and the service's own tables. */
const FIXED_ALLOWANCE = 8 * MiB;

interface Config {
  name: string;
  options: Record<string, unknown>;
  /** The bytes the options allow the caches (answer memo + body cache). */
  budget: number;
  /** The PostgreSQL store at this URL instead of the memory store. */
  database?: string;
}

const CONFIGS: Config[] = [
  { name: 'caches off', options: { memoizeAnswers: false, bodyCacheBytes: 0 }, budget: 0 },
  { name: 'defaults (memo 32 MiB, bodies 8 MiB)', options: {}, budget: 40 * MiB },
  { name: 'defaults, br and gzip', options: { compression: 'br' }, budget: 40 * MiB },
  { name: 'memo off, bodies 8 MiB, br and gzip', options: { memoizeAnswers: false, compression: 'br' }, budget: 8 * MiB },
  { name: 'small budgets (memo 4 MiB, bodies 1 MiB)', options: { answerMemoBytes: 4 * MiB, bodyCacheBytes: 1 * MiB }, budget: 5 * MiB },
];
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const PG_CHECKPOINTS = (process.env.MEMORY_PG_CHECKPOINTS ?? '10000,100000').split(',').map(Number);
if (databaseUrl) {
  for (const config of [CONFIGS[0]!, CONFIGS[1]!, CONFIGS[4]!]) CONFIGS.push({ ...config, name: `PostgreSQL, ${config.name}`, database: databaseUrl });
}

interface Sample {
  urls: number;
  heap: number;
  memoBytes: number;
  bodyBytes: number;
}

function crawl(config: Config): Promise<{ base: number; samples: Sample[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', new URL('./support/memory-crawl.ts', import.meta.url).pathname], {
      env: {
        ...process.env,
        MEMORY_OPTIONS: JSON.stringify(config.options),
        MEMORY_CHECKPOINTS: (config.database ? PG_CHECKPOINTS : CHECKPOINTS).join(','),
        ...(config.database ? { MEMORY_DATABASE_URL: config.database } : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${config.name}: exited with ${code}\n${out}`));
      const lines = out.trim().split('\n').map((l) => JSON.parse(l) as Sample & { base?: number });
      resolve({ base: lines[0]!.base!, samples: lines.slice(1) });
    });
  });
}

const mb = (bytes: number) => (bytes / MiB).toFixed(1).padStart(7);
const started = Date.now();
if (databaseUrl) await seedPostgres(databaseUrl);
// Two at a time (the machine's cores); each process measures only its own heap.
const results = new Map<Config, { base: number; samples: Sample[] }>();
const queue = [...CONFIGS];
await Promise.all(
  [0, 1].map(async () => {
    for (let config = queue.shift(); config; config = queue.shift()) results.set(config, await crawl(config));
  }),
);

/** The caches-off run on the same store as `config`: what its caches' cost is measured from. */
const offFor = (config: Config) => results.get(CONFIGS.find((c) => c.budget === 0 && c.database === config.database)!)!;
const failures: string[] = [];
console.log(`bench/memory: heap after GC (heapUsed + ArrayBuffers), MiB, over a crawl of distinct URLs in 8 formats of 20,000 players${databaseUrl ? '' : ' (PostgreSQL skipped: set BENCH_DATABASE_URL or run under .ci/with-postgres)'}`);
console.log(`${'configuration'.padEnd(52)} ${'URLs'.padStart(9)} ${'heap'.padStart(7)} ${'caches'.padStart(7)} ${'budget'.padStart(7)} ${'ratio'.padStart(6)}  counted (memo + bodies)`);
for (const config of CONFIGS) {
  const { base, samples } = results.get(config)!;
  for (const sample of samples) {
    const reference = offFor(config).samples.find((s) => s.urls === sample.urls)!;
    // The caches' cost: this configuration's heap beyond the caches-off heap at the same point of the crawl.
    const caches = config.budget === 0 ? sample.heap - base : sample.heap - reference.heap;
    // On PostgreSQL the listed items' documents (the fixed allowance's bulk) are kept only for the
    // records the memo keeps, so they are beyond the caches-off heap there: allowed beside the budget.
    const allowed = config.budget === 0 ? FIXED_ALLOWANCE : config.budget * BUDGET_FACTOR + (config.database ? FIXED_ALLOWANCE : 0);
    const ratio = caches / (config.budget === 0 ? FIXED_ALLOWANCE : config.budget + (config.database ? FIXED_ALLOWANCE : 0));
    const ok = caches <= allowed;
    console.log(
      `${config.name.padEnd(52)} ${String(sample.urls).padStart(9)} ${mb(sample.heap)} ${mb(caches)} ${mb(config.budget === 0 ? FIXED_ALLOWANCE : config.budget + (config.database ? FIXED_ALLOWANCE : 0))} ${ratio.toFixed(2).padStart(6)}  ${mb(sample.memoBytes)} + ${mb(sample.bodyBytes).trim()}${ok ? '' : '  <- over'}`,
    );
    if (!ok) {
      failures.push(
        config.budget === 0
          ? `caches off: ${mb(caches).trim()} MiB kept beyond the start at ${sample.urls} URLs (allowed ${mb(FIXED_ALLOWANCE).trim()})`
          : `${config.name}: the caches cost ${mb(caches).trim()} MiB at ${sample.urls} URLs, over ${mb(allowed).trim()} (${BUDGET_FACTOR}x their budget of ${mb(config.budget).trim()}${config.database ? ' and the fixed allowance' : ''})`,
      );
    }
  }
}
console.log(`(caches off: the heap beyond the start of the crawl, against the fixed allowance; others: beyond the caches-off heap, against the budget, plus on PostgreSQL the fixed allowance; ${((Date.now() - started) / 1000).toFixed(0)} s)`);
console.log(failures.length === 0 ? 'all goals met' : `goal not met: ${failures.join('; ')}`);
if (failures.length) process.exitCode = 1;

/** Seeds the PostgreSQL crawl's schema once, in a process of its own. */
function seedPostgres(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', new URL('./support/memory-crawl.ts', import.meta.url).pathname], {
      env: { ...process.env, MEMORY_DATABASE_URL: url, MEMORY_SEED_ONLY: '1' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seeding PostgreSQL: exited with ${code}`))));
  });
}
