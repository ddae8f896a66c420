import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { validateItem } from '../src/core/model/validate.js';
import { defineApi, playerType } from '../src/index.js';
import { PLAYER_SCHEMA } from '../src/player/documents.js';

// The validator of item schemas is an interpreter of the JSON Schema keywords fields use (no code is
// compiled at run time: Workers refuse `new Function`). It must agree with ajv, the reference users
// would compile the same schema with: same verdict, same errors (pointer and keyword), in ajv's order.
const differential = suite('the item schema interpreter against ajv');

type FormatsPlugin = (ajv: Ajv, formats?: string[]) => Ajv;
const addFormats = ((formatsPlugin as unknown as { default?: FormatsPlugin }).default ?? formatsPlugin) as unknown as FormatsPlugin;

function ajvErrors(schema: object): (doc: unknown) => { pointer: string; keyword: string }[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv, ['uri']);
  const validate = ajv.compile(schema);
  return (doc) => {
    if (validate(doc)) return [];
    return (validate.errors ?? []).map((e) => {
      const params = e.params as Record<string, unknown>;
      const member = e.keyword === 'required' ? params.missingProperty : e.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
      return { pointer: member === undefined ? e.instancePath : `${e.instancePath}/${String(member)}`, keyword: e.keyword };
    });
  };
}

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES: unknown[] = [
  '', 'a', 'bob', 'a/b', '.', '..', 'x'.repeat(64), 'x'.repeat(65), 'x'.repeat(129), '😀'.repeat(64), '😀'.repeat(65),
  'https://cdn.test/a.png', 'HTTP://X.TEST/', 'mailto:a@b.test', 'ftp://x.test/', 'https://x.test/' + 'a'.repeat(2048), 'not a url',
  0, 1, -1, 1.5, 100, 101, true, false, null, [], ['a'], {}, { a: 1 },
];

function corpus(names: readonly string[], seed: number, count: number): unknown[] {
  const next = random(seed);
  const docs: unknown[] = [null, [], 'x', 7, {}];
  for (let i = 0; i < count; i++) {
    const doc: Record<string, unknown> = {};
    for (const name of [...names, 'other']) if (next() < 0.6) doc[name] = VALUES[Math.floor(next() * VALUES.length)];
    docs.push(doc);
  }
  return docs;
}

differential('should give the errors ajv gives for the player schema, on 3,000 documents', () => {
  const reference = ajvErrors(PLAYER_SCHEMA);
  for (const doc of corpus(Object.keys(PLAYER_SCHEMA.properties), 1, 3000)) {
    const ours = validateItem(PLAYER_SCHEMA, doc).map((e) => ({ pointer: e.pointer, keyword: e.keyword }));
    assert.equal(ours, reference(doc), JSON.stringify(doc));
  }
});

differential('should agree with ajv on numbers, booleans, enums and nullable fields a user declares', () => {
  const api = defineApi({
    title: 'T',
    version: '1',
    vocabulary: { prefix: 't', iri: 'https://example.test/t#' },
    types: [
      {
        ...playerType,
        relations: [],
        fields: [
          ...playerType.fields,
          { name: 'level', title: 'Level', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'score', title: 'Score', schema: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 } },
          { name: 'active', title: 'Active', schema: { type: 'boolean' } },
          { name: 'tier', title: 'Tier', schema: { enum: ['a', 'b', 1] } },
          { name: 'motto', title: 'Motto', schema: { type: ['string', 'null'], maxLength: 3 } },
        ],
      },
    ],
  });
  const schema = api.type('player').schema;
  const reference = ajvErrors(schema);
  for (const doc of corpus(Object.keys((schema as { properties: object }).properties), 2, 3000)) {
    const ours = validateItem(schema, doc).map((e) => ({ pointer: e.pointer, keyword: e.keyword }));
    assert.equal(ours, reference(doc), JSON.stringify(doc));
  }
});

differential('should leave no ajv compile and no code from strings in src', () => {
  const root = new URL('../src/', import.meta.url).pathname;
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  for (const file of walk(root).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(file, 'utf8').replace(/^\s*\*.*$/gm, '').replace(/\/\/.*$/gm, '');
    assert.not.match(text, /new Ajv\(|\.compile\(|new Function\(|\beval\(/, file);
  }
});

differential.run();
