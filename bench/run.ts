// Runs the benchmarks: `npm run bench` runs them all, `npm run bench -- render` only bench/render.ts.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url).pathname;
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3))
  .filter((n) => process.argv.length <= 2 || process.argv.slice(2).includes(n));
for (const name of names) {
  console.log(`\n### bench/${name}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${name}.ts`], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
