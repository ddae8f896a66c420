import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/child-server.js';
import { installPackedLibrary } from './support/runtimes.js';
import { storeConformance } from '../src/stores/testing.js';
import { MemoryStore } from '../src/stores/memory.js';

const CONSUMER = join(ROOT, '.scratch', 'types-consumer');

// The shipped .d.ts in a strict consumer (exactOptionalPropertyTypes, as `tsc --init` sets it), without
// skipLibCheck, with the default lib (DOM included): TypeScript 5.9 and 7 (what `npm i -D typescript`
// installs now) with @types/node 20 and 26, and 5.8 with 20 (all devDependencies, under npm aliases). The consumer imports every entry point; the adapters' own types come from the
// packages the README names (@types/express, @types/pg; Fastify and Hono ship theirs).
const consumer = suite('the packed type declarations in a strict consumer');

const COMPILERS: Record<string, string> = { '5.9': 'typescript/bin/tsc', '7': 'typescript-7/bin/tsc', '5.8': 'typescript-5.8/bin/tsc' };
const NODE_TYPES: Record<string, string> = { '20': '@types/node', '26': 'types-node-26' };
const MATRIX: [ts: string, node: string][] = [['5.9', '20'], ['5.9', '26'], ['7', '20'], ['7', '26'], ['5.8', '20']];

const USE = `import { applyPatch, createPlayerService, HttpError, JsonPatchError, MemoryPlayerStore, PLAYER_SCHEMA, render, renderAll, seedDemoData, type JsonPatchLimits, type Representation } from 'player-hypermedia';
import { halRepresentation } from 'player-hypermedia/formats';
import { StoreError, type PlayerStore } from 'player-hypermedia/store';
import { storeConformance, type StoreCase } from 'player-hypermedia/store/testing';
import { createNodeServer, toNodeListener } from 'player-hypermedia/node';
import { toExpressHandler } from 'player-hypermedia/express';
import { playerApiPlugin } from 'player-hypermedia/fastify';
import { toHonoHandler } from 'player-hypermedia/hono';
import { PostgresPlayerStore } from 'player-hypermedia/postgres';

const store: PlayerStore = new MemoryPlayerStore();
await seedDemoData(store);
const service = createPlayerService({ baseUrl: 'https://api.example.test', store, representations: [halRepresentation] });
const response: Response = await service.fetch(new Request('https://api.example.test/player/alice'));
const server = createNodeServer(toNodeListener(service));
const limits: JsonPatchLimits = { maxOperations: 10 };
const patched = applyPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }], limits);
const formats: readonly Representation[] = [halRepresentation];
const kit: StoreCase[] = storeConformance({ make: () => new MemoryPlayerStore() });
// What process.env gives is accepted where that is natural (README, "PostgreSQL and several instances").
const pgStore = () => new PostgresPlayerStore({ connectionString: process.env.DATABASE_URL, schema: process.env.DATABASE_SCHEMA });
export { response, server, patched, formats, kit, pgStore, toExpressHandler, playerApiPlugin, toHonoHandler, PostgresPlayerStore, HttpError, JsonPatchError, StoreError, PLAYER_SCHEMA, render, renderAll };
`;

const TSCONFIG = {
  compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', types: ['node'], exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true },
  include: ['index.ts', 'snippets/*.ts'],
};

/**
 * Every ts code block of README.md and docs/*.md, as a module of the consumer: each must compile as
 * shown. A block that is deliberately partial says so on its first line (`// Fragment: ...`) and is
 * left out. Deno's `npm:` specifier is read as the package name; Bun's and Deno's globals are declared
 * (snippets/runtimes.d.ts), as their own type packages would.
 */
function docSnippets(): { name: string; source: string }[] {
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  return docs.flatMap((doc) =>
    [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((m, i) => ({ name: `${doc.replace(/\W+/g, '-')}-${i + 1}`, source: m[1]! }))
      .filter((s) => !s.source.startsWith('// Fragment')),
  );
}

const RUNTIME_GLOBALS = `declare const Bun: { serve(options: { port: number; fetch: (request: Request) => Response | Promise<Response> }): unknown };
declare const Deno: { serve(options: { port: number }, handler: (request: Request) => Response | Promise<Response>): unknown };
`;

consumer.before(async () => {
  await installPackedLibrary(CONSUMER);
  writeFileSync(join(CONSUMER, 'index.ts'), USE);
  mkdirSync(join(CONSUMER, 'snippets'));
  writeFileSync(join(CONSUMER, 'snippets', 'runtimes.d.ts'), RUNTIME_GLOBALS);
  for (const { name, source } of docSnippets()) writeFileSync(join(CONSUMER, 'snippets', `${name}.ts`), `${source.replaceAll("'npm:player-hypermedia'", "'player-hypermedia'")}\nexport {};\n`);
  writeFileSync(join(CONSUMER, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
});

for (const [ts, node] of MATRIX) {
  const compiler = COMPILERS[ts]!;
  const types = NODE_TYPES[node]!;
  consumer(`should typecheck the consumer and every code block of the docs with TypeScript ${ts} and @types/node ${node}`, () => {
    // The consumer's own @types/node, found before the repository's (the nearest node_modules wins).
    const link = join(CONSUMER, 'node_modules', '@types', 'node');
    rmSync(link, { recursive: true, force: true });
    mkdirSync(join(CONSUMER, 'node_modules', '@types'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', types), link, 'dir');
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', compiler), '-p', 'tsconfig.json'], { cwd: CONSUMER, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      assert.unreachable(`tsc ${ts} with @types/node ${node}:\n${(error as { stdout?: string }).stdout ?? error}`);
    }
  });
}

consumer('should have code blocks in the docs to check, and mark the partial ones', () => {
  const snippets = docSnippets();
  assert.ok(snippets.length >= 20, `${snippets.length} blocks`);
  assert.ok(snippets.some((s) => s.name.startsWith('docs-adapters')), 'docs/*.md are read');
});

consumer('should pack dist, not docs/api, and run the CLI from dist in an installed package', () => {
  const files = execFileSync('tar', ['tzf', join(CONSUMER, 'pack', readdirSync(join(CONSUMER, 'pack'))[0]!)], { encoding: 'utf8' }).split('\n');
  assert.ok(files.includes('package/dist/index.js'));
  assert.ok(files.includes('package/dist/index.d.ts'));
  assert.ok(files.includes('package/examples/teams.ts'), 'the examples the docs cite are shipped');
  assert.not.ok(files.some((f) => f.startsWith('package/docs/api/')), 'docs/api is not packed');
  assert.not.ok(files.includes('package/tsconfig.json'));
  // tsx resolves from here (the repository's node_modules), yet the installed CLI runs its dist: the
  // packed source of the CLI is made to fail, and the command still works.
  const installed = join(CONSUMER, 'node_modules', 'player-hypermedia');
  writeFileSync(join(installed, 'src', 'cli', 'main.ts'), "throw new Error('the CLI ran its TypeScript source');\n");
  const out = execFileSync(process.execPath, [join(installed, 'bin', 'player-hypermedia.js'), 'render', '--help'], { cwd: CONSUMER, encoding: 'utf8' });
  assert.match(out, /render/);
});

consumer('should run the store kit under node:test from the installed package, as docs/stores.md shows', () => {
  writeFileSync(
    join(CONSUMER, 'kit.test.mjs'),
    `import { test } from 'node:test';
import { storeConformance } from 'player-hypermedia/store/testing';
import { MemoryStore } from 'player-hypermedia/store';
for (const { name, run } of storeConformance({ make: () => new MemoryStore() })) test(name, run);
`,
  );
  let out: string;
  try {
    out = execFileSync(process.execPath, ['--test', '--test-reporter=tap', 'kit.test.mjs'], { cwd: CONSUMER, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    return assert.unreachable(`node --test failed:\n${(error as { stdout?: string }).stdout ?? error}`);
  }
  // Every case of the kit ran and passed: as many as the kit has.
  assert.match(out, new RegExp(`# pass ${storeConformance(() => new MemoryStore()).length}\\n`));
  assert.match(out, /# fail 0\n/);
});

consumer('should be loadable with require() on this Node (20.19+), as the README says', () => {
  const out = execFileSync(process.execPath, ['-e', "const m = require('player-hypermedia'); const f = require('player-hypermedia/formats'); console.log(typeof m.createPlayerService, typeof f.halRepresentation.render)"], { cwd: CONSUMER, encoding: 'utf8' });
  assert.is(out.trim(), 'function function');
});

consumer('should have only what src imports at run time as dependencies (negotiator is not one)', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // swagger-ui-dist: the explorer's files, read from disk by player-hypermedia/explorer (no import).
  assert.equal(Object.keys(pkg.dependencies).sort(), ['ajv', 'ajv-formats', 'jsonld', 'swagger-ui-dist']);
});

consumer.run();
