import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { representationDocs } from '../scripts/generate-representation-docs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docs = suite('docs/representations');

docs('should match what the code renders (npm run docs:representations regenerates them)', async () => {
  const expected = await representationDocs();
  for (const [path, content] of expected) {
    assert.ok(existsSync(join(root, path)), `${path} is missing: run npm run docs:representations`);
    assert.ok(readFileSync(join(root, path), 'utf8') === content, `${path} is stale: run npm run docs:representations`);
  }
  const pages = readdirSync(join(root, 'docs', 'representations')).map((f) => `docs/representations/${f}`);
  assert.equal(pages.filter((p) => !expected.has(p)), [], 'pages of formats that are no longer registered');
});

docs('should show a player and a friends page of every format', async () => {
  const expected = await representationDocs();
  for (const [path, content] of expected) {
    if (path === 'docs/representations.md') continue;
    assert.match(content, '## A player');
    // kai-11 is the first friend on page 2: every format names it.
    assert.match(content, 'kai-11', path);
  }
});

docs.run();
