import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { BrowserContext } from 'playwright-core';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { originOf } from './support/echo.js';
import { findChromium, launchChromium } from './support/chromium.js';

// A page on another origin, in headless Chromium, reads the API with credentials and writes to it
// (a preflighted PATCH with Authorization and If-Match); a page on an origin not listed cannot.
const executablePath = findChromium();
const crossOrigin = suite('a page on another origin, in headless Chromium');
const it = executablePath ? crossOrigin : crossOrigin.skip;
if (!executablePath) console.log('note: no `chromium` on PATH; the cross-origin browser test is skipped (CI installs it in .ci/run).');

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return originOf(server);
};
const PAGE = '<!doctype html><title>game</title><p>game client</p>';
let api: Server;
let game: Server;
let stranger: Server;
let apiOrigin: string;
let gameOrigin: string;
let strangerOrigin: string;
let browser: BrowserContext;
let closeBrowser: () => Promise<void>;
const methodsSeen: string[] = [];

crossOrigin.before(async () => {
  if (!executablePath) return;
  game = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  stranger = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  gameOrigin = await listen(game);
  strangerOrigin = await listen(stranger);
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  api = createServer();
  apiOrigin = await listen(api);
  const service = createPlayerService({ baseUrl: apiOrigin, store, authenticate: bearerTokens(['browser-token']), cors: { origins: [gameOrigin], credentials: true } });
  const listener = toNodeListener(service);
  api.on('request', (req, res) => {
    methodsSeen.push(req.method!);
    listener(req, res);
  });
  ({ browser, close: closeBrowser } = await launchChromium(executablePath, 'cors'));
});

crossOrigin.after(async () => {
  if (!executablePath) return;
  await closeBrowser?.();
  for (const s of [api, game, stranger]) {
    s.closeAllConnections();
    s.close();
  }
});

it('should let the listed origin read ETag and Link with credentials and PATCH with If-Match after a preflight', async () => {
  const page = await browser.newPage();
  await page.goto(gameOrigin);
  const result = await page.evaluate(async (origin) => {
    const read = await fetch(`${origin}/player/alice`, { credentials: 'include', headers: { Accept: 'application/json' } });
    const etag = read.headers.get('ETag');
    const link = read.headers.get('Link');
    const patch = await fetch(`${origin}/player/alice`, {
      method: 'PATCH',
      credentials: 'include',
      headers: { Authorization: 'Bearer browser-token', 'If-Match': etag ?? '', 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ alias: 'from-the-browser' }),
    });
    return { read: read.status, etag, link, patch: patch.status, alias: (await patch.json()).alias, newEtag: patch.headers.get('ETag') };
  }, apiOrigin);
  assert.is(result.read, 200);
  assert.match(result.etag ?? '', /^"/);
  assert.match(result.link ?? '', 'rel="friends"');
  assert.is(result.patch, 200);
  assert.is(result.alias, 'from-the-browser');
  assert.ok(result.newEtag && result.newEtag !== result.etag);
  assert.ok(methodsSeen.includes('OPTIONS'), 'the browser sent a preflight');
});

it('should keep the answers from a page on an origin not listed', async () => {
  const page = await browser.newPage();
  await page.goto(strangerOrigin);
  const outcome = await page.evaluate(async (origin) => {
    try {
      await fetch(`${origin}/player/alice`, { credentials: 'include' });
      return 'read';
    } catch (error) {
      return (error as Error).name;
    }
  }, apiOrigin);
  assert.is(outcome, 'TypeError');
});

crossOrigin.run();
