import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defineApi, type TypeDeclaration } from '../src/index.js';
import { itemDocument, itemFields, type StoredItem } from '../src/core/model/documents.js';
import { playerApi } from '../src/player/api.js';

// A PATCH applies to an item's readable fields by plain name (src/core/resources/item-patch.ts); they
// are made without the item's document (`itemFields`), and must be exactly the document's fields:
// same members, same values, same order.
const fields = suite('itemFields: the fields of an item document, without the document');

const BASE = 'https://x.test';
const record = (values: Record<string, unknown>, revision = '1'): StoredItem => ({ ...values, revision, modifiedAt: 0 }) as StoredItem;

const same = (type: Parameters<typeof itemFields>[0], stored: StoredItem) => {
  const expected = itemDocument(type, BASE, stored).fields;
  const actual = itemFields(type, BASE, stored);
  assert.equal(actual, expected);
  assert.equal(Object.keys(actual), Object.keys(expected));
};

fields('player: every field, optional ones absent or null, ids that need escaping', () => {
  const player = playerApi.type('player');
  for (const values of [
    { playerId: 'alice', alias: 'ali', displayName: 'Alice' },
    { playerId: 'bob', alias: 'bob' },
    { playerId: 'carol', alias: 'c', displayName: null },
    { playerId: 'd ü/é', alias: 'd' },
  ]) same(player, record(values));
});

const id = { name: 'cardId', title: 'Card id', required: true, schema: { type: 'string' }, iri: 'cd:cardId' } as const;
const card = (links: TypeDeclaration['links'], derivedLink: string, extra: Partial<TypeDeclaration> = {}): TypeDeclaration => ({
  name: 'card',
  plural: 'cards',
  title: 'Card',
  path: '/cards/{id}',
  id: 'cardId',
  fields: [
    id,
    { name: 'image', title: 'Image', required: false, access: 'read-only', derived: { link: derivedLink }, schema: { type: 'string', format: 'uri' }, iri: 'cd:image' },
    { name: 'text', title: 'Text', required: false, schema: { type: 'string' }, iri: 'cd:text' },
  ],
  linkedData: { class: 'cd:Card', term: 'Card' },
  display: { title: ['cardId'] },
  links,
  ...extra,
});
const apiOf = (type: TypeDeclaration) => defineApi({ title: 'Cards', version: '1.0.0', vocabulary: { prefix: 'cd', iri: 'https://cards.test/vocab#' }, types: [type] }).type('card');

fields('a derived field of a link of its own, of a link shared by two, and of a link named like the self link', () => {
  const records = [record({ cardId: 'c1', text: 'one' }), record({ cardId: 'c2' }), record({ cardId: 'c 3' })];
  // One link of the relation: the fields are made from its path alone.
  for (const r of records) same(apiOf(card([{ rel: 'image', path: 'image.png', title: 'Image' }], 'image')), r);
  // Two links of the relation: the document takes the last; so must the fields.
  for (const r of records) same(apiOf(card([{ rel: 'image', path: 'small.png', title: 'Small' }, { rel: 'image', path: 'large.png', title: 'Large' }], 'image')), r);
  // A declared link of the relation every item has already (self): the declared one comes last.
  for (const r of records) same(apiOf(card([{ rel: 'self', path: 'card.png', title: 'Card' }], 'self')), r);
});

fields.run();
