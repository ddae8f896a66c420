// A vitest snapshot test of rendered players and pages, as you would write one for your own data.
// Run it: npx vitest run examples/snapshot.test.ts   (add -u after an intended change of the output)
import { expect, test } from 'vitest';
import { render, renderAll } from '../src/index.js'; // in your project: from 'player-hypermedia'

const bob = { playerId: 'bob', alias: 'bobby', displayName: 'Bob Builder' };
const ada = { playerId: 'ada-01', alias: 'ada' };

test('a player in every format', () => {
  for (const [format, { body, contentType }] of Object.entries(renderAll({ ...bob, friends: [ada] }, { pretty: true }))) {
    expect(contentType).toMatchSnapshot(`${format} content type`);
    expect(body).toMatchSnapshot(format);
  }
});

test('a page of friends in HAL, with the header fields that carry its links and total', () => {
  const page = render({ playerId: 'alice', page: 2, total: 12, friends: [bob, ada] }, 'application/hal+json', {
    baseUrl: 'https://games.example/api',
    pretty: true,
  });
  expect(page.headers).toMatchSnapshot('headers');
  expect(page.body).toMatchSnapshot('body');
});
