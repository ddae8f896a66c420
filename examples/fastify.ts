// The example server on Fastify 5: the Player API registered with player-hypermedia/fastify.
import Fastify from 'fastify';
import { playerApiPlugin } from '../src/adapters/fastify.js';
import { createNodeServer } from '../src/adapters/node.js';
import { openExample, stopOnSignal } from './example-service.js';

const example = await openExample('fastify', process.env);
// Fastify on a server with timeouts and a connection cap (see createNodeServer).
const app = Fastify({ serverFactory: (handler) => createNodeServer(handler, example.serverOptions) });
// The prefix is the path of BASE_URL ('' at the root).
await app.register(playerApiPlugin, { service: example, prefix: example.mountPath });

await app.listen({ port: example.port, host: example.host });
example.listening((app.server.address() as { port: number }).port);
stopOnSignal(example, () => app.close());
