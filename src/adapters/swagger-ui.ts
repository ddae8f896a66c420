// swaggerUi(): the explorer's files read from the swagger-ui-dist package installed beside this one (Node).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { explorerExtension, type ExplorerAssets } from '../core/descriptions/explorer.js';
import type { ServiceExtension } from '../core/service/options.js';

/**
 * The explorer's files from the `swagger-ui-dist` package (a dependency of this one), read once when
 * first asked for.
 *
 * @example
 * const assets = swaggerUiAssets();
 * (await assets.read('swagger-ui.css'))?.byteLength;
 */
export function swaggerUiAssets(): ExplorerAssets {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('swagger-ui-dist/package.json');
  const { version } = require('swagger-ui-dist/package.json') as { version: string };
  const dir = dirname(manifest);
  return { version, read: async (name) => new Uint8Array(await readFile(join(dir, name))) };
}

/**
 * The explorer extension with Swagger UI from the installed package: GET {base}/docs.
 *
 * @example
 * import { swaggerUi } from 'player-hypermedia/explorer';
 * const service = createPlayerService({ baseUrl, extensions: [swaggerUi()] });
 */
export function swaggerUi(): ServiceExtension {
  return explorerExtension(swaggerUiAssets());
}

export { explorerExtension, type ExplorerAssets, type ExplorerAsset } from '../core/descriptions/explorer.js';
