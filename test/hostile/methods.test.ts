import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import Fastify from 'fastify';
import { playerApiPlugin } from '../../src/adapters/fastify.js';
import { toNodeListener } from '../../src/adapters/node.js';
import { answererOf, attachAnswerer } from '../../src/core/service/answerer.js';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData, type PlayerService } from '../../src/index.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from '../support/adapter-servers.js';
import { originOf } from '../support/echo.js';
import { assertProblem, eachServer, type HostileServer } from '../support/hostile.js';

// The service, not `new Request`, decides about every method: a known method a resource does not
// support is 405 with Allow (RFC 9110 section 15.5.6), an unknown one 501 (section 15.6.2).
const methods = suite('methods the routes do not serve');
let servers: AdapterServer[] = [];

methods.before(async () => {
  servers = await startAdapterServers(['node', 'express', 'fastify']);
});
methods.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

methods('should answer TRACE (which Request refuses) 405 with Allow and a problem', async () => {
  for (const headers of [[], [['Authorization', `Bearer ${WRITE_TOKEN}`]], [['Authorization', 'Bearer wrong']], [['Accept', 'application/vnd.api+json']]] as [string, string][][]) {
    for (const [target, allow] of [
      ['/player/alice', 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS'],
      ['/player/alice/avatar.png', 'GET, HEAD, PUT, OPTIONS'],
    ] as [string, string][]) {
      await eachServer(servers, { method: 'TRACE', target, headers }, (a, label) => {
        assert.is(a.status, 405, label);
        assert.is(a.headers.allow, allow, label);
        // A JSON:API client gets the JSON:API errors document; everyone else problem+json.
        if (headers[0]?.[0] === 'Accept') assert.is(JSON.parse(a.body.toString()).errors[0].status, '405', label);
        else assertProblem(a, 405, label);
      }, `TRACE ${target} ${JSON.stringify(headers)}`);
    }
  }
});

methods('should answer methods this server does not implement 501 with a problem', async () => {
  // Fastify hands such methods to the plugin only under a prefix (as its not-found handler).
  const under = servers.filter((s) => s.adapter !== 'fastify');
  const prefixed = await startFastifyUnder('/games/api');
  try {
    for (const method of ['PROPFIND', 'PURGE', 'LOCK', 'SEARCH']) {
      await eachServer(under, { method, target: '/player/alice' }, (a, label) => assertProblem(a, 501, label));
      await eachServer([prefixed], { method, target: '/games/api/player/alice' }, (a, label) => assertProblem(a, 501, label));
    }
    // A body sent with such a method is drained like any other unread body.
    const propfind = { method: 'PROPFIND', headers: [['Content-Type', 'application/xml']] as [string, string][], body: '<propfind/>'.repeat(1000) };
    await eachServer(under, { ...propfind, target: '/player/alice' }, (a, label) => assertProblem(a, 501, label));
    await eachServer([prefixed], { ...propfind, target: '/games/api/player/alice' }, (a, label) => assertProblem(a, 501, label));
  } finally {
    await prefixed.close();
  }
});

/** The demo service in Fastify under a prefix (its own store). */
async function startFastifyUnder(prefix: string): Promise<HostileServer> {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const app = Fastify();
  const holder: { service?: PlayerService } = {};
  // The service is made once the port is known; the internal answer step is forwarded to it.
  const service = attachAnswerer({ fetch: (r: Request) => holder.service!.fetch(r) }, (h, r) => answererOf(holder.service!)!(h, r));
  await app.register(playerApiPlugin, { prefix, service });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  holder.service = createPlayerService({ baseUrl: origin + prefix, store, authenticate: bearerTokens([WRITE_TOKEN]) });
  return { adapter: 'fastify', origin, store, prefix, close: () => app.close() };
}

methods('should still answer OPTIONS and the methods a route serves', async () => {
  await eachServer(servers, { method: 'OPTIONS', target: '/player/alice' }, (a, label) => {
    assert.is(a.status, 204, label);
    assert.is(a.headers.allow, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS', label);
  });
  await eachServer(servers, { method: 'DELETE', target: '/player/alice' }, (a, label) => assertProblem(a, 401, label));
});

methods('should answer TRACE 501 through a handler that only has fetch', async () => {
  // A plain fetch handler cannot be given a Request for TRACE: the adapter answers for it.
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const service = createPlayerService({ baseUrl: originOf(server), store, authenticate: bearerTokens([WRITE_TOKEN]) });
  server.on('request', toNodeListener({ fetch: (request) => service.fetch(request) }));
  try {
    const plain: AdapterServer = { adapter: 'node', origin: originOf(server), store, close: async () => undefined };
    await eachServer([plain], { method: 'TRACE', target: '/player/alice' }, (a, label) => assertProblem(a, 501, label));
    await eachServer([plain], { method: 'PROPFIND', target: '/player/alice' }, (a, label) => assertProblem(a, 501, label));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

methods.run();
