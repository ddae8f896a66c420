import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultRepresentations, type Representation } from '../../src/index.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from '../support/adapter-servers.js';
import { assertProblem, eachServer } from '../support/hostile.js';

// Accept members that are not media ranges (`;`, `a/b,;`) are skipped (RFC 9110 section 5.5); an Accept
// with no valid member counts as absent. Rendering an error never throws, whatever the formats do.
const accept = suite('malformed Accept fields');
let servers: AdapterServer[] = [];

accept.before(async () => {
  servers = await startAdapterServers(['node', 'express', 'fastify']);
});
accept.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const NEGOTIATED = ['/player/alice', '/player/alice/friends?page=2', '/player/alice/friends/search?search=a', '/player/alice/relationships/friends'];

accept('should answer an Accept of only separators and parameters as if it were absent', async () => {
  for (const value of [';', ';;', ',;,', ';q=1', ' ; , ; ']) {
    for (const target of NEGOTIATED) {
      await eachServer(servers, { method: 'GET', target, headers: [['Accept', value]] }, (a, label) => {
        assert.is(a.status, 200, `${label} Accept "${value}"`);
        assert.ok(JSON.parse(a.body.toString()), label);
      }, `GET ${target} Accept "${value}"`);
    }
  }
});

accept('should skip a malformed member beside a valid one', async () => {
  await eachServer(servers, { method: 'GET', target: '/player/alice', headers: [['Accept', ';, application/hal+json']] }, (a, label) => {
    assert.is(a.status, 200, label);
    assert.match(a.headers['content-type'] ?? '', /^application\/hal\+json/, label);
  });
  // Nothing acceptable left once the malformed member is skipped: 406, a problem.
  await eachServer(servers, { method: 'GET', target: '/player/alice', headers: [['Accept', 'a/b,;']] }, (a, label) => assertProblem(a, 406, label));
});

accept('should render errors raised before negotiation under a malformed Accept', async () => {
  const cases: [number, string, string, [string, string][]][] = [
    [404, 'GET', '/player/nobody', [['Accept', ';']]],
    [404, 'GET', '/no/such/path', [['Accept', 'a/b,;']]],
    [400, 'GET', '/player/bad%20id', [['Accept', ';']]],
    [401, 'PUT', '/player/zed', [['Accept', ';'], ['Content-Type', 'application/json']]],
    [401, 'GET', '/player/alice', [['Accept', 'a/b,;'], ['Authorization', 'Bearer not-the-token']]],
    [405, 'POST', '/player/alice', [['Accept', ';'], ['Authorization', `Bearer ${WRITE_TOKEN}`]]],
  ];
  for (const [status, method, target, headers] of cases) {
    await eachServer(servers, { method, target, headers, body: method === 'GET' ? undefined : '{}' }, (a, label) => assertProblem(a, status, label));
  }
});

accept('should answer problem+json when a format fails while an error is rendered', async () => {
  // A custom format whose parameter check and error document both throw.
  const broken: Representation = {
    ...defaultRepresentations[0]!,
    name: 'broken',
    mediaType: 'application/x-broken',
    acceptable: () => {
      throw new Error('broken acceptable');
    },
    renderProblem: () => {
      throw new Error('broken renderProblem');
    },
  };
  const errors: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  const own = await startAdapterServers(['node', 'express', 'fastify'], { representations: [...defaultRepresentations, broken] });
  try {
    await eachServer(own, { method: 'GET', target: '/no/such/path', headers: [['Accept', 'application/x-broken;p=1']] }, (a, label) => assertProblem(a, 404, label));
    await eachServer(own, { method: 'GET', target: '/player/nobody', headers: [['Accept', 'application/x-broken']] }, (a, label) => assertProblem(a, 404, label));
  } finally {
    console.error = original;
    await Promise.all(own.map((s) => s.close()));
  }
  // The failed renderProblem is logged, once per answer that used it.
  assert.ok(errors.length > 0);
  assert.ok(errors.every((args) => String(args[0]).includes('failed to render an error')), String(errors[0]?.[0]));
});

accept.run();
