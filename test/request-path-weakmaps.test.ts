import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// V8's young-generation collector keeps the young entries of a long-lived WeakMap or WeakSet alive, so
// a module-level one keyed by objects each request makes (documents, stored records, answers, requests)
// has every request's objects promoted to the old generation: under bench/realistic's load (a) on
// PostgreSQL it promoted 56 MB in 9 s where the hand-written server promoted 3 MB (docs/decisions.md,
// "Nothing per request in a WeakMap"). Module-level weak collections may only be keyed by what lives
// as long as the service: its configuration, policies, constant arrays, and shared documents.
const weak = suite('no module-level WeakMap or WeakSet keyed by what a request makes');

const LONG_LIVED_KEYS = new Map([
  ['src/core/model/terms.ts contexts', 'the APIs, defined once'],
  ['src/representations/hal.ts curiesMembers', 'the APIs, defined once'],
  ['src/representations/json-ld-context.ts loaders', 'the APIs, defined once'],
  ['src/representations/json-ld.ts contextPrefixes', 'the APIs, defined once'],
  ['src/representations/siren.ts linkHeads', 'the APIs, defined once'],
  ['src/representations/collection-json.ts itemParts', 'the resource types, defined once'],
  ['src/representations/json-api.ts typeFields', 'the resource types, defined once'],
  ['src/core/resources/input.ts inputPlans', 'the resource types, defined once'],
  ['src/core/resources/item-patch.ts keptFields', 'the resource types, defined once'],
  ['src/representations/collection-json.ts dataWriters', 'the resource types, defined once'],
  ['src/representations/collection-json.ts itemHoles', 'the resource types, defined once'],
  ['src/representations/hal.ts embeddedHoles', 'the resource types, defined once'],
  ['src/representations/json-ld.ts nodeHoles', 'the resource types, defined once'],
  ['src/representations/siren.ts subEntityHoles', 'the resource types, defined once'],
  ['src/representations/hal.ts embeddedKeys', 'the resource types, defined once'],
  ['src/representations/json-ld.ts nodeTexts', 'the resource types, defined once'],
  ['src/representations/json-ld.ts operationTexts', 'the relations, defined once'],
  ['src/representations/hal-forms.ts relationTemplates', 'the relations, defined once'],
  ['src/representations/hal-forms.ts defaultHeads', 'the resource types, defined once'],
  ['src/core/model/list-operations.ts addFieldsOf', 'the relations, defined once'],
  ['src/core/model/list-operations.ts searchFieldsOf', 'the relations, defined once'],
  ['src/core/model/documents.ts derivedPaths', 'the resource types, defined once'],
  ['src/representations/siren.ts subEntityTexts', 'the resource types, defined once'],
  ['src/representations/json-api-errors.ts problemPointers', 'the resource types, defined once'],
  ['src/representations/json-api-members.ts attributesOf', 'the API\'s types, defined once'],
  ['src/representations/json-ld-input.ts bodyTerms', 'the resource types, defined once'],
  ['src/representations/link-relations.ts embedded', 'the resource types, defined once'],
  ['src/representations/term-fields.ts members', 'the resource types, defined once'],
  ['src/core/descriptions/config-document.ts rendered', 'the service configuration'],
  ['src/core/descriptions/swagger.ts operationsOf', 'the service configuration'],
  ['src/core/respond/caching-fields.ts varyValues', "the resources' constant Vary lists"],
  ['src/core/respond/caching-fields.ts controls', 'cache policies, resolved once'],
  ['src/core/service/context.ts subsets', 'the service configuration'],
  ['src/core/service/render-plans.ts plainPlans', 'the formats offered (the configuration\'s lists)'],
  ['src/core/service/render-plans.ts keptPlans', 'the formats, then the formats offered and the resource types, all configured once'],
  ['src/representations/html-format-links.ts formatTexts', 'the formats offered (the configuration\'s lists)'],
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

weak('should find only the weak collections known to be keyed by long-lived objects', () => {
  const found: string[] = [];
  for (const file of sources('src')) {
    // Top-level declarations only: a weak collection inside a class or function lives with its owner.
    for (const match of readFileSync(file, 'utf8').matchAll(/^(?:export )?const (\w+)\s*=\s*new Weak(?:Map|Set)\b/gm)) found.push(`${file} ${match[1]}`);
  }
  const unknown = found.filter((name) => !LONG_LIVED_KEYS.has(name));
  assert.equal(unknown, [], `module-level weak collections not known to have long-lived keys: ${unknown.join(', ')}`);
  assert.ok(found.length > 0 && found.every((name) => LONG_LIVED_KEYS.has(name)), 'the scan finds the known ones');
});

weak.run();
