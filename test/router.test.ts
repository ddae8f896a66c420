import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRouter, linksToEveryAnswer, type Route } from '../src/core/service/router.js';
import type { HttpError } from '../src/core/http/problem.js';

const router = suite('router');

const handler = () => {
  throw new Error('not called');
};
const routes: Route[] = [
  { path: '/player/{id}', methods: { GET: handler } },
  { path: '/player/{id}/friends', methods: { GET: handler } },
  { path: '/player/{id}/friends/search', methods: { GET: handler } },
  { path: '/player/{id}/friends/{friendId}', methods: { DELETE: handler } },
  { path: '/docs.jsonld', methods: { GET: handler } },
  { path: '/', methods: { GET: handler } },
];
const match = createRouter(routes);

router('should match literal segments exactly and name the parameters', () => {
  assert.equal(match('/player/alice')?.params, { id: 'alice' });
  assert.is(match('/player/alice')?.route.path, '/player/{id}');
  assert.equal(match('/player/alice/friends/bob')?.params, { id: 'alice', friendId: 'bob' });
  assert.is(match('/player/alice/friend'), undefined);
  assert.is(match('/player/alice/friendsx'), undefined);
  assert.is(match('/players/alice'), undefined);
  assert.is(match('/docs.jsonld')?.route.path, '/docs.jsonld');
  assert.is(match('/docs.json'), undefined);
});

router('should prefer a literal segment to a parameter', () => {
  assert.is(match('/player/alice/friends/search')?.route.path, '/player/{id}/friends/search');
  assert.is(match('/player/alice/friends/searcher')?.route.path, '/player/{id}/friends/{friendId}');
});

router('should count segments: the root, empty and trailing segments', () => {
  assert.is(match('/')?.route.path, '/');
  assert.is(match(''), undefined);
  assert.is(match('player/alice'), undefined);
  assert.is(match('/player/alice/'), undefined);
  assert.equal(match('/player/')?.params, { id: '' });
  assert.is(match('//alice'), undefined);
  assert.is(match('/player/alice//'), undefined);
});

router('should decode percent-encoded parameters, and refuse a broken encoding with 400', () => {
  assert.equal(match('/player/al%20ice')?.params, { id: 'al ice' });
  assert.equal(match('/player/a%2Fb/friends')?.params, { id: 'a/b' });
  assert.throws(() => match('/player/%E0%A4%A'), (e: HttpError) => e.status === 400);
});

router('should link every answer to the routes that ask for it, for each base URL', () => {
  const links = linksToEveryAnswer([...routes, { path: '/docs.jsonld', methods: {}, linkedFromEveryAnswer: 'describedby' }]);
  assert.equal(links('https://a.test'), ['<https://a.test/docs.jsonld>; rel="describedby"']);
  assert.equal(links('https://b.test/api'), ['<https://b.test/api/docs.jsonld>; rel="describedby"']);
  assert.equal(links('https://a.test'), ['<https://a.test/docs.jsonld>; rel="describedby"']);
  assert.equal(linksToEveryAnswer(routes)('https://a.test'), []);
});

router.run();
