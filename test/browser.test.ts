import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { createPlayerService, DEMO_PLAYER_ID, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { originOf } from './support/echo.js';
import { findChromium, launchChromium } from './support/chromium.js';

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

const browser = suite('the HTML representation in headless Chromium');
const executablePath = findChromium();
// Without chromium the test is reported as skipped (test/run.mjs counts it), never as passed.
const it = executablePath ? browser : browser.skip;
if (!executablePath) console.log('note: no `chromium` on PATH; the headless browser test is skipped (CI installs it in .ci/run).');
let server: Server;
let origin: string;
let instance: BrowserContext;
let closeBrowser: () => Promise<void>;

browser.before(async () => {
  if (!executablePath) return;
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = originOf(server);
  server.on('request', toNodeListener(createPlayerService({ baseUrl: origin, store })));
  ({ browser: instance, close: closeBrowser } = await launchChromium(executablePath, 'chromium'));
});

browser.after(async () => {
  if (!executablePath) return;
  await closeBrowser?.();
  server.closeAllConnections();
  server.close();
});

it('should open the demo player, follow next to the last page, and search', async () => {
  const page = await instance.newPage();
  const res = await page.goto(`${origin}/player/${DEMO_PLAYER_ID}`);
  assert.is(res?.status(), 200);
  assert.is(res?.headers()['content-type'], 'text/html; charset=utf-8');
  assert.is(await page.textContent('h1'), 'Alice Liddell');

  // Each raw representation, followed from the page by the browser itself (its own Accept: text/html, over
  // its keep-alive connection): the URL names the format, and the browser gets that format's body.
  for (const type of ['application/hal+json', 'application/vnd.api+json', 'application/json']) {
    const raw = await page.context().newPage();
    await raw.goto(`${origin}/player/${DEMO_PLAYER_ID}`);
    const [answer] = await Promise.all([raw.waitForResponse((r) => r.url().includes('mediaType=')), raw.click(`nav.formats a[type="${type}"]`)]);
    assert.is(answer.status(), 200, type);
    assert.is(answer.headers()['content-type'], type);
    assert.match((await answer.request().allHeaders())['accept'] ?? '', 'text/html', 'the browser asked for HTML, the URL named the format');
    assert.match(await answer.text(), DEMO_PLAYER_ID);
    await raw.close();
  }

  await Promise.all([page.waitForURL(/\/friends/), page.click('a[rel="friends"]')]);
  assert.is(await page.textContent('span.page'), '1');
  let hops = 0;
  while ((await page.locator('nav.pager a[rel="next"]').count()) > 0) {
    await Promise.all([page.waitForURL(new RegExp(`page=${hops + 2}$`)), page.click('nav.pager a[rel="next"]')]);
    hops++;
  }
  assert.is(hops, 3);
  assert.is(await page.textContent('span.page'), await page.textContent('span.last-page'));
  assert.is(await page.locator('a[rel="prev"]').getAttribute('href'), `${origin}/player/alice/friends?page=3`);

  await page.fill('form.search input[name="search"]', 'ada');
  await Promise.all([page.waitForURL(/\/friends\/search\?search=ada/), page.click('form.search button')]);
  assert.match((await page.textContent('h1'))!, 'matching “ada”');
  const found = await page.locator('a.member').allTextContents();
  assert.ok(found.length > 0);
  for (const name of found) assert.match(name.toLowerCase(), 'ada');

  mkdirSync(ARTIFACTS, { recursive: true });
  const shot = join(ARTIFACTS, 'browser-search.png');
  await page.screenshot({ path: shot, fullPage: true });
  assert.ok(statSync(shot).size > 1000);

  await Promise.all([page.waitForURL(/\/player\/[^/]+$/), page.click('a.member >> nth=0')]);
  assert.ok(await page.locator('dd.playerId').count());
});

browser.run();
