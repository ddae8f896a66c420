// The OpenAPI descriptions against the wire: for both declared APIs (the Player API and examples/teams.ts),
// every GET route in every media type it describes, the error answers (404, 406, 412, 415, 422), the 304,
// and the writes (PUT, PATCH by JSON Patch, merge patch and JSON:API, POST to a list in every body format,
// relationship writes, DELETE) are requested from the service over a real node:http server, and each answer
// is validated against the schema its OpenAPI 3.1 description gives for that status and media type (Ajv,
// JSON Schema 2020-12); each request body sent is validated against the described request body first.
// The 3.1 and 3.0 documents pass swagger-parser's validation; swagger2openapi converts the 2.0 one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import SwaggerParser from '@apidevtools/swagger-parser';
import swagger2openapi from 'swagger2openapi';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { bearerTokens, createPlayerService, MemoryPlayerStore, MemoryStore, seedDemoData, type Service } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { createTeamsService, seedTeams } from '../examples/teams.js';
import type { ResourceType } from '../src/core/model/api.js';

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
const TOKEN = 'openapi-test-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
type Json = Record<string, any>;

interface Api {
  label: string;
  make: (baseUrl: string, extra?: { requireIfMatch?: boolean }) => Promise<Service>;
  /** A value for each path parameter: an item with full lists, and a member of them. */
  params: Record<string, string>;
  /** The {id} of the routes under other types' paths, by path prefix. */
  ids?: Record<string, string>;
}

const APIS: Api[] = [
  {
    label: 'the Player API',
    make: async (baseUrl, extra = {}) => {
      const store = new MemoryPlayerStore();
      await seedDemoData(store);
      return createPlayerService({ baseUrl, store, authenticate: bearerTokens([TOKEN]), ...extra });
    },
    params: { id: 'alice', friendId: 'ada-01' },
  },
  {
    label: 'the teams API (examples/teams.ts)',
    make: async (baseUrl, extra = {}) => {
      const store = new MemoryStore();
      await seedTeams(store);
      return createTeamsService({ baseUrl, store, authenticate: bearerTokens([TOKEN]), ...extra });
    },
    params: { id: 'reds', memberId: 'p1' },
    ids: { '/players/': 'p2' },
  },
];

async function listen(make: Api['make']) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const service = await make(origin);
  server.on('request', toNodeListener(service));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin, service, close };
}

/** What the description says of one answer: the response object of the status, its content by media type. */
function described(doc: Json, path: string, method: string, status: number): Json {
  const op = doc.paths[path]?.[method];
  assert.ok(op, `${method.toUpperCase()} ${path} is described`);
  let response = op.responses[String(status)];
  assert.ok(response, `${method.toUpperCase()} ${path} describes a ${status} answer (it describes ${Object.keys(op.responses).join(', ')})`);
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  return response;
}

function bareType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function checker(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  /** Validates `value` against a schema of the description (a $ref into it, or inline). */
  return (schema: Json, value: unknown, what: string) => {
    const ref = typeof schema.$ref === 'string' ? `openapi.json${schema.$ref}` : undefined;
    const key = ref ?? JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(ref ? { $ref: ref } : schema)));
    if (!validate(value)) assert.unreachable(`${what}: ${ajv.errorsText(validate.errors, { separator: '\n  ' })}\n${JSON.stringify(value).slice(0, 600)}`);
  };
}

/** Checks an answer against its description: its status is described, and its body is what the schema of its media type says. */
async function conforms(doc: Json, check: ReturnType<typeof checker>, path: string, method: string, res: Response, what: string): Promise<void> {
  const response = described(doc, path, method, res.status);
  const text = await res.text();
  if (!response.content || method === 'head' || res.status === 304 || res.status === 204) {
    assert.is(text, '', `${what}: no body for a ${res.status}`);
    return;
  }
  const type = bareType(res.headers.get('content-type'));
  const media = response.content[type];
  assert.ok(media, `${what}: ${res.status} in ${type} is described (the description gives ${Object.keys(response.content).join(', ')})`);
  if (type.endsWith('json')) {
    assert.ok(media.schema, `${what}: ${type} has a schema`);
    check(media.schema, JSON.parse(text), `${what} (${res.status} ${type})`);
  } else if (media.schema) check(media.schema, text, `${what} (${res.status} ${type})`);
}

/** The search query of a page in a format: JSON:API reads the text as filter[search]. */
function searchQuery(mediaType: string): string {
  return mediaType === 'application/vnd.api+json' ? '?filter%5Bsearch%5D=a' : '?search=a';
}

function fill(path: string, params: Record<string, string>, ids: Record<string, string> = {}): string {
  const prefix = Object.keys(ids).find((p) => path.startsWith(p));
  if (prefix !== undefined && params.id !== 'no-such-item') params = { ...params, id: ids[prefix]! };
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    assert.ok(params[name] !== undefined, `a value for {${name}}`);
    return encodeURIComponent(params[name]!);
  });
}

/** A body of `mediaType` giving the fields of `values` (plain names) of `type`, as each format reads them. */
function bodyOf(mediaType: string, type: ResourceType, values: Record<string, unknown>, id?: string): { body: string; json: unknown } {
  const byTerm: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) byTerm[type.field(name)!.term] = value;
  const idTerm = type.field(type.idField)!.term;
  switch (mediaType) {
    case 'application/x-www-form-urlencoded': {
      // The schema describes the values; the form encoding writes them as text (OpenAPI 3.1 section 4.8.14).
      const form = new URLSearchParams(Object.entries(byTerm).map(([k, v]): [string, string] => [k, String(v)]));
      return { body: form.toString(), json: byTerm };
    }
    case 'application/vnd.collection+json': {
      const json = { template: { data: Object.entries(byTerm).map(([name, value]) => ({ name, value })) } };
      return { body: JSON.stringify(json), json };
    }
    case 'application/vnd.api+json': {
      const attributes = { ...byTerm };
      delete attributes[idTerm];
      for (const r of type.relations) if (r.field) delete attributes[type.field(r.field)!.term];
      const json = { data: { type: type.plural, ...(id === undefined ? {} : { id }), attributes } };
      return { body: JSON.stringify(json), json };
    }
    case 'application/json':
      return { body: JSON.stringify(values), json: values };
    default:
      return { body: JSON.stringify(byTerm), json: byTerm };
  }
}

const gateway = suite('the gateway extension in every description of the Player API');

gateway('GET /player/{id} carries the integration in Swagger 2.0, OpenAPI 3.0 and 3.1 alike', async () => {
  const service = createPlayerService({ baseUrl: 'https://api.example.com', backendUrl: 'https://backend.internal' });
  for (const path of ['/swagger.json', '/openapi.json', '/openapi-3.0.json']) {
    const doc = await (await service.fetch(new Request(`https://api.example.com${path}`))).json();
    const integration = doc.paths['/player/{id}'].get['x-amazon-apigateway-integration'];
    assert.is(integration.type, 'http', path);
    assert.is(integration.httpMethod, 'GET', path);
    assert.is(integration.uri, 'https://backend.internal/player/{id}', path);
    assert.equal(integration.responses, { default: { statusCode: '200' } }, path);
    assert.equal(doc.info.license.name, 'Apache 2.0', path);
    assert.is(doc.info.title, 'Player API', path);
    assert.is(doc.info.version, '1.0.1', path);
  }
});

gateway.run();

for (const api of APIS) {
  const it = suite(`OpenAPI descriptions of ${api.label} against the wire`);
  let origin = '';
  let service: Service;
  let close = async () => undefined as void;
  let doc: Json;
  let check: ReturnType<typeof checker>;
  const call = (path: string, init: RequestInit = {}) => fetch(origin + path, init);

  it.before(async () => {
    ({ origin, service, close } = await listen(api.make));
    doc = await (await call('/openapi.json')).json();
    check = checker(doc);
  });
  it.after(() => close());

  it('the 3.1 and 3.0 documents pass swagger-parser; swagger2openapi converts the 2.0 one without error', async () => {
    assert.is(doc.openapi, '3.1.1');
    await SwaggerParser.validate(structuredClone(doc) as never);
    const doc30 = await (await call('/openapi-3.0.json')).json();
    assert.is(doc30.openapi, '3.0.4');
    await SwaggerParser.validate(structuredClone(doc30) as never);
    assert.equal(Object.keys(doc30.paths), Object.keys(doc.paths), 'the same paths in both');
    assert.not.ok(JSON.stringify(doc30).includes('"const"'), '3.0 has no const');
    const swagger = await (await call('/swagger.json')).json();
    const converted = await swagger2openapi.convertObj(swagger, { patch: false, warnOnly: false });
    assert.ok(converted.openapi.paths);
  });

  it("the 3.1 and 3.0 documents have no error under Redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    for (const path of ['/openapi.json', '/openapi-3.0.json']) {
      const problems = await lintFromString({ source: await (await call(path)).text(), absoluteRef: `${origin}${path}`, config });
      const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
      assert.equal(errors, [], path);
    }
  });

  it('describes the versioned URLs and the Api-Version header', async () => {
    const urls = doc.servers.map((s: Json) => s.url);
    assert.ok(urls.includes(origin) && urls.includes(`${origin}/api/v1`), urls.join(' '));
    assert.ok(doc.components.parameters.apiVersion.in === 'header' && doc.components.parameters.apiVersion.name === 'Api-Version');
    const prefixed = await (await call('/api/v1/openapi.json')).json();
    assert.is(prefixed.servers[0].url, `${origin}/api/v1`);
    // An operation tried at the versioned server answers as described.
    const itemPath = Object.keys(doc.paths).find((p) => /^\/[^/]+\/\{id\}$/.test(p))!;
    const res = await call(`/api/v1${fill(itemPath, api.params)}`, { headers: { accept: 'application/hal+json' } });
    assert.is(res.headers.get('api-version'), '1.0');
    await conforms(doc, check, itemPath, 'get', res, `GET /api/v1${itemPath}`);
  });

  it('the Hydra ApiDocumentation and the OpenAPI description name the same resources, operations and properties', async () => {
    const hydra = await (await call('/docs.jsonld')).json();
    const classes = new Map<string, Json>(hydra['hydra:supportedClass'].map((c: Json) => [c['@id'], c]));
    const methodsOf = (c: Json) => (c['hydra:supportedOperation'] ?? []).map((o: Json) => o['hydra:method']).sort();
    const described = (path: string) => Object.keys(doc.paths[path] ?? {}).filter((m) => m !== 'head' && m !== 'options').map((m) => m.toUpperCase()).sort();
    const api = service.config.api;
    const compact = (name: string) => (name.includes(':') ? name : `${api.vocabulary.prefix}:${name}`);
    for (const type of api.types) {
      const hydraClass = classes.get(type.linkedData.class);
      assert.ok(hydraClass, `Hydra has the class of ${type.name}`);
      assert.equal(methodsOf(hydraClass!), described(type.path), `${type.name}: the same operations`);
      const properties = (hydraClass!['hydra:supportedProperty'] ?? []).map((p: Json) => p['hydra:property']['@id']);
      const jsonLd = doc.components.schemas[`${type.name.replace(/(^|-)([a-z])/g, (_: string, __: string, c: string) => c.toUpperCase())}.jsonld`];
      for (const field of type.readable) {
        assert.ok(properties.includes(field.iri), `Hydra names ${type.name}.${field.name} (${field.iri})`);
        assert.ok(jsonLd.properties[field.term], `OpenAPI's JSON-LD schema names ${type.name}.${field.name} as ${field.term}`);
      }
      for (const relation of type.relations) {
        if (relation.kind !== 'to-many' || relation.listClass === undefined) continue;
        const listClass = classes.get(compact(relation.listClass));
        assert.ok(listClass, `Hydra has the list class of ${type.name}.${relation.name}`);
        assert.equal(methodsOf(listClass!), described(`${type.path}/${relation.path}`), `${relation.name}: the same operations`);
      }
    }
  });

  it('OPTIONS and HEAD of every route, and 428 when If-Match is required, are as described', async () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      const url = fill(path, api.params, api.ids);
      assert.ok(item.options, `OPTIONS ${path} is described`);
      const options = await call(url, { method: 'OPTIONS' });
      await conforms(doc, check, path, 'options', options, `OPTIONS ${url}`);
      const allowed = options.headers.get('allow')!.split(/,\s*/).map((m) => m.toLowerCase()).sort();
      assert.equal(allowed, Object.keys(item).sort(), `${path}: Allow lists what is described`);
      if (item.head && !path.endsWith('/search') && !path.includes('{file}')) await conforms(doc, check, path, 'head', await call(url, { method: 'HEAD' }), `HEAD ${url}`);
    }
    // A service that requires If-Match: a write without it is 428, as described.
    const strict = await listen((baseUrl) => api.make(baseUrl, { requireIfMatch: true }));
    try {
      const type = strict.service.config.api.types[0]!;
      const url = `${strict.origin}${fill(type.path, api.params)}`;
      const res = await fetch(url, { method: 'PATCH', headers: { ...AUTH, 'content-type': 'application/merge-patch+json' }, body: '{}' });
      assert.is(res.status, 428);
      await conforms(doc, check, type.path, 'patch', res, 'PATCH without If-Match');
    } finally {
      await strict.close();
    }
  });

  it('every GET route answers in every media type it describes, as described', async () => {
    let answers = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      if (!item.get || path.includes('{') === false) continue;
      for (const mediaType of Object.keys(item.get.responses['200'].content ?? {})) {
        const url = fill(path, api.params, api.ids) + (path.endsWith('/search') ? searchQuery(mediaType) : '');
        const res = await call(url, { headers: { accept: mediaType } });
        assert.is(res.status, 200, `GET ${url} as ${mediaType}`);
        assert.is(bareType(res.headers.get('content-type')), mediaType);
        if (mediaType.startsWith('image/')) {
          await res.arrayBuffer();
          continue;
        }
        await conforms(doc, check, path, 'get', res, `GET ${url} as ${mediaType}`);
        answers++;
      }
    }
    assert.ok(answers >= 20, `${answers} answers checked`);
    // The description routes too.
    for (const path of ['/', '/docs.jsonld', '/swagger.json', '/openapi.json', '/openapi-3.0.json']) await conforms(doc, check, path, 'get', await call(path), `GET ${path}`);
  });

  it('error answers (404 in every error format, 406, 412, 304, 400) are as described', async () => {
    const paths = Object.entries(doc.paths as Record<string, Json>).filter(([p, item]) => item.get && p.includes('{id}'));
    assert.ok(paths.length >= 3);
    for (const [path] of paths) {
      const accepts = Object.keys(doc.paths[path].get.responses['200'].content ?? {}).filter((t) => !t.startsWith('image/'));
      for (const accept of accepts) {
        const missing = fill(path, { ...api.params, id: 'no-such-item' }, api.ids) + (path.endsWith('/search') ? searchQuery(accept) : '');
        await conforms(doc, check, path, 'get', await call(missing, { headers: { accept } }), `GET ${missing} as ${accept}`);
      }
      const url = fill(path, api.params, api.ids) + (path.endsWith('/search') ? '?search=a' : '');
      await conforms(doc, check, path, 'get', await call(url, { headers: { accept: 'image/gif' } }), `GET ${url} as image/gif`);
      const first = await call(url, { headers: { accept: accepts[0]! } });
      await first.arrayBuffer();
      const etag = first.headers.get('etag')!;
      await conforms(doc, check, path, 'get', await call(url, { headers: { accept: accepts[0]!, 'if-none-match': etag } }), `GET ${url} revalidated`);
      await conforms(doc, check, path, 'get', await call(url, { headers: { accept: accepts[0]!, 'if-match': '"stale"' } }), `GET ${url} If-Match stale`);
    }
    const list = paths.find(([p]) => /\{id\}\/[^/{]+$/.test(p) && !p.includes('relationships'))![0];
    await conforms(doc, check, list, 'get', await call(`${fill(list, api.params)}?page=0`, { headers: { accept: 'application/vnd.api+json' } }), 'page=0 as JSON:API');
    await conforms(doc, check, list, 'get', await call(`${fill(list, api.params)}?page=0`), 'page=0');
  });

  it('writes: the bodies sent are those described, and every answer is as described', async () => {
    const type = service.config.api.types.find((t) => t.relations.some((r) => r.kind === 'to-many' && r.add))!;
    const relation = type.relations.find((r) => r.kind === 'to-many' && r.add)!;
    const itemPath = type.path;
    const id = api.params.id!;
    const url = fill(itemPath, api.params);
    const current = async () => {
      const res = await call(url, { headers: { accept: 'application/json' } });
      return { etag: res.headers.get('etag')!, fields: (await res.json()) as Record<string, unknown> };
    };
    const writable = (fields: Record<string, unknown>) => Object.fromEntries(type.writable.filter((f) => fields[f.name] !== undefined).map((f) => [f.name, fields[f.name]]));
    const titleField = type.writable.find((f) => f.name !== type.idField && (f.schema as Json).type === 'string' && !(f.schema as Json).format && !(f.schema as Json).pattern)!;
    const put = doc.paths[itemPath].put;
    let n = 0;
    for (const mediaType of Object.keys(put.requestBody.content)) {
      const { etag, fields } = await current();
      const values = { ...writable(fields), [titleField.name]: `Renamed ${n++}` };
      const { body, json } = bodyOf(mediaType, type, values, id);
      check(put.requestBody.content[mediaType].schema, json, `PUT body in ${mediaType}`);
      const res = await call(url, { method: 'PUT', headers: { ...AUTH, 'content-type': mediaType, 'if-match': etag, accept: 'application/json' }, body });
      assert.is(res.status, 200, `PUT in ${mediaType}: ${res.status}`);
      await conforms(doc, check, itemPath, 'put', res, `PUT ${url} in ${mediaType}`);
    }
    // A stale If-Match, a body the type refuses, a Content-Type nobody reads.
    const { fields } = await current();
    const stale = await call(url, { method: 'PUT', headers: { ...AUTH, 'content-type': 'application/json', 'if-match': '"stale"' }, body: JSON.stringify(writable(fields)) });
    assert.is(stale.status, 412);
    await conforms(doc, check, itemPath, 'put', stale, 'PUT stale');
    const invalid = await call(url, { method: 'PUT', headers: { ...AUTH, 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' }, body: JSON.stringify({ data: { type: type.plural, id, attributes: { [titleField.term]: 'x'.repeat(5000) } } }) });
    assert.is(invalid.status, 422);
    await conforms(doc, check, itemPath, 'put', invalid, 'PUT invalid as JSON:API');
    const unread = await call(url, { method: 'PUT', headers: { ...AUTH, 'content-type': 'text/csv' }, body: 'a,b' });
    assert.is(unread.status, 415);
    await conforms(doc, check, itemPath, 'put', unread, 'PUT text/csv');

    // PATCH: JSON Patch, merge patch, a JSON:API partial update.
    const patch = doc.paths[itemPath].patch;
    const patches: [string, unknown][] = [
      ['application/json-patch+json', [{ op: 'replace', path: `/${titleField.name}`, value: 'Patched' }]],
      ['application/merge-patch+json', { [titleField.name]: 'Merged' }],
      ['application/vnd.api+json', { data: { type: type.plural, id, attributes: { [titleField.term]: 'Partly' } } }],
    ];
    for (const [mediaType, body] of patches) {
      assert.ok(patch.requestBody.content[mediaType], `PATCH reads ${mediaType}`);
      check(patch.requestBody.content[mediaType].schema, body, `PATCH body in ${mediaType}`);
      const res = await call(url, { method: 'PATCH', headers: { ...AUTH, 'content-type': mediaType, accept: mediaType === 'application/vnd.api+json' ? mediaType : 'application/hal+json' }, body: JSON.stringify(body) });
      assert.is(res.status, 200, `PATCH in ${mediaType}`);
      await conforms(doc, check, itemPath, 'patch', res, `PATCH in ${mediaType}`);
    }
    const conflict = await call(url, { method: 'PATCH', headers: { ...AUTH, 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'replace', path: '/nothing/here', value: 1 }]) });
    assert.ok([409, 422].includes(conflict.status));
    await conforms(doc, check, itemPath, 'patch', conflict, 'PATCH of a missing path');

    // POST to the list: a new member in every body format, answered in the format of the body.
    const listPath = `${itemPath}/${relation.path}`;
    const post = doc.paths[listPath].post;
    const target = relation.target;
    const newFields = (i: number) => {
      const values: Record<string, unknown> = {};
      for (const name of relation.add!.fields) {
        const f = target.field(name)!;
        const schema = f.schema as Json;
        if (schema.type === 'string' && schema.format === 'uri') values[name] = `https://img.example/${i}.png`;
        else if (schema.type === 'string') values[name] = `new${i}`;
        else if (schema.type === 'integer') values[name] = 1900 + i;
      }
      return values;
    };
    let i = 0;
    for (const mediaType of Object.keys(post.requestBody.content)) {
      const { body, json } = bodyOf(mediaType, target, newFields(++i));
      check(post.requestBody.content[mediaType].schema, json, `POST body in ${mediaType}`);
      const accept = mediaType === 'application/x-www-form-urlencoded' ? 'application/vnd.siren+json' : mediaType;
      const res = await call(fill(listPath, api.params), { method: 'POST', headers: { ...AUTH, 'content-type': mediaType, accept }, body });
      assert.is(res.status, 201, `POST in ${mediaType}: ${res.status}`);
      await conforms(doc, check, listPath, 'post', res, `POST in ${mediaType}`);
    }
    // An existing member by reference: 409 (already listed), as described.
    const memberId = Object.values(api.params)[1]!;
    const again = await call(fill(listPath, api.params), { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ [target.idField]: memberId }) });
    await conforms(doc, check, listPath, 'post', again, 'POST an existing member again');

    // JSON:API relationship writes, and DELETE of a member.
    const linkagePath = `${itemPath}/relationships/${relation.name}`;
    const linkage = { data: [{ type: target.plural, id: memberId }] };
    check(doc.paths[linkagePath].delete.requestBody.content['application/vnd.api+json'].schema, linkage, 'linkage body');
    const removed = await call(fill(linkagePath, api.params), { method: 'DELETE', headers: { ...AUTH, 'content-type': 'application/vnd.api+json' }, body: JSON.stringify(linkage) });
    await conforms(doc, check, linkagePath, 'delete', removed, 'DELETE linkage');
    const added = await call(fill(linkagePath, api.params), { method: 'POST', headers: { ...AUTH, 'content-type': 'application/vnd.api+json' }, body: JSON.stringify(linkage) });
    await conforms(doc, check, linkagePath, 'post', added, 'POST linkage');
    const memberPath = Object.keys(doc.paths).find((p) => p.startsWith(`${listPath}/{`))!;
    const gone = await call(fill(memberPath, api.params), { method: 'DELETE', headers: AUTH });
    assert.is(gone.status, 204);
    await conforms(doc, check, memberPath, 'delete', gone, 'DELETE member');
    const unauthorized = await call(url, { method: 'DELETE' });
    assert.is(unauthorized.status, 401);
    await conforms(doc, check, itemPath, 'delete', unauthorized, 'DELETE without credentials');
  });

  it.run();
}
