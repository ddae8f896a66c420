// Fastify 5 adapter: a plugin that serves the Player API under the prefix it is registered with.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import { settleBody } from './node-body.js';
import { answerNode, type FetchHandler } from './node-request.js';

/**
 * Options of the Fastify plugin: the service to serve.
 *
 * @example
 * const options: FastifyPlayerOptions = { service };
 */
export interface FastifyPlayerOptions {
  service: FetchHandler;
}

/**
 * A Fastify 5 plugin answering every method and path under its prefix with the service. Register it
 * with the prefix of the service's `baseUrl`. Inside the plugin, Fastify's body parsers are replaced by
 * one that hands the raw body stream to the service, which reads every format (JSON, forms, JSON Patch,
 * PNG) itself; the rest of the application keeps its parsers.
 *
 * @example
 * import Fastify from 'fastify';
 * import { createPlayerService } from 'player-hypermedia';
 * import { playerApiPlugin } from 'player-hypermedia/fastify';
 * const app = Fastify();
 * await app.register(playerApiPlugin, {
 *   prefix: '/games/api',
 *   service: createPlayerService({ baseUrl: 'http://127.0.0.1:3000/games/api' }),
 * });
 * await app.listen({ port: 3000 });
 */
export const playerApiPlugin: FastifyPluginAsync<FastifyPlayerOptions> = async (app: FastifyInstance, options) => {
  app.removeAllContentTypeParsers();
  // Leave the body unread: the service streams it from request.raw.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const serve = async (request: { raw: IncomingMessage }, reply: FastifyReply) => {
    const raw = request.raw;
    const pending = answerNode(options.service, raw);
    const answered = pending instanceof Promise ? await pending : pending;
    reply.code(answered.status);
    // What is left of an unread body is drained or the connection closed (see settleBody).
    if (settleBody(raw)) void reply.header('connection', 'close');
    if (answered instanceof Response) {
      answered.headers.forEach((value, name) => void reply.header(name, value));
      return reply.send(answered.body ? Buffer.from(await answered.arrayBuffer()) : undefined);
    }
    // A service's Answer: its fields and complete body as they are (as bytes: Fastify would add a
    // charset to the Content-Type of a string).
    for (const [name, value] of answered.fields) void reply.header(name, value);
    const body = answered.body;
    if (body === null) return reply.send();
    return reply.send(typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  };
  app.all('/', serve);
  app.all('/*', serve);
  // The service owns its prefix: a method Fastify routes nowhere (PROPFIND, PURGE...) is its to answer
  // too. Not at the root, whose not-found handler is the application's (Fastify allows one per prefix).
  if (app.prefix) app.setNotFoundHandler(serve);
};
