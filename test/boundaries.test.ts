import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// The layers of the tree (README, "How it is built"): src/core is domain-free and knows no format;
// the formats (src/representations) map the resource model and know no API; nothing imports in a
// circle. Type-only imports are erased from the JavaScript, so they make no cycle at run time; every
// import counts for the layers.
const boundaries = suite('the layers of src');

const ROOT = resolve(new URL('../src', import.meta.url).pathname);

interface Import {
  target: string;
  typeOnly: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? sources(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
}

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
    found.push({ target: resolve(dirname(file), specifier.text.replace(/\.js$/, '.ts')), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allTypes = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, allTypes);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      add(node.moduleSpecifier, node.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sources(ROOT);
const graph = new Map(files.map((f) => [f, importsOf(f)] as const));
const name = (f: string) => relative(ROOT, f);
const under = (f: string, dir: string) => name(f).startsWith(`${dir}/`);

function crossings(from: string, forbidden: readonly string[]): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph) {
    if (!under(file, from)) continue;
    for (const i of imports) if (forbidden.some((d) => under(i.target, d))) out.push(`${name(file)} -> ${name(i.target)}`);
  }
  return out;
}

boundaries('should keep the core free of any API and any format', () => {
  assert.equal(crossings('core', ['player', 'representations', 'adapters', 'cli', 'render']), []);
});

boundaries('should keep the formats free of any API', () => {
  assert.equal(crossings('representations', ['player', 'adapters', 'cli', 'render']), []);
});

boundaries('should keep the stores free of the Player API but for its named facades', () => {
  // The PostgreSQL entry point also offers PostgresPlayerStore; nothing else in stores knows the Player API.
  assert.equal(crossings('stores', ['player', 'representations']).filter((c) => c !== 'stores/index.ts -> player/player-store.ts' && c !== 'stores/index.ts -> player/player.ts' && c !== 'stores/postgres/index.ts -> player/postgres-store.ts'), []);
});

boundaries('should have no import cycle at run time', () => {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const strong = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const { target: w, typeOnly } of graph.get(v) ?? []) {
      if (typeOnly || !graph.has(w)) continue;
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(name(w));
      } while (w !== v);
      if (component.length > 1) cycles.push(component);
    }
  };
  for (const f of files) if (!index.has(f)) strong(f);
  assert.equal(cycles, []);
  assert.ok(graph.size > 100, `read the whole tree (${graph.size} files)`);
});

boundaries('should name no field of the Player API, and no friend, in the formats', () => {
  const words = /\b(playerId|alias|displayName|profilePhotoUrl|alternateName|friends?|Friends?|avatar|Avatar|Person)\b/;
  const found: string[] = [];
  for (const file of files.filter((f) => under(f, 'representations'))) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        // Not in the code, nor in its comments and examples: a format's documentation shows the model, not one API.
        if (words.test(line.replace(/player-hypermedia/g, ''))) found.push(`${name(file)}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.equal(found, []);
});

boundaries('should export nothing named then: a module that does is a thenable, and import() of it calls it', async () => {
  const thenables: string[] = [];
  // The command line's entry runs the command when imported (its exports are checked by name below).
  for (const file of files.filter((f) => name(f) !== 'cli/main.ts')) {
    const module = (await import(file)) as Record<string, unknown>;
    if ('then' in module) thenables.push(name(file));
  }
  assert.equal(thenables, []);
  assert.not.match(readFileSync(join(ROOT, 'cli/main.ts'), 'utf8'), /export\s+(async\s+)?(function|const|let|class)\s+then\b/);
});

boundaries.run();
