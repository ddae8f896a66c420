import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { demoService } from './support/service.js';

// The project's own JSON Schemas of its representations (src/schemas, exported as player-hypermedia/schemas/*.json).
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
const dir = new URL('../src/schemas/', import.meta.url);
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, strictRequired: false });
addFormats(ajv);
const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json'));
for (const file of files) ajv.addSchema(JSON.parse(readFileSync(new URL(file, dir), 'utf8')));
const check = (file: string, doc: unknown) => {
  const validate = ajv.getSchema(`https://w3id.org/player-hypermedia/schemas/${file}`)!;
  return validate(doc) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`);
};

const PLAYERS = ['/player/alice', '/player/elif-05'];
const PAGES = ['/player/alice/friends', '/player/alice/friends?page=2', '/player/alice/friends?page=4', '/player/elif-05/friends', '/player/alice/friends/search?search=okafor'];
const CASES: [string, string, string[]][] = [
  ['application/hal+json', 'hal-player.schema.json', PLAYERS],
  ['application/hal+json', 'hal-page.schema.json', PAGES],
  ['application/vnd.collection+json', 'collection-json.schema.json', [...PLAYERS, ...PAGES]],
  ['application/ld+json', 'json-ld-player.schema.json', PLAYERS],
  ['application/ld+json', 'json-ld-page.schema.json', PAGES],
];

const schemas = suite('JSON Schemas of our representations');

schemas('should compile every schema in strict mode, each with its $id', () => {
  assert.is(files.length, 5);
  for (const file of files) assert.ok(ajv.getSchema(`https://w3id.org/player-hypermedia/schemas/${file}`), file);
});

schemas('should accept every document the service renders', async () => {
  const { call } = await demoService();
  for (const [accept, file, paths] of CASES) {
    for (const path of paths) {
      const body = await (await call(path, { headers: { Accept: accept } })).json();
      assert.equal(check(file, body), [], `${file} ${path}`);
    }
  }
});

schemas('should reject documents that drift from the shapes', async () => {
  const { call } = await demoService();
  const hal = await (await call('/player/alice/friends', { headers: { Accept: 'application/hal+json' } })).json();
  assert.ok(check('hal-page.schema.json', { ...hal, size: 10 }).length > 0, 'size must be a string');
  const halPlayer = await (await call('/player/alice', { headers: { Accept: 'application/hal+json' } })).json();
  delete halPlayer._links.avatar;
  assert.ok(check('hal-player.schema.json', halPlayer).length > 0, 'a player carries its avatar link (embedded ones may leave it out)');
  hal._embedded.player[0]._links.curies = hal._links.curies;
  assert.ok(check('hal-page.schema.json', hal).length > 0, 'no curies in embedded players');
  const cj = await (await call('/player/alice', { headers: { Accept: 'application/vnd.collection+json' } })).json();
  cj.collection.items[0].data.push({ name: 'alias', value: 'x', prompt: 'x' });
  assert.ok(check('collection-json.schema.json', cj).length > 0, 'unknown data name');
  const ld = await (await call('/player/alice', { headers: { Accept: 'application/ld+json' } })).json();
  assert.ok(check('json-ld-player.schema.json', { ...ld, alias: 'x' }).length > 0, 'unknown member');
  assert.ok(check('json-ld-player.schema.json', { ...ld, image: 'not a uri' }).length > 0, 'image must be an IRI');
});

schemas('should accept the Collection+JSON write template a client sends back', async () => {
  const { call } = await demoService();
  const page = await (await call('/player/alice/friends', { headers: { Accept: 'application/vnd.collection+json' } })).json();
  assert.equal(check('collection-json.schema.json', { template: page.collection.template }), []);
});

schemas.run();
