import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { createPlayerService, DEMO_PLAYER_ID, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { originOf } from './support/echo.js';

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

function findChromium(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const browser = suite('the HTML representation in headless Chromium');
const executablePath = findChromium();
// Without chromium the test is reported as skipped (test/run.mjs counts it), never as passed.
const it = executablePath ? browser : browser.skip;
if (!executablePath) console.log('note: no `chromium` on PATH; the headless browser test is skipped (CI installs it in .ci/run).');
let server: Server;
let origin: string;
let instance: BrowserContext;
let profile: string;

browser.before(async () => {
  if (!executablePath) return;
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = originOf(server);
  server.on('request', toNodeListener(createPlayerService({ baseUrl: origin, store })));
  profile = mkdtempSync(join(tmpdir(), 'player-hypermedia-chromium-'));
  // Playwright passes the temporary profile as --user-data-dir itself (it refuses that flag in args).
  instance = await chromium.launchPersistentContext(profile, {
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

browser.after(async () => {
  if (!executablePath) return;
  await instance?.close();
  server.closeAllConnections();
  server.close();
  rmSync(profile, { recursive: true, force: true });
});

it('should open the demo player, follow next to the last page, and search', async () => {
  const page = await instance.newPage();
  const res = await page.goto(`${origin}/player/${DEMO_PLAYER_ID}`);
  assert.is(res?.status(), 200);
  assert.is(res?.headers()['content-type'], 'text/html; charset=utf-8');
  assert.is(await page.textContent('h1'), 'Alice Liddell');

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
