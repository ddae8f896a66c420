// The Swagger 2.0 operation of each method of each route the service serves.
import { PATCH_MEDIA_TYPES } from '../body.js';
import { PROBLEM_MEDIA_TYPE } from '../../core/http/problem.js';

/**
 * What operations depend on: the media types of the registered formats and of the bodies they read.
 *
 * @example
 * const doc = buildSwagger({ baseUrl }); // each operation is described from an OperationContext
 */
export interface OperationContext {
  formats: readonly string[];
  bodyTypes: readonly string[];
  /** The formats that render relationship linkage (`renderLinkage`). */
  linkageFormats: readonly string[];
  /** The media types PATCH reads as partial updates (`partialUpdates`). */
  patchDocumentTypes: readonly string[];
  /** The media types relationship writes read (`readLinkage`). */
  linkageBodyTypes: readonly string[];
}

/**
 * A Swagger 2.0 Operation Object, loosely typed.
 *
 * @example
 * const get: SwaggerOperation = buildSwagger({ baseUrl }).paths['/player/{id}'].get;
 */
export type SwaggerOperation = { [field: string]: unknown };

type Responses = Record<string, unknown>;

/**
 * Describes one operation of the route table for the Swagger document, from the service's context.
 *
 * @example
 * const describe: DescribeOperation = (c) => ({ summary: 'Get a player', responses: { 200: { description: 'The player' } } });
 */
export type DescribeOperation = (c: OperationContext) => SwaggerOperation;


const ref = (kind: 'parameters' | 'responses' | 'definitions', name: string) => ({ $ref: `#/${kind}/${name}` });
const params = (...names: string[]) => names.map((n) => ref('parameters', n));
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [String(s), ref('responses', `Status${s}`)]));
const BEARER = [{ bearer: [] }];

/** Header names each response kind carries; their Header Objects live in `RESPONSE_HEADERS`. */
const COMMON = ['Api-Version', 'Vary', 'Deprecation', 'Sunset', 'Link'];
const CACHED = [...COMMON, 'ETag', 'Last-Modified', 'Cache-Control', 'Expires', 'Date'];

/**
 * The Header Objects of every response header the service sends.
 *
 * @example
 * RESPONSE_HEADERS.ETag; // { type: 'string', description: '...' }
 */
export const RESPONSE_HEADERS: Readonly<Record<string, SwaggerOperation>> = {
  'Api-Version': { type: 'string', description: 'The API version served, major.minor' },
  Vary: { type: 'string', description: 'Request fields the answer depends on: Accept, Authorization, Api-Version' },
  Deprecation: { type: 'string', description: 'RFC 9745: when the version served was deprecated (@unix-seconds); only on deprecated versions' },
  Sunset: { type: 'string', description: 'RFC 8594: when the deprecated version served stops working (HTTP-date)' },
  Link: { type: 'string', description: 'RFC 8288 links: paging (first, prev, next, last, up) and successor-version on deprecated versions' },
  ETag: { type: 'string', description: 'Strong entity tag of this representation (RFC 9110 section 8.8.3)' },
  'Last-Modified': { type: 'string', description: 'HTTP-date of the last change' },
  'Cache-Control': { type: 'string', description: 'Cache policy of the resource kind (RFC 9111 section 5.2)' },
  Expires: { type: 'string', description: 'Date + max-age, for HTTP/1.0 caches' },
  Date: { type: 'string', description: 'When the answer was made' },
  'Total-Count': { type: 'integer', description: 'Number of items in the whole list' },
  Location: { type: 'string', format: 'uri', description: 'URL of the created or addressed resource' },
  'Content-Length': { type: 'integer', description: 'Length of the body a GET would send' },
  Allow: { type: 'string', description: 'Methods the resource answers (RFC 9110 section 10.2.1)' },
  'Accept-Patch': { type: 'string', description: 'Patch formats PATCH accepts (RFC 5789 section 3.1)' },
  'Accept-Post': { type: 'string', description: 'Body formats POST accepts (W3C LDP section 7.1)' },
};

const headers = (...names: string[]) => Object.fromEntries(names.map((n) => [n, RESPONSE_HEADERS[n]]));

function read(summary: string, operationId: string, tag: string, extra: string[], ok: SwaggerOperation, produces: (c: OperationContext) => string[]): { get: DescribeOperation; head: DescribeOperation } {
  const parameters = params('apiVersion', ...extra, 'ifNoneMatch', 'ifModifiedSince', 'ifMatch', 'ifUnmodifiedSince');
  const failures = errors(400, 401, 404, 406, 412, 503);
  return {
    get: (c) => ({ summary, operationId, tags: [tag], produces: produces(c), parameters, responses: { '200': ok, '304': ref('responses', 'NotModified'), ...failures } }),
    head: (c) => ({
      summary: `${summary} (header fields only)`,
      operationId: `${operationId}Head`,
      tags: [tag],
      produces: produces(c),
      parameters,
      responses: { '200': { description: 'The header fields GET would send, no body', headers: headers(...CACHED, 'Content-Length') }, '304': ref('responses', 'NotModified'), ...failures },
    }),
  };
}

function options(tag: string, operationId: string, pathParams: string[], patch = false, post = false): DescribeOperation {
  return () => ({
    summary: 'The methods this resource answers',
    operationId,
    tags: [tag],
    parameters: params('apiVersion', ...pathParams),
    responses: { '204': { description: 'Allow lists the methods', headers: headers(...COMMON, 'Allow', ...(patch ? ['Accept-Patch'] : []), ...(post ? ['Accept-Post'] : [])) } },
  });
}

const formats = (c: OperationContext) => [...c.formats, PROBLEM_MEDIA_TYPE];
const player = (description: string, ...extra: string[]): SwaggerOperation => ({ description, schema: ref('definitions', 'Player'), headers: headers(...CACHED, ...extra) });
const page = (description: string): SwaggerOperation => ({
  description: `${description}; in the plain JSON format an array of players, paging in Link, the total in Total-Count. Hypermedia formats carry their links in the body.`,
  schema: { type: 'array', items: ref('definitions', 'Player') },
  headers: headers(...CACHED, 'Total-Count'),
});
const written = (status: string, description: string): SwaggerOperation => ({ description, schema: ref('definitions', 'Player'), headers: headers(...COMMON, 'ETag', 'Last-Modified', ...(status === '201' ? ['Location'] : [])) });

const playerRead = read('A player', 'getPlayer', 'players', ['playerId'], player('The player; the plain JSON shape is shown, the other formats carry the same fields under their alternate names'), formats);
const friendsRead = read('A page of a player\'s friends', 'listFriends', 'friends', ['playerId', 'page'], page('One page of friends'), formats);
const searchRead = read('Friends whose alias or display name contains the search text', 'searchFriends', 'friends', ['playerId', 'search', 'page'], page('One page of matching friends'), formats);
const linkageRead = read('The JSON:API linkage of a player\'s friends', 'getFriendsLinkage', 'friends', ['playerId', 'page'], { description: 'A JSON:API document whose data lists the friends as resource identifiers', schema: { type: 'object' }, headers: headers(...CACHED) }, (c) => [...c.linkageFormats, PROBLEM_MEDIA_TYPE]);
const avatarRead = read('A player\'s avatar', 'getAvatar', 'avatars', ['playerId'], { description: 'The uploaded PNG, or the identicon generated from the player id', schema: { type: 'file' }, headers: headers(...CACHED) }, () => ['image/png', PROBLEM_MEDIA_TYPE]);
const hydraRead = read('The Hydra ApiDocumentation (JSON-LD), linked from every answer', 'getApiDocumentation', 'description', [], { description: 'The supported classes, properties and operations', schema: { type: 'object' }, headers: headers(...CACHED) }, () => ['application/ld+json']);
const entryPointRead = read('The entry point the Hydra ApiDocumentation names (JSON-LD)', 'getEntryPoint', 'description', [], { description: 'The template of a player URL', schema: { type: 'object' }, headers: headers(...CACHED) }, () => ['application/ld+json']);
const swaggerRead = read('This Swagger 2.0 description', 'getSwagger', 'description', [], { description: 'The description', schema: { type: 'object' }, headers: headers(...CACHED) }, () => ['application/json']);

/** POST or DELETE of relationship members (JSON:API "Updating To-Many Relationships"): 204. */
function linkageWrite(c: OperationContext, summary: string, operationId: string, done: string): SwaggerOperation {
  return {
    summary,
    operationId,
    tags: ['friends'],
    security: BEARER,
    consumes: [...c.linkageBodyTypes],
    produces: [...c.linkageFormats, PROBLEM_MEDIA_TYPE],
    parameters: [...params('apiVersion', 'playerId', 'ifMatch', 'ifUnmodifiedSince'), { name: 'linkage', in: 'body', required: true, schema: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string', enum: ['players'] }, id: { type: 'string' } } } } } } }],
    responses: { '204': { description: done, headers: headers(...COMMON) }, ...errors(400, 401, 404, 409, 412, 415, 422, 428, 503) },
  };
}

/**
 * Every described route: path → method → operation. `buildSwagger` emits only what the route table
 * serves; a route without an entry here goes undescribed, which the tests refuse.
 *
 * @example
 * OPERATIONS['/player/{id}']?.get?.({ formats: ['application/json'], bodyTypes: ['application/json'], linkageFormats: [], patchDocumentTypes: [], linkageBodyTypes: [] }).operationId; // 'getPlayer'
 */
export const OPERATIONS: Readonly<Record<string, Readonly<Record<string, DescribeOperation>>>> = {
  '/player/{id}': {
    ...playerRead,
    put: (c) => ({
      summary: 'Replace a player, or create it at this URL',
      operationId: 'putPlayer',
      tags: ['players'],
      security: BEARER,
      consumes: [...c.bodyTypes],
      produces: formats(c),
      parameters: [...params('apiVersion', 'playerId', 'ifMatch', 'ifNoneMatch', 'ifUnmodifiedSince'), { name: 'player', in: 'body', required: true, schema: ref('definitions', 'Player') }],
      responses: { '200': written('200', 'Replaced'), '201': written('201', 'Created at this URL'), ...errors(400, 401, 406, 412, 413, 415, 422, 428, 503) },
    }),
    patch: (c) => ({
      summary: 'Change a player with a JSON Patch (RFC 6902), a JSON merge patch (RFC 7396), or a JSON:API resource document (the attributes sent)',
      operationId: 'patchPlayer',
      tags: ['players'],
      security: BEARER,
      consumes: [...PATCH_MEDIA_TYPES, ...c.patchDocumentTypes],
      produces: formats(c),
      parameters: [...params('apiVersion', 'playerId', 'ifMatch', 'ifUnmodifiedSince'), { name: 'patch', in: 'body', required: true, schema: ref('definitions', 'Patch') }],
      responses: { '200': written('200', 'The patched player'), ...errors(400, 401, 404, 406, 409, 412, 413, 415, 422, 428, 503) },
    }),
    delete: () => ({
      summary: 'Remove a player (and take it off every friend list)',
      operationId: 'deletePlayer',
      tags: ['players'],
      security: BEARER,
      parameters: params('apiVersion', 'playerId', 'ifMatch', 'ifUnmodifiedSince'),
      responses: { '204': { description: 'Removed', headers: headers(...COMMON) }, ...errors(400, 401, 404, 412, 428, 503) },
    }),
    options: options('players', 'optionsPlayer', ['playerId'], true),
  },
  '/player/{id}/friends': {
    ...friendsRead,
    post: (c) => ({
      summary: 'Add a friend: a new player from name, alternateName and image, or an existing player by playerId or @id',
      operationId: 'addFriend',
      tags: ['friends'],
      security: BEARER,
      consumes: [...c.bodyTypes],
      produces: formats(c),
      parameters: [...params('apiVersion', 'playerId', 'idempotencyKey', 'ifMatch', 'ifUnmodifiedSince'), { name: 'friend', in: 'body', required: true, schema: ref('definitions', 'FriendPayload') }],
      responses: { '201': written('201', 'The friend, added to the list'), ...errors(400, 401, 404, 406, 409, 412, 413, 415, 422, 428, 503) },
    }),
    options: options('friends', 'optionsFriends', ['playerId'], false, true),
  },
  '/player/{id}/friends/{friendId}': {
    delete: () => ({
      summary: 'Take a player off the friend list',
      operationId: 'removeFriend',
      tags: ['friends'],
      security: BEARER,
      parameters: params('apiVersion', 'playerId', 'friendId', 'ifMatch', 'ifUnmodifiedSince'),
      responses: { '204': { description: 'Removed from the list', headers: headers(...COMMON) }, ...errors(400, 401, 404, 412, 428, 503) },
    }),
    options: options('friends', 'optionsFriend', ['playerId', 'friendId']),
  },
  '/player/{id}/friends/search': { ...searchRead, options: options('friends', 'optionsSearch', ['playerId']) },
  '/player/{id}/relationships/friends': {
    ...linkageRead,
    post: (c) => linkageWrite(c, 'Add the players named (JSON:API resource identifiers) to the friend list; those already there stay once', 'addFriendsLinkage', 'Added'),
    delete: (c) => linkageWrite(c, 'Take the players named (JSON:API resource identifiers) off the friend list; those not there are ignored', 'removeFriendsLinkage', 'Removed'),
    patch: (c) => ({
      ...linkageWrite(c, 'Replace the friend list in full: refused (403), as JSON:API allows; POST and DELETE members instead', 'replaceFriendsLinkage', 'Never'),
      responses: errors(400, 401, 403, 404, 415, 503),
    }),
    options: options('friends', 'optionsFriendsLinkage', ['playerId']),
  },
  '/player/{id}/avatar.png': {
    ...avatarRead,
    get: (c) => {
      const op = avatarRead.get(c);
      const redirect = { description: 'No avatar was uploaded: the image URL given when the player was created', headers: headers(...COMMON, 'Location', 'Cache-Control') };
      return { ...op, responses: { ...(op.responses as Responses), '302': redirect } };
    },
    put: () => ({
      summary: 'Upload an avatar (a PNG of at most maxAvatarBytes, 1 MiB by default)',
      operationId: 'putAvatar',
      tags: ['avatars'],
      security: BEARER,
      consumes: ['image/png'],
      produces: [PROBLEM_MEDIA_TYPE],
      parameters: [...params('apiVersion', 'playerId', 'ifMatch', 'ifNoneMatch', 'ifUnmodifiedSince'), { name: 'image', in: 'body', required: true, schema: { type: 'string', format: 'binary' } }],
      responses: {
        '200': { description: 'Replaced', headers: headers(...COMMON, 'ETag', 'Last-Modified') },
        '201': { description: 'The first avatar of the player', headers: headers(...COMMON, 'ETag', 'Last-Modified', 'Location') },
        ...errors(400, 401, 404, 412, 413, 415, 503),
      },
    }),
    options: options('avatars', 'optionsAvatar', ['playerId']),
  },
  '/swagger.json': { ...swaggerRead, options: options('description', 'optionsSwagger', []) },
  '/docs.jsonld': { ...hydraRead, options: options('description', 'optionsApiDocumentation', []) },
  '/': { ...entryPointRead, options: options('description', 'optionsEntryPoint', []) },
};
