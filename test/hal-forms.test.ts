// HAL-FORMS as a HAL client uses it: ketting, over a real node:http server, reads the _templates of a player
// and of a friend list and submits them (add a friend, update the player, search).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerAuth, Ketting } from 'ketting';
import type { PlayerStore } from '../src/index.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from './support/adapter-servers.js';
import { HAL_FORMS_MEDIA_TYPE } from '../src/representations/hal-forms.js';

const forms = suite('HAL-FORMS with ketting');
let served: AdapterServer;
let origin = '';
let store: PlayerStore;

forms.before(async () => {
  served = (await startAdapterServers(['node']))[0]!;
  origin = served.origin;
  store = served.store;
});
forms.after(() => served.close());

function client(): Ketting {
  const ketting = new Ketting(origin);
  ketting.use(bearerAuth(WRITE_TOKEN));
  // Only HAL-FORMS: ketting asks for it first anyway; this keeps the test honest if that changes.
  ketting.contentTypeMap = { [HAL_FORMS_MEDIA_TYPE]: ketting.contentTypeMap[HAL_FORMS_MEDIA_TYPE]! };
  return ketting;
}

forms('ketting reads the templates of a player and submits addFriend, the update and the search', async () => {
  const bob = await client().go('/player/bob').get();
  assert.is(bob.contentHeaders().get('content-type'), HAL_FORMS_MEDIA_TYPE);
  assert.equal(bob.actions().map((a) => a.name).sort(), ['addFriend', 'default', 'search']);
  const add = bob.action('addFriend');
  assert.is(add.method, 'POST');
  assert.equal(add.fields.map((f) => [f.name, f.required]), [['name', false], ['alternateName', true], ['image', false]]);
  const before = (await store.listFriends('bob', { offset: 0, limit: 1 }))!.total;
  const added = await add.submit({ name: 'Kay Etting', alternateName: 'kay' });
  assert.is(added.data.alternateName, 'kay', 'the 201 is the new friend');
  assert.is((await store.listFriends('bob', { offset: 0, limit: 1 }))!.total, before + 1);

  // default: PUT with the current values filled in; only the alias is given, the name stays.
  const update = bob.action('default');
  assert.is(update.method, 'PUT');
  assert.is(update.field('alias')!.value, 'bobby');
  await update.submit({ alias: 'bob-the-builder' });
  const stored = (await store.getPlayer('bob'))!;
  assert.is(stored.alias, 'bob-the-builder');
  assert.is(stored.displayName, 'Bob Builder');

  const found = await bob.action('search').submit({ search: 'kay' });
  assert.is(found.data.total, 1);
});

forms('a friend list offers adding a friend as its default template, and a search page both', async () => {
  const list = await client().go('/player/alice/friends?page=2').get();
  const add = list.action('default');
  assert.is(add.method, 'POST');
  assert.is(add.uri, `${origin}/player/alice/friends`, 'posted to the list, not to the page');
  await add.submit({ alternateName: 'zed' });
  assert.ok((await store.listFriends('alice', { offset: 0, limit: 100 }))!.items.some((p) => p.alias === 'zed'));
  const search = await client().go('/player/alice/friends/search?search=ada').get();
  assert.equal(search.actions().map((a) => a.name).sort(), ['addFriend', 'search']);
  const hal = await fetch(`${origin}/player/alice`, { headers: { accept: 'application/hal+json' } });
  assert.not.ok('_templates' in (await hal.json()), 'plain HAL stays as it was');
});

forms('a client that follows the spec sends every property, an optional one it has no value for as "": each template is accepted', async () => {
  // HAL-FORMS, "property": value defaults to an empty string; a generic form client submits it as such.
  const submitAll = async (url: string, name: string, given: Record<string, string>) => {
    const doc = await (await fetch(`${origin}${url}`, { headers: { accept: HAL_FORMS_MEDIA_TYPE } })).json();
    const template = doc._templates[name];
    const body: Record<string, string> = {};
    for (const p of template.properties) body[p.name] = given[p.name] ?? p.value ?? '';
    return fetch(template.target, { method: template.method, body: JSON.stringify(body), headers: { 'content-type': template.contentType, authorization: `Bearer ${WRITE_TOKEN}` } });
  };
  const statuses = [
    (await submitAll('/player/alice', 'addFriend', { alternateName: 'empty-1' })).status,
    (await submitAll('/player/alice/friends', 'default', { alternateName: 'empty-2' })).status,
    (await submitAll('/player/alice/friends/search?search=a', 'addFriend', { alternateName: 'empty-3' })).status,
    (await submitAll('/player/alice', 'default', { alias: 'alice-renamed' })).status,
  ];
  assert.equal(statuses, [201, 201, 201, 200]);
  const alice = (await store.getPlayer('alice'))!;
  assert.is(alice.alias, 'alice-renamed');
  assert.is(alice.image, undefined, 'an empty image is no image');
});

forms.run();
