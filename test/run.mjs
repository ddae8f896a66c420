// Runs every test/**/*.test.ts file in its own Node process (TypeScript through tsx), two at a time,
// and prints the totals as a last line "N passed, N failed[, N skipped]".
// Usage: node test/run.mjs [substring...]   (only files whose path contains one of the substrings)
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { availableParallelism } from 'node:os';

const root = new URL('.', import.meta.url).pathname;
const filters = process.argv.slice(2);
const TIMEOUT_MS = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 180_000);

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' || name === 'artifacts' ? [] : walk(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = walk(root)
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
let passed = 0, failed = 0, skipped = 0;
const failures = [];
const notes = [];

function runFile(file) {
  return new Promise((resolve) => {
    const name = relative(process.cwd(), file);
    const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => { out += `\n[timed out after ${TIMEOUT_MS} ms]\n`; child.kill('SIGKILL'); }, TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const text = strip(out);
      const num = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(text)?.[1] ?? NaN);
      const total = num('Total'), ok = num('Passed'), skip = num('Skipped');
      let f;
      // uvu's Total leaves skipped tests out.
      if (Number.isNaN(total)) { f = 1; } else { f = total - ok; passed += ok; skipped += skip; }
      if (code !== 0 && f === 0) f = 1;
      failed += f;
      const status = f ? 'FAIL' : 'ok  ';
      process.stdout.write(`${status} ${name}${Number.isNaN(total) ? '' : ` (${ok}/${total}${skip ? `, ${skip} skipped` : ''})`}\n`);
      if (f) failures.push({ name, text });
      else for (const line of text.split('\n')) if (line.startsWith('note: ')) notes.push(`${name}: ${line.slice(6)}`);
      resolve();
    });
  });
}

const queue = [...files];
const workers = Array.from({ length: Math.min(Number(process.env.TEST_JOBS ?? availableParallelism()), 4) }, async () => {
  while (queue.length) await runFile(queue.shift());
});
await Promise.all(workers);
for (const { name, text } of failures) process.stdout.write(`\n===== ${name} =====\n${text}\n`);
for (const note of notes) process.stdout.write(`\n${note}\n`);
if (files.length === 0) { console.log('no test files matched'); failed++; }
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed ? 1 : 0;
