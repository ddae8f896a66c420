import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv } from 'ajv';
import AjvDraft04Module from 'ajv-draft-04';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerTokens, buildSwagger, createPlayerService, defaultRepresentations, PROBLEM_SCHEMA } from '../src/index.js';
import { toSwaggerSchema } from '../src/core/descriptions/swagger-schemas.js';
import { PLAYER_SCHEMA } from '../src/player/documents.js';
import { allowedMethods } from '../src/core/service/router.js';
import { playerRoutes } from './support/player-routes.js';
const apiRoutes = playerRoutes();
import { toNodeListener } from '../src/adapters/node.js';
import { BASE, demoService } from './support/service.js';

type Doc = ReturnType<typeof buildSwagger>;
type Operation = { [field: string]: any };
const op = (doc: Doc, path: string, method: string): Operation | undefined => (doc.paths as any)[path]?.[method];
const METHODS = ['get', 'head', 'put', 'post', 'patch', 'delete', 'options'];

const document = suite('buildSwagger');

document('should describe the Player API as its description says', () => {
  const doc = buildSwagger({ baseUrl: 'https://api.example.com' });
  assert.is(doc.swagger, '2.0');
  assert.equal(doc.info, {
    title: 'Player API',
    description: 'A simple API for Player resources',
    license: { name: 'Apache 2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0.html' },
    version: '1.0.1',
  });
  assert.is(doc.host, 'api.example.com');
  assert.is(doc.basePath, '/');
  assert.equal(doc.schemes, ['https']);
  const mounted = buildSwagger({ baseUrl: 'http://127.0.0.1:3000/players-api/' });
  assert.is(mounted.host, '127.0.0.1:3000');
  assert.is(mounted.basePath, '/players-api');
  assert.equal(mounted.schemes, ['http']);
});

document('should validate with @apidevtools/swagger-parser, with and without the gateway extension', async () => {
  await SwaggerParser.validate(structuredClone(buildSwagger({ baseUrl: BASE })) as any);
  await SwaggerParser.validate(structuredClone(buildSwagger({ baseUrl: BASE, backendUrl: 'https://backend.test' })) as any);
});

document('should describe every route of the route table with every method it answers, and nothing else', () => {
  const doc = buildSwagger({ baseUrl: BASE });
  assert.equal(Object.keys(doc.paths).sort(), apiRoutes.map((r) => r.path).sort());
  for (const route of apiRoutes) {
    const item = (doc.paths as any)[route.path] as Record<string, Operation>;
    const described = Object.keys(item).filter((k) => METHODS.includes(k)).sort();
    assert.equal(described, allowedMethods(route).map((m) => m.toLowerCase()).sort(), route.path);
    for (const [method, operation] of Object.entries(item)) {
      assert.ok(operation.summary && operation.operationId, `${method} ${route.path}`);
      assert.ok(Object.keys(operation.responses).length > 0, `${method} ${route.path}`);
    }
  }
});

document('should list every registered format, problem+json and the patch types in produces and consumes', () => {
  const doc = buildSwagger({ baseUrl: BASE });
  const formats = defaultRepresentations.map((r) => r.mediaType);
  for (const path of ['/player/{id}', '/player/{id}/friends', '/player/{id}/friends/search']) {
    assert.equal(op(doc, path, 'get')!.produces, [...formats, 'application/problem+json'], path);
  }
  assert.equal(doc.produces, [...formats, 'application/problem+json']);
  assert.equal(op(doc, '/player/{id}/avatar.png', 'get')!.produces, ['image/png', 'application/problem+json']);
  const linkage = op(doc, '/player/{id}/relationships/friends', 'get');
  if (linkage) {
    const linkageFormats = defaultRepresentations.filter((r) => r.renderLinkage).map((r) => r.mediaType);
    assert.ok(linkageFormats.length > 0);
    assert.equal(linkage.produces, [...linkageFormats, 'application/problem+json']);
  }
  const bodies = [...new Set(defaultRepresentations.flatMap((r) => r.bodyMediaTypes ?? []))];
  const put = op(doc, '/player/{id}', 'put');
  if (put) assert.equal(put.consumes, bodies.length ? bodies : ['application/json']);
  const patch = op(doc, '/player/{id}', 'patch');
  if (patch) assert.equal(patch.consumes, ['application/json-patch+json', 'application/merge-patch+json', ...defaultRepresentations.filter((r) => r.partialUpdates).flatMap((r) => r.bodyMediaTypes ?? [])]);
  assert.equal(op(doc, '/player/{id}/avatar.png', 'put')!.consumes, ['image/png']);
});

document('should describe parameters, responses and their headers', () => {
  const doc = buildSwagger({ baseUrl: BASE });
  const get = op(doc, '/player/{id}', 'get')!;
  const names = get.parameters.map((p: { $ref: string }) => p.$ref.split('/').pop());
  assert.ok(names.includes('playerId') && names.includes('apiVersion') && names.includes('ifNoneMatch'));
  assert.is((doc.parameters as any).playerId.pattern, PLAYER_SCHEMA.properties.playerId.pattern);
  assert.equal((doc.parameters as any).apiVersion.enum, ['1.0']);
  for (const header of ['ETag', 'Last-Modified', 'Cache-Control', 'Expires', 'Vary', 'Api-Version']) assert.ok(get.responses['200'].headers[header], header);
  assert.equal(get.responses['304'], { $ref: '#/responses/NotModified' });
  assert.equal(get.responses['404'], { $ref: '#/responses/Status404' });
  const page = op(doc, '/player/{id}/friends', 'get')!;
  assert.ok(page.responses['200'].headers.Link && page.responses['200'].headers['Total-Count']);
  assert.equal(page.responses['200'].schema, { type: 'array', items: { $ref: '#/definitions/Player' } });
  const avatar = op(doc, '/player/{id}/avatar.png', 'get')!;
  assert.ok(avatar.responses['302'].headers.Location);
  assert.ok(op(doc, '/player/{id}/avatar.png', 'put')!.responses['201'].headers.Location);
  assert.ok(op(doc, '/player/{id}', 'options')!.responses['204'].headers.Allow);
  assert.ok((doc.responses as any).Status401.headers['WWW-Authenticate']);
});

document('should make its definitions from the schemas the service validates with', () => {
  const doc = buildSwagger({ baseUrl: BASE });
  assert.equal(doc.definitions.Player, toSwaggerSchema(PLAYER_SCHEMA as any));
  assert.equal(doc.definitions.Problem, toSwaggerSchema(PROBLEM_SCHEMA as any));
  const friend = doc.definitions.FriendPayload as any;
  assert.is(friend.properties.alternateName.maxLength, PLAYER_SCHEMA.properties.alias.maxLength);
  assert.is(friend.properties.name.maxLength, PLAYER_SCHEMA.properties.displayName.maxLength);
  assert.is(friend.properties.image.pattern, PLAYER_SCHEMA.properties.image.pattern);
});

document('should describe what the service really answers (bodies checked against the definitions)', async () => {
  const { call } = await demoService();
  const doc = buildSwagger({ baseUrl: BASE });
  // ajv-draft-04 is CommonJS with `exports.default`.
  const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: typeof AjvDraft04Module }).default ?? AjvDraft04Module) as unknown as typeof Ajv;
  const ajv = new AjvDraft04({ strict: false });
  for (const [name, schema] of Object.entries(doc.definitions)) ajv.addSchema(schema as object, `#/definitions/${name}`);
  const player = ajv.compile({ $ref: '#/definitions/Player' });
  assert.ok(player(await (await call('/player/alice')).json()), JSON.stringify(player.errors));
  const page = ajv.compile({ type: 'array', items: { $ref: '#/definitions/Player' } });
  assert.ok(page(await (await call('/player/alice/friends?page=2')).json()), JSON.stringify(page.errors));
  const { call: write } = await demoService({ authenticate: bearerTokens(['s3cret']) });
  const auth = { Authorization: 'Bearer s3cret', 'Content-Type': 'application/json' };
  const created = await write('/player/zoe', { method: 'PUT', headers: auth, body: JSON.stringify({ alias: 'zoe', displayName: 'Zoe Zed' }) });
  assert.is(created.status, 201);
  assert.ok(player(await created.json()), JSON.stringify(player.errors));
  const friend = ajv.compile({ $ref: '#/definitions/FriendPayload' });
  const payload = { name: 'Yan Yu', alternateName: 'yan', image: 'https://cdn.example.test/yan.png' };
  assert.ok(friend(payload), JSON.stringify(friend.errors));
  const added = await write('/player/alice/friends', { method: 'POST', headers: auth, body: JSON.stringify(payload) });
  assert.is(added.status, 201);
  assert.ok(player(await added.json()), JSON.stringify(player.errors));
  const problem = new Ajv({ strict: false }).compile(PROBLEM_SCHEMA);
  for (const path of ['/player/nobody', '/player/a%20b', '/player/alice/friends?page=0', '/player/alice/friends/search']) {
    const body = await (await call(path)).json();
    assert.ok(problem(body), `${path}: ${JSON.stringify(problem.errors)}`);
  }
  const invalid = await write('/player/zoe', { method: 'PUT', headers: auth, body: JSON.stringify({ alias: '' }) });
  assert.is(invalid.status, 422);
  const body = await invalid.json();
  assert.ok(body.errors.length > 0 && problem(body), JSON.stringify(problem.errors));
});

document('should refuse a backendUrl that is not an absolute http(s) URL', () => {
  assert.throws(() => buildSwagger({ baseUrl: BASE, backendUrl: 'backend.test' }), TypeError);
  assert.throws(() => buildSwagger({ baseUrl: BASE, gateway: 'bad name!' }), TypeError);
});

document.run();

const gateway = suite('the gateway extension');

gateway('should forward GET /player/{id} to the backend with the id mapped', () => {
  const doc = buildSwagger({ baseUrl: BASE, backendUrl: 'https://backend.test/' });
  const integration = op(doc, '/player/{id}', 'get')!['x-amazon-apigateway-integration'];
  assert.equal(integration, {
    type: 'http',
    httpMethod: 'GET',
    uri: 'https://backend.test/player/{id}',
    responses: { default: { statusCode: '200' } },
    requestParameters: { 'integration.request.path.id': 'method.request.path.id' },
    passthroughBehavior: 'when_no_match',
  });
  assert.ok(op(doc, '/player/{id}', 'get')!.parameters.some((p: { $ref: string }) => p.$ref === '#/parameters/playerId'));
  assert.is((doc.parameters as any).playerId.name, 'id');
  assert.is(op(doc, '/player/{id}', 'head')!['x-amazon-apigateway-integration'], undefined);
});

gateway('should be absent without a backend and named after the configured gateway', () => {
  assert.is(op(buildSwagger({ baseUrl: BASE }), '/player/{id}', 'get')!['x-amazon-apigateway-integration'], undefined);
  const doc = buildSwagger({ baseUrl: BASE, backendUrl: 'https://backend.test', gateway: 'my-gateway' });
  assert.is(op(doc, '/player/{id}', 'get')!['x-my-gateway-integration'].uri, 'https://backend.test/player/{id}');
});

gateway.run();

const served = suite('GET /swagger.json');

served('should serve the description with an ETag, caching headers, 304 and HEAD', async () => {
  const { call } = await demoService({ backendUrl: 'https://backend.test' });
  const res = await call('/swagger.json');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/json');
  assert.is(res.headers.get('cache-control'), 'public, max-age=300');
  assert.is(res.headers.get('api-version'), '1.0');
  const doc = await res.json();
  assert.equal(doc, JSON.parse(JSON.stringify(buildSwagger({ baseUrl: BASE, backendUrl: 'https://backend.test' }))));
  assert.is((await call('/swagger.json', { headers: { 'If-None-Match': res.headers.get('etag')! } })).status, 304);
  const head = await call('/swagger.json', { method: 'HEAD' });
  assert.is(head.headers.get('content-length'), String(new TextEncoder().encode(JSON.stringify(doc)).byteLength));
});

served('should describe the version and prefix it was asked under', async () => {
  const { call } = await demoService({
    backendUrl: 'https://backend.test',
    versions: [{ major: 1, minor: 0, patch: 1 }, { major: 2, minor: 0, patch: 0 }],
  });
  const latest = await (await call('/swagger.json')).json();
  assert.is(latest.info.version, '2.0.0');
  assert.is(latest.basePath, '/');
  const v1 = await (await call('/api/v1/swagger.json')).json();
  assert.is(v1.info.version, '1.0.1');
  assert.is(v1.basePath, '/api/v1');
  assert.is(v1.paths['/player/{id}'].get['x-amazon-apigateway-integration'].uri, 'https://backend.test/api/v1/player/{id}');
  await SwaggerParser.validate(v1);
  const byHeader = await (await call('/swagger.json', { headers: { 'Api-Version': '1.0' } })).json();
  assert.is(byHeader.info.version, '1.0.1');
});

served('should be served over a real node:http server with its host', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', toNodeListener(createPlayerService({ baseUrl: origin })));
  try {
    const doc = await (await fetch(`${origin}/swagger.json`)).json();
    assert.is(doc.host, new URL(origin).host);
    await SwaggerParser.validate(doc);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

served.run();
