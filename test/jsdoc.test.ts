import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { fileURLToPath } from 'node:url';

// Every public export (src/index.ts and each adapter entry point) has JSDoc with an @example.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY_POINTS = ['src/index.ts', 'src/adapters/node.ts', 'src/adapters/express.ts', 'src/adapters/fastify.ts', 'src/adapters/hono.ts'];

function exportsWithoutExample(): string[] {
  const program = ts.createProgram(
    ENTRY_POINTS.map((f) => ROOT + f),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true },
  );
  const checker = program.getTypeChecker();
  const missing: string[] = [];
  for (const entry of ENTRY_POINTS) {
    const source = program.getSourceFile(ROOT + entry);
    assert.ok(source, entry);
    const module = checker.getSymbolAtLocation(source!);
    for (const exported of checker.getExportsOfModule(module!)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = symbol.getDeclarations() ?? [];
      const hasExample = declarations.some((d) => ts.getJSDocTags(d).some((tag) => tag.tagName.text === 'example'))
        || symbol.getJsDocTags(checker).some((tag) => tag.name === 'example');
      if (!hasExample) missing.push(`${entry}: ${exported.name}`);
    }
  }
  return missing;
}

const jsdoc = suite('JSDoc of the public API');

jsdoc('should give every export of the entry points an @example', () => {
  const missing = exportsWithoutExample();
  assert.equal(missing, [], `exports without an @example:\n  ${missing.join('\n  ')}`);
});

jsdoc.run();
