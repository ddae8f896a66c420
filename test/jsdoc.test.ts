import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

// The public API is what the entry points of package.json's exports map export: every export has
// JSDoc with an @example, and docs/api.md lists exactly those exports.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const exportsMap = JSON.parse(readFileSync(ROOT + 'package.json', 'utf8')).exports as Record<string, string | { default: string }>;
/** Subpath ('player-hypermedia', 'player-hypermedia/node'...) to its source file. */
const ENTRY_POINTS = new Map(
  Object.entries(exportsMap).flatMap(([subpath, target]) =>
    typeof target === 'object' && target.default.startsWith('./dist/')
      ? [[subpath === '.' ? 'player-hypermedia' : `player-hypermedia${subpath.slice(1)}`, target.default.replace('./dist/', 'src/').replace(/\.js$/, '.ts')] as const]
      : [],
  ),
);

const program = ts.createProgram(
  [...ENTRY_POINTS.values()].map((f) => ROOT + f),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true },
);
const checker = program.getTypeChecker();

function exportsOf(entry: string): ts.Symbol[] {
  const source = program.getSourceFile(ROOT + entry);
  assert.ok(source, entry);
  return checker.getExportsOfModule(checker.getSymbolAtLocation(source!)!);
}

const jsdoc = suite('JSDoc of the public API');

jsdoc('should give every export of the entry points an @example', () => {
  assert.ok(ENTRY_POINTS.size >= 8, [...ENTRY_POINTS.keys()].join(', '));
  const missing: string[] = [];
  for (const entry of ENTRY_POINTS.values()) {
    for (const exported of exportsOf(entry)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = symbol.getDeclarations() ?? [];
      const hasExample = declarations.some((d) => ts.getJSDocTags(d).some((tag) => tag.tagName.text === 'example'))
        || symbol.getJsDocTags(checker).some((tag) => tag.name === 'example');
      if (!hasExample) missing.push(`${entry}: ${exported.name}`);
    }
  }
  assert.equal(missing, [], `exports without an @example:\n  ${missing.join('\n  ')}`);
});

jsdoc('should list exactly the exports of each entry point in docs/api.md', () => {
  const listed = new Map<string, string[]>();
  let section: string[] | undefined;
  for (const line of readFileSync(ROOT + 'docs/api.md', 'utf8').split('\n')) {
    const heading = /^## `([^`]+)`/.exec(line);
    if (heading) listed.set(heading[1]!, (section = []));
    const row = /^\| `([^`]+)` \|/.exec(line);
    if (row && section) section.push(row[1]!);
  }
  assert.equal([...listed.keys()].sort(), [...ENTRY_POINTS.keys()].sort(), 'one section per entry point');
  for (const [subpath, entry] of ENTRY_POINTS) {
    assert.equal(listed.get(subpath)!.slice().sort(), exportsOf(entry).map((s) => s.name).sort(), subpath);
  }
});

jsdoc.run();
