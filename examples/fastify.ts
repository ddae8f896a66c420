// The example server on Fastify 5: the Player API registered with player-hypermedia/fastify.
import Fastify from 'fastify';
import { playerApiPlugin } from '../src/adapters/fastify.js';
import { announce, exampleService, readSettings, stopOnSignal } from './example-service.js';

const settings = readSettings(process.env);
const service = await exampleService(settings);
const app = Fastify();
// The prefix is the path of BASE_URL ('' at the root).
await app.register(playerApiPlugin, { service, prefix: new URL(settings.baseUrl).pathname.replace(/\/$/, '') });

const listening = await app.listen({ port: settings.port, host: settings.host });
announce('fastify', listening, settings);
stopOnSignal(() => app.close());
