// The example server on Fastify 5: the Player API registered with player-hypermedia/fastify.
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { playerApiPlugin } from '../src/adapters/fastify.js';
import { createNodeServer } from '../src/adapters/node.js';
import { openExample, stopOnSignal } from './example-service.js';

const example = await openExample('fastify', process.env);
// Fastify on a server with timeouts and a connection cap (see createNodeServer).
const app = Fastify({ serverFactory: (handler) => createNodeServer(handler, example.serverOptions) });
// The server listens first: the service's links use the port it got (PORT=0 picks a free one).
await new Promise<void>((resolve) => app.server.listen(example.port, example.host, resolve));
const port = (app.server.address() as AddressInfo).port;
// The prefix is the path of BASE_URL ('' at the root).
await app.register(playerApiPlugin, { service: example.listening(port), prefix: example.mountPath });
await app.ready();
example.ready();
stopOnSignal(example, () => app.close());
