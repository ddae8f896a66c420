// The Player API mounted under /games/api of a larger Express application, beside its other routes.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { toExpressHandler } from '../src/adapters/express.js';
import { createNodeServer } from '../src/adapters/node.js';
import { openExample, stopOnSignal } from './example-service.js';

// BASE_URL, when set, must end with the mount path; TRUST_PROXY=1 builds links from X-Forwarded-*.
const example = await openExample('express, mounted', process.env, '/games/api');
const MOUNT = example.mountPath;
const app = express();
app.disable('x-powered-by');

app.get('/', (_req, res) => {
  res.type('html').send(`<!doctype html><title>Games</title><h1>Games</h1><p><a href="${MOUNT}/player/alice">The Player API</a></p>`);
});
app.get('/health', (_req, res) => void res.json({ status: 'ok' }));
// The Player API is mounted once the server listens (its links use the port it got): see below.
// The application's own JSON routes keep their body parser; the Player API reads its bodies itself.
app.post('/feedback', express.json(), (req, res) => void res.status(202).json({ received: req.body }));

const server = createNodeServer(app, example.serverOptions);
server.listen(example.port, example.host, () => {
  app.use(MOUNT, toExpressHandler(example.listening((server.address() as AddressInfo).port)));
  example.ready();
});
stopOnSignal(example, () => {
  server.closeAllConnections();
  server.close();
});
