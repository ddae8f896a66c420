// HAL-FORMS writes its documents as text (the HAL text, then `_templates` from texts kept per relation):
// byte for byte what JSON.stringify writes of the same object, and a hand-built page's operations are
// its own, not the relation's kept text.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { halFormsRepresentation } from '../src/representations/hal-forms.js';
import { friendsResource, paging, playerResource } from '../src/player/documents.js';
import type { Page } from '../src/core/model/resource.js';

const text = suite('HAL-FORMS as text');
const BASE = 'https://api.example.com';
const items = [{ playerId: 'bob', alias: 'bobby', displayName: 'Bob "B" Q', revision: '1', modifiedAt: 0 }];
const page = (owner: string, query?: string): Page => friendsResource(BASE, owner, items, paging(1, 10, 1, 1), query);
/** The text of a document that JSON.stringify would write the same: parse it and write it again. */
const canonical = (t: string) => JSON.stringify(JSON.parse(t));

text('a player, a page and a search page are what JSON.stringify writes of them', () => {
  for (const doc of [playerResource(BASE, items[0]!), page('alice'), page('alice', 'bo'), page('carol')]) {
    const written = halFormsRepresentation.render(doc);
    assert.is(written, canonical(written));
    assert.ok(JSON.parse(written)._templates, 'with its templates');
  }
});

text('the templates of two lists differ only in their targets', () => {
  const alice = JSON.parse(halFormsRepresentation.render(page('alice')))._templates;
  const carol = JSON.parse(halFormsRepresentation.render(page('carol')))._templates;
  assert.equal(Object.keys(alice), ['default', 'search']);
  assert.is(alice.default.target, `${BASE}/player/alice/friends`);
  assert.is(carol.default.target, `${BASE}/player/carol/friends`);
  assert.equal({ ...alice.default, target: '' }, { ...carol.default, target: '' });
  assert.equal(alice.default.properties.map((p: { prompt: string }) => p.prompt), ['Full name', 'Alias', 'Picture URL']);
});

text("a hand-built page's operation with its own fields gets its own properties, and the kept text stays the relation's", () => {
  const handBuilt = page('dana');
  const [add] = handBuilt.operations;
  handBuilt.operations = [{ ...add!, fields: [{ name: 'alternateName', type: 'text', title: 'Handle', required: true }] }];
  const own = JSON.parse(halFormsRepresentation.render(handBuilt))._templates;
  assert.equal(own.default.properties.map((p: { prompt: string }) => p.prompt), ['Handle']);
  const after = JSON.parse(halFormsRepresentation.render(page('erin')))._templates;
  assert.equal(after.default.properties.map((p: { prompt: string }) => p.prompt), ['Full name', 'Alias', 'Picture URL']);
});

text.run();
