#!/usr/bin/env node
// Launcher of the `player-hypermedia` command: the TypeScript source through tsx in a checkout of the
// repository (tsconfig.json beside src, never packed), else the compiled dist/cli/main.js, which is
// what an installed package always runs, whatever tsx the consumer has.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const source = new URL('../src/cli/main.ts', import.meta.url);
let tsx;
try {
  tsx = createRequire(import.meta.url).resolve('tsx/esm/api');
} catch {
  tsx = undefined;
}
if (tsx && existsSync(source) && existsSync(new URL('../tsconfig.json', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
}
