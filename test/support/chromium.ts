// Headless Chromium for the browser tests: Debian's `chromium` (CI installs it in .ci/run), launched by
// playwright-core with a temporary profile that `close` removes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** The path of `chromium` on PATH, or undefined (the browser tests are then reported as skipped). */
export function findChromium(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A headless Chromium with a fresh profile; `close` ends it and removes the profile. */
export async function launchChromium(executablePath: string, name: string): Promise<{ browser: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), `player-hypermedia-${name}-`));
  // Playwright passes the temporary profile as --user-data-dir itself (it refuses that flag in args).
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
