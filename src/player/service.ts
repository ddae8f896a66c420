// createPlayerService: the Player API (its declaration, the eight formats) with what only it has: avatars
// and the API gateway integration of its Swagger description.
import { createService, type Service } from '../core/service/service.js';
import type { ServiceExtension, ServiceOptions } from '../core/service/options.js';
import { checkOptionNames, checkServiceOptions, SERVICE_OPTION_NAMES } from '../core/service/option-checks.js';
import { DEFAULT_CACHE_POLICIES } from '../core/respond/cache-policy.js';
import { errorResponses, optionsOperation, readOperations, responseHeaders, BEARER, type DescribeOperation, type SwaggerOperation } from '../core/descriptions/swagger-pieces.js';
import { PROBLEM_MEDIA_TYPE } from '../core/http/problem.js';
import { defaultRepresentations } from '../representations/index.js';
import { playerApi } from './api.js';
import type { Api } from '../core/model/api.js';
import { avatarRoute } from './avatar/route.js';
import { MemoryPlayerStore } from './player-store.js';

/** Default largest avatar upload, in bytes (1 MiB, docs/decisions.md). */
export const DEFAULT_MAX_AVATAR_BYTES = 1024 * 1024;

/** The option names `createPlayerService` takes: those of `createService` and the Player API's own. */
const PLAYER_OPTION_NAMES: readonly string[] = [...SERVICE_OPTION_NAMES, 'maxAvatarBytes', 'backendUrl', 'gateway'];

/**
 * Options of `createPlayerService`: those of `createService` (but `api`, which is the Player API), and
 * the Player API's own: the largest avatar upload, and the backend and gateway its Swagger
 * description's integration names.
 *
 * @example
 * const options: PlayerServiceOptions = { baseUrl: 'https://api.example.com', pageSize: 20 };
 */
export interface PlayerServiceOptions extends Omit<ServiceOptions, 'api'> {
  /**
   * A variant of the Player API to serve (default `playerApi`): `defineApi` of `playerApiDeclaration`
   * with a player type of your own (a `level` field...). It must keep a type named `player`.
   */
  api?: Api;
  /** Largest avatar upload in bytes (default 1 MiB); larger is 413. */
  maxAvatarBytes?: number;
  /** A backend the Swagger description's gateway extension forwards GET /player/{id} to. */
  backendUrl?: string;
  /** The gateway named in the Swagger extension `x-<gateway>-integration` (default `amazon-apigateway`). */
  gateway?: string;
}

/**
 * The Player API service.
 *
 * @example
 * const service: PlayerService = createPlayerService({ baseUrl: 'https://api.example.com' });
 */
export type PlayerService = Service;

const AVATAR_PATH = '/player/{id}/avatar.png';

/** The Swagger operations of the avatar route. */
function avatarOperations(): Record<string, DescribeOperation> {
  const read = readOperations("A player's avatar", 'getAvatar', 'avatars', ['playerId'], { description: 'The uploaded PNG, or the identicon generated from the player id', schema: { type: 'file' }, headers: responseHeaders('Api-Version', 'Vary', 'Deprecation', 'Sunset', 'Link', 'ETag', 'Last-Modified', 'Cache-Control', 'Expires', 'Date') }, () => ['image/png', PROBLEM_MEDIA_TYPE]);
  const common = ['Api-Version', 'Vary', 'Deprecation', 'Sunset', 'Link'];
  return {
    ...read,
    get: (c) => {
      const op = read.get(c);
      const redirect = { description: 'No avatar was uploaded: the image URL given when the player was created', headers: responseHeaders(...common, 'Location', 'Cache-Control') };
      return { ...op, responses: { ...(op.responses as Record<string, unknown>), '302': redirect } };
    },
    put: () => ({
      summary: 'Upload an avatar (a PNG of at most maxAvatarBytes, 1 MiB by default)',
      operationId: 'putAvatar',
      tags: ['avatars'],
      security: BEARER,
      consumes: ['image/png'],
      produces: [PROBLEM_MEDIA_TYPE],
      parameters: [...['apiVersion', 'playerId', 'ifMatch', 'ifNoneMatch', 'ifUnmodifiedSince'].map((n) => ({ $ref: `#/parameters/${n}` })), { name: 'image', in: 'body', required: true, schema: { type: 'string', format: 'binary' } }],
      responses: {
        '200': { description: 'Replaced', headers: responseHeaders(...common, 'ETag', 'Last-Modified') },
        '201': { description: 'The first avatar of the player', headers: responseHeaders(...common, 'ETag', 'Last-Modified', 'Location') },
        ...errorResponses(400, 401, 404, 412, 413, 415, 503),
      },
    }),
    options: optionsOperation('avatars', 'optionsAvatar', ['playerId']),
  };
}

/**
 * What the Player API has beyond its declaration: the avatar route (`avatar` cache kind, a day by
 * default), its description, and, with `backendUrl`, the `x-<gateway>-integration` of GET /player/{id}
 * in the Swagger description (type http, GET to the backend, a default response of status "200").
 *
 * @example
 * createService({ api: playerApi, baseUrl, representations, extensions: [playerExtension({ backendUrl: 'https://backend.internal' })] });
 */
export function playerExtension(options: Pick<PlayerServiceOptions, 'maxAvatarBytes' | 'backendUrl' | 'gateway' | 'api'> = {}): ServiceExtension {
  const player = (options.api ?? playerApi).type('player');
  const maxAvatarBytes = options.maxAvatarBytes ?? DEFAULT_MAX_AVATAR_BYTES;
  if (!Number.isInteger(maxAvatarBytes) || maxAvatarBytes < 1) throw new TypeError('createPlayerService: maxAvatarBytes must be a positive integer');
  if (options.backendUrl !== undefined && !/^https?:\/\/[^/]/.test(options.backendUrl)) {
    throw new TypeError('createPlayerService: backendUrl must be an absolute http(s) URL');
  }
  const gateway = options.gateway ?? 'amazon-apigateway';
  if (!/^[a-z0-9][a-z0-9-]*$/i.test(gateway)) throw new TypeError('createPlayerService: gateway must be letters, digits and dashes');
  const backendUrl = options.backendUrl?.replace(/\/+$/, '');
  return {
    routes: [avatarRoute(player, maxAvatarBytes)],
    cache: { avatar: DEFAULT_CACHE_POLICIES.media },
    describe: {
      operations: { [AVATAR_PATH]: avatarOperations() },
      tags: [{ name: 'avatars', description: 'Avatar images' }],
      classes: {
        [AVATAR_PATH]: {
          id: 'schema:ImageObject',
          title: 'Avatar',
          description: 'The PNG of a player: uploaded, or an identicon made from the id',
          properties: [],
          bodies: { GET: { returns: 'schema:ImageObject' }, PUT: { expects: 'schema:ImageObject', returns: 'schema:ImageObject' } },
        },
      },
      finish: (doc, target) => {
        const get = (doc.paths as Record<string, Record<string, SwaggerOperation>>)[player.path]?.get;
        if (!get || backendUrl === undefined) return;
        get[`x-${gateway}-integration`] = {
          type: 'http',
          httpMethod: 'GET',
          uri: `${backendUrl}${target.prefix ?? ''}${player.path}`,
          responses: { default: { statusCode: '200' } },
          // The gateway forwards the method's {id} into the backend URI's {id}.
          requestParameters: { 'integration.request.path.id': 'method.request.path.id' },
          passthroughBehavior: 'when_no_match',
        };
      },
    },
  };
}

/**
 * Creates the Player API service: players, paged and searchable friend lists, avatars, in the eight
 * built-in formats unless `representations` says otherwise, on a new `MemoryPlayerStore` unless
 * `store` says otherwise. The result's `fetch(request)` is the whole API.
 *
 * @example
 * import { createPlayerService, MemoryPlayerStore } from 'player-hypermedia';
 * const service = createPlayerService({ baseUrl: 'https://api.example.com', store: new MemoryPlayerStore() });
 * const res = await service.fetch(new Request('https://api.example.com/player/alice'));
 * console.log(res.status, await res.json());
 */
export function createPlayerService(options: PlayerServiceOptions): PlayerService {
  if (!options || typeof options !== 'object') throw new TypeError('createPlayerService: options (an object with baseUrl) are required');
  checkOptionNames(options, PLAYER_OPTION_NAMES, 'createPlayerService');
  checkServiceOptions(options as unknown as Record<string, unknown>, 'createPlayerService');
  const { maxAvatarBytes, backendUrl, gateway, api = playerApi, ...rest } = options;
  return createService({
    ...rest,
    api,
    store: rest.store ?? new MemoryPlayerStore(),
    representations: rest.representations ?? defaultRepresentations,
    extensions: [playerExtension({ maxAvatarBytes, backendUrl, gateway, api }), ...(rest.extensions ?? [])],
  });
}
