// The explorer (Swagger UI over /openapi.json, served from the package) in a real headless Chromium: the page
// loads with no request leaving the service, lists the operations, a GET tried from it answers 200, and a
// write tried with a token given in Authorize answers 204.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { BrowserContext } from 'playwright-core';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData, type PlayerStore } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { swaggerUi } from '../src/adapters/swagger-ui.js';
import { originOf } from './support/echo.js';
import { findChromium, launchChromium } from './support/chromium.js';

const TOKEN = 'explorer-token';

const explorer = suite('the explorer (Swagger UI) in headless Chromium');
const executablePath = findChromium();
// Without chromium the test is reported as skipped (test/run.mjs counts it), never as passed.
const it = executablePath ? explorer : explorer.skip;
if (!executablePath) console.log('note: no `chromium` on PATH; the explorer test is skipped (CI installs it in .ci/run).');
let server: Server;
let origin: string;
let store: PlayerStore;
let instance: BrowserContext;
let closeBrowser: () => Promise<void>;

explorer.before(async () => {
  if (!executablePath) return;
  store = new MemoryPlayerStore();
  await seedDemoData(store);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = originOf(server);
  server.on('request', toNodeListener(createPlayerService({ baseUrl: origin, store, authenticate: bearerTokens([TOKEN]), extensions: [swaggerUi()] })));
  ({ browser: instance, close: closeBrowser } = await launchChromium(executablePath, 'explorer'));
});

explorer.after(async () => {
  if (!executablePath) return;
  await closeBrowser?.();
  server.closeAllConnections();
  server.close();
});

it('loads from the service alone, lists the operations, and tries a GET and a write', async () => {
  const page = await instance.newPage();
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) elsewhere.push(request.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const res = await page.goto(`${origin}/docs`);
  assert.is(res?.status(), 200);
  assert.is(res?.headers()['content-type'], 'text/html; charset=utf-8');
  await page.waitForSelector('.opblock', { timeout: 20_000 });
  assert.match((await page.textContent('.info .title')) ?? '', 'Player API');
  const operations = await page.locator('.opblock').count();
  const described = await page.evaluate(async () => {
    const doc = await (await fetch('/openapi.json')).json();
    return Object.values(doc.paths as Record<string, Record<string, unknown>>).reduce((n, item) => n + Object.keys(item).length, 0);
  });
  assert.is(operations, described, `${operations} operations listed, ${described} described`);

  // GET /player/{id}, tried: Swagger UI sends it to the service and shows the status.
  const get = page.locator('#operations-players-getPlayer');
  await get.locator('.opblock-summary').click();
  await get.locator('tr[data-param-name="id"] input').fill('alice');
  await get.locator('button.execute').click();
  await get.locator('.live-responses-table tbody .response-col_status').first().waitFor({ timeout: 10_000 });
  assert.is((await get.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim(), '200');
  assert.match((await get.locator('.live-responses-table .microlight').first().textContent()) ?? '', '"playerId": "alice"');

  // A write: Authorize with the token, then DELETE /player/{id}/friends/{friendId}.
  await page.locator('.auth-wrapper button.authorize').click();
  await page.locator('.auth-container input').first().fill(TOKEN);
  await page.locator('.auth-btn-wrapper button.authorize').click();
  await page.locator('button.btn-done').click();
  const remove = page.locator('#operations-friends-removeFriend');
  await remove.locator('.opblock-summary').click();
  await remove.locator('tr[data-param-name="id"] input').fill('alice');
  await remove.locator('tr[data-param-name="friendId"] input').fill('ada-01');
  await remove.locator('button.execute').click();
  await remove.locator('.live-responses-table tbody .response-col_status').first().waitFor({ timeout: 10_000 });
  assert.is((await remove.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim(), '204');
  const friends = await store.listFriends('alice', { offset: 0, limit: 100 });
  assert.not.ok(friends!.items.some((p) => p.playerId === 'ada-01'), 'the friend was removed');

  assert.equal(elsewhere, [], 'every file came from the service');

  // Over a plain keep-alive socket: the files revalidate, and a name that is not one of them is 404.
  for (const path of ['/docs', '/docs/swagger-ui-bundle.js', '/docs/explorer.js']) {
    const first = await fetch(`${origin}${path}`);
    await first.arrayBuffer();
    assert.match(first.headers.get('cache-control') ?? '', 'max-age=86400', path);
    const again = await fetch(`${origin}${path}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.is(again.status, 304, path);
  }
  const unknown = await fetch(`${origin}/docs/..%2Fpackage.json`);
  assert.is(unknown.status, 404);
  assert.is((await fetch(`${origin}/docs/index.html`)).status, 404);
  assert.equal(errors, [], 'no script error');
});

explorer.run();
