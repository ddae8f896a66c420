import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultRepresentations, demoResources, render, renderAll } from '../src/index.js';
import { checkSnapshot, snapshotExtension, snapshotText } from './support/snapshot.js';

const BASE = 'https://api.example.com';
const snapshots = suite('snapshots of every format');

snapshots('should match the stored snapshot of a player, a first, a middle and a last page in every format', async () => {
  const resources = await demoResources(BASE);
  const cases = { player: resources.player, 'first-page': resources.firstPage, 'middle-page': resources.middlePage, 'last-page': resources.lastPage };
  const failures: string[] = [];
  for (const [name, resource] of Object.entries(cases)) {
    for (const [format, { body, contentType }] of Object.entries(renderAll(resource))) {
      const problem = checkSnapshot(`${format}/${name}.${snapshotExtension(contentType)}`, snapshotText(body, contentType));
      if (problem) failures.push(problem);
    }
  }
  assert.equal(failures, []);
});

snapshots('should detect a changed body', async () => {
  const { lastPage } = await demoResources(BASE);
  const { body, contentType } = render(lastPage, 'json');
  const changed = snapshotText(body.replace('kai31', 'kai32'), contentType);
  if (process.env.UPDATE_SNAPSHOTS === '1') return;
  assert.type(checkSnapshot(`json/last-page.${snapshotExtension(contentType)}`, changed), 'string');
});

snapshots.run();

const api = suite('render and renderAll');

api('should render by name or media type, as the service serves it', async () => {
  const { player } = await demoResources(BASE);
  const byName = render(player, 'siren');
  assert.equal(byName, render(player, 'application/vnd.siren+json; charset=utf-8'));
  assert.is(byName.contentType, 'application/vnd.siren+json');
  assert.equal(Object.keys(renderAll(player)), defaultRepresentations.map((r) => r.name));
});

api('should plan from a query string like a request', async () => {
  const { player } = await demoResources(BASE);
  const doc = JSON.parse(render(player, 'jsonapi', { query: 'include=friends&fields[players]=name' }).body);
  assert.is(doc.included.length, 10);
  assert.equal(Object.keys(doc.included[0].attributes), ['name']);
  assert.throws(() => render(player, 'jsonapi', { query: 'include=enemies' }), (e: Error & { status?: number }) => e.status === 400);
});

api('should throw a TypeError naming the known formats for an unknown one', async () => {
  const { player } = await demoResources(BASE);
  assert.throws(() => render(player, 'text/csv'), (e: Error) => e instanceof TypeError && e.message.includes('siren'));
});

api.run();
