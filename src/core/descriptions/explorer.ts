// The explorer: an interactive page (Swagger UI) over the service's OpenAPI description, at {base}/docs, its
// scripts and styles served by the service itself from files the host gives (no CDN). Web-standard: where the
// files come from is the host's part (`player-hypermedia/explorer` reads them from the swagger-ui-dist package).
import type { ServiceExtension } from '../service/options.js';
import type { RequestContext } from '../service/context.js';
import type { Answer } from '../respond/answer.js';
import type { CachePolicy } from '../respond/cache-policy.js';
import { HttpError } from '../http/problem.js';
import { hashString } from '../respond/etag.js';
import { renderedBody } from '../caches/body-cache.js';
import { respondConditionally } from '../respond/conditional-get.js';
import { optionsOperation, readOperations, responseHeaders } from './swagger-pieces.js';
import { OPENAPI_PATH } from './routes.js';

/**
 * The files of the explorer's page, from the host: Swagger UI's `swagger-ui-bundle.js` and
 * `swagger-ui.css`, and the `version` they are (it makes their entity tags).
 *
 * @example
 * const assets: ExplorerAssets = { version: '5.32.0', read: async (name) => files.get(name) };
 */
export interface ExplorerAssets {
  readonly version: string;
  read(name: ExplorerAsset): Promise<Uint8Array | undefined>;
}

/**
 * The names of the files `ExplorerAssets.read` is asked for.
 *
 * @example
 * const name: ExplorerAsset = 'swagger-ui.css';
 */
export type ExplorerAsset = 'swagger-ui-bundle.js' | 'swagger-ui.css';

const ASSET_TYPES: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'explorer.js': 'text/javascript; charset=utf-8',
};

/** The page and its files change only with the package: caches may keep them a day. */
const EXPLORER_POLICY: CachePolicy = { scope: 'public', maxAge: 86_400 };

/** Base URLs whose explorer page is kept. */
const PAGES_KEPT = 64;

/** Where the explorer is served. */
const EXPLORER_PATH = '/docs';

/**
 * Starts Swagger UI on the description named by the page's `data-url` (a script file of its own: the
 * page runs no inline script). Writes are tried with the token given in Authorize (bearer).
 */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  var root = document.getElementById('explorer');
  window.explorer = SwaggerUIBundle({
    url: root.getAttribute('data-url'),
    domNode: root,
    deepLinking: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

const INIT_ETAG = `"explorer-init.${hashString(INIT_SCRIPT)}"`;

// The core cannot import the HTML format's escaping (representations depend on the core, not the other way).
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(ctx: RequestContext): string {
  const base = ctx.baseUrl;
  const title = escapeHtml(`${ctx.config.api.title}: explorer`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${escapeHtml(`${base}${EXPLORER_PATH}/swagger-ui.css`)}">
<link rel="describedby" type="application/openapi+json" href="${escapeHtml(`${base}${OPENAPI_PATH}`)}">
</head>
<body>
<div id="explorer" data-url="${escapeHtml(`${base}${OPENAPI_PATH}`)}"></div>
<script src="${escapeHtml(`${base}${EXPLORER_PATH}/swagger-ui-bundle.js`)}"></script>
<script src="${escapeHtml(`${base}${EXPLORER_PATH}/explorer.js`)}"></script>
</body>
</html>
`;
}

function answer(ctx: RequestContext, body: string | Uint8Array, contentType: string, etag: string): Answer {
  return respondConditionally(ctx, { validators: { etag }, policy: EXPLORER_POLICY, vary: [], dependsOn: [], render: () => renderedBody(body, contentType) });
}

/**
 * An extension serving the explorer: GET {base}/docs is Swagger UI over {base}/openapi.json, where
 * every operation can be tried (writes with a bearer token given in Authorize); {base}/docs/{file} its
 * script and styles from `assets`. On Node, `swaggerUi()` of `player-hypermedia/explorer` gives them.
 *
 * @example
 * import { swaggerUi } from 'player-hypermedia/explorer';
 * createPlayerService({ baseUrl, extensions: [explorerExtension(await swaggerUi())] });
 */
export function explorerExtension(assets: ExplorerAssets): ServiceExtension {
  const kept = new Map<string, Promise<Uint8Array | undefined>>();
  const tag = hashString(assets.version);
  // The page names this request's base URL: made once per base URL (a few, behind proxies), not per request.
  const pages = new Map<string, { body: string; etag: string }>();
  const getPage = async (ctx: RequestContext) => {
    let made = pages.get(ctx.baseUrl);
    if (made === undefined) {
      const body = page(ctx);
      made = { body, etag: `"explorer.${hashString(body)}"` };
      if (pages.size >= PAGES_KEPT) pages.delete(pages.keys().next().value!);
      pages.set(ctx.baseUrl, made);
    }
    return answer(ctx, made.body, 'text/html; charset=utf-8', made.etag);
  };
  const getAsset = async (ctx: RequestContext) => {
    const name = ctx.params.file!;
    const type = ASSET_TYPES[name];
    if (type === undefined) throw new HttpError(404, `The explorer has no file "${name}".`);
    if (name === 'explorer.js') return answer(ctx, INIT_SCRIPT, type, INIT_ETAG);
    let bytes = kept.get(name);
    if (bytes === undefined) kept.set(name, (bytes = assets.read(name as ExplorerAsset)));
    const found = await bytes.catch(() => undefined);
    if (found === undefined) {
      kept.delete(name);
      throw new HttpError(404, `The explorer's file "${name}" is not installed.`);
    }
    return answer(ctx, found, type, `"${name}.${tag}"`);
  };
  const html = { description: 'The explorer page', schema: { type: 'string' }, headers: responseHeaders('ETag', 'Cache-Control') };
  const file = { description: 'A script or style sheet of the explorer', schema: { type: 'string' }, headers: responseHeaders('ETag', 'Cache-Control') };
  return {
    routes: [
      { path: EXPLORER_PATH, methods: { GET: getPage } },
      { path: `${EXPLORER_PATH}/{file}`, methods: { GET: getAsset } },
    ],
    describe: {
      tags: [{ name: 'explorer', description: 'The interactive explorer of this description' }],
      operations: {
        [EXPLORER_PATH]: {
          ...readOperations('The explorer: Swagger UI over /openapi.json, every operation can be tried', 'getExplorer', 'explorer', [], html, () => ['text/html']),
          options: optionsOperation('explorer', 'optionsExplorer', []),
        },
        [`${EXPLORER_PATH}/{file}`]: {
          ...readOperations("A file of the explorer's page", 'getExplorerFile', 'explorer', ['explorerFile'], file, () => ['text/javascript', 'text/css']),
          options: optionsOperation('explorer', 'optionsExplorerFile', ['explorerFile']),
        },
      },
      finish: (doc) => {
        (doc.parameters as Record<string, unknown>).explorerFile = { name: 'file', in: 'path', required: true, type: 'string', enum: Object.keys(ASSET_TYPES), description: 'The file' };
      },
    },
  };
}
