// Published JSON Schemas of the formats (test/fixtures/conformance, with their licences), compiled once.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';

// CommonJS packages: their default export is the module object under NodeNext.
const AjvDraft04 = AjvDraft04Module.default;
const addFormats = addFormatsModule.default;

/** The conformance fixtures of the repository (test/fixtures/conformance/README.md lists each and its licence). */
export const conformanceDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'conformance');

export type Validate = (document: unknown) => string[];

const read = (name: string) => JSON.parse(readFileSync(join(conformanceDir, 'schemas', name), 'utf8'));

function wrap(validate: ((d: unknown) => boolean) & { errors?: unknown }): Validate {
  return (document) => (validate(document) ? [] : ((validate.errors as { instancePath: string; message: string }[]) ?? []).map((e) => `${e.instancePath} ${e.message}`));
}

/** A validator per published schema (a missing fixture throws: the tests never pass without checking). */
export function schemaValidators(): Record<'siren' | 'jsonapi' | 'collectionJson' | 'hal', Validate> {
  const draft04 = new AjvDraft04({ unicodeRegExp: false, allErrors: true, strict: false });
  addFormats(draft04 as never);
  const hyper = join(conformanceDir, 'schemas', 'hyperschema');
  for (const file of readdirSync(hyper)) {
    const [dir, name] = file.replace(/\.json$/, '').split(/_(.*)/s);
    draft04.addSchema(JSON.parse(readFileSync(join(hyper, file), 'utf8')), `http://hyperschema.org/${dir}/${name}`);
  }
  const ajv2020 = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv2020 as never);
  return {
    siren: wrap(draft04.compile(read('siren.schema.json'))),
    collectionJson: wrap(draft04.compile(read('collection-json.schema.json'))),
    hal: wrap(draft04.getSchema('http://hyperschema.org/mediatypes/hal')!),
    jsonapi: wrap(ajv2020.compile(read('jsonapi-1.0.schema.json'))),
  };
}
