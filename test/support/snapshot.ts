// Snapshot files: compare a rendered body with test/snapshots/<path>, or write it with UPDATE_SNAPSHOTS=1.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SNAPSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'snapshots');
const updating = process.env.UPDATE_SNAPSHOTS === '1';

/** The stored form of a body: JSON pretty-printed (stable diffs), anything else as is, ending in a newline. */
export function snapshotText(body: string, contentType: string): string {
  return /json/.test(contentType) ? `${JSON.stringify(JSON.parse(body), null, 2)}\n` : body.endsWith('\n') ? body : `${body}\n`;
}

/** The file extension of a snapshot of this Content-Type. */
export function snapshotExtension(contentType: string): string {
  return /json/.test(contentType) ? 'json' : /html/.test(contentType) ? 'html' : 'txt';
}

/**
 * Checks `text` against the snapshot file `relative`. With UPDATE_SNAPSHOTS=1 the file is (re)written;
 * otherwise a missing file is a failure, so a snapshot deleted by mistake cannot pass by being rewritten.
 * Returns undefined when it matches, else the reason.
 */
export function checkSnapshot(relative: string, text: string): string | undefined {
  const file = join(SNAPSHOT_DIR, relative);
  if (updating) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return undefined;
  }
  if (!existsSync(file)) return `${relative} is missing: run UPDATE_SNAPSHOTS=1 npm test`;
  const stored = readFileSync(file, 'utf8');
  return stored === text ? undefined : `${relative} differs from the rendered body: review the change, then run UPDATE_SNAPSHOTS=1 npm test`;
}
