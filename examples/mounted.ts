// The Player API mounted under /games/api of a larger Express application, beside its other routes.
import express from 'express';
import { toExpressHandler } from '../src/adapters/express.js';
import { announce, exampleService, readSettings, stopOnSignal } from './example-service.js';

const MOUNT = '/games/api';
const settings = readSettings(process.env, MOUNT);
// Behind a gateway that sets X-Forwarded-Host/Proto/Prefix, links follow what the client used.
const service = await exampleService(settings, { trustProxy: process.env.TRUST_PROXY === '1' });
const app = express();
app.disable('x-powered-by');

app.get('/', (_req, res) => {
  res.type('html').send(`<!doctype html><title>Games</title><h1>Games</h1><p><a href="${MOUNT}/player/alice">The Player API</a></p>`);
});
app.get('/health', (_req, res) => void res.json({ status: 'ok' }));
app.use(MOUNT, toExpressHandler(service));
// The application's own JSON routes keep their body parser; the Player API reads its bodies itself.
app.post('/feedback', express.json(), (req, res) => void res.status(202).json({ received: req.body }));

const server = app.listen(settings.port, settings.host, () => {
  const address = server.address() as { port: number };
  announce('express, mounted', `http://${settings.host}:${address.port}`, settings);
});
stopOnSignal(() => {
  server.closeAllConnections();
  server.close();
});
