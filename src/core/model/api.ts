// defineApi: a declaration checked once (a TypeError names what is wrong) and compiled into the model the
// service, the formats and the descriptions read (its shape: compiled.ts).
import type { ApiDeclaration, FieldDeclaration, JsonSchema, TypeDeclaration } from './declaration.js';
import type { Api, Field, Relation, ResourceType } from './compiled.js';
import { checkSchemaKeywords, validateItem } from './validate.js';
import { pathSegment } from './urls.js';

export type { Api, Field, Relation, ResourceType } from './compiled.js';

const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const TERM = /^[A-Za-z][A-Za-z0-9_]*$/;

function fail(message: string): never {
  throw new TypeError(`defineApi: ${message}`);
}

function nonEmpty(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') fail(`${what} must be a non-empty string`);
  return value;
}

function compileField(declared: FieldDeclaration, type: string, vocabulary: string): Field {
  const where = `type "${type}", field ${JSON.stringify(declared?.name)}`;
  if (!declared || typeof declared !== 'object') fail(`type "${type}": every field is an object`);
  const name = nonEmpty(declared.name, `${where}: name`);
  if (!TERM.test(name)) fail(`${where}: a name is letters, digits and _ (it is a JSON member and a JSON Pointer token)`);
  if (!declared.schema || typeof declared.schema !== 'object') fail(`${where}: schema must be a JSON Schema object`);
  checkSchemaKeywords(declared.schema, where);
  const access = declared.access ?? (declared.derived ? 'read-only' : 'read-write');
  if (!['read-write', 'write-only', 'read-only'].includes(access)) fail(`${where}: access must be read-write, write-only or read-only`);
  if (declared.derived && access !== 'read-only') fail(`${where}: a derived field is read-only`);
  const term = declared.term ?? name;
  if (!TERM.test(term)) fail(`${where}: term is letters, digits and _`);
  const format = (declared.schema as { format?: unknown }).format;
  const schemaType = (declared.schema as { type?: unknown }).type;
  return {
    name,
    title: nonEmpty(declared.title, `${where}: title`),
    schema: declared.schema,
    required: declared.required === true,
    access,
    derived: declared.derived,
    term,
    iri: declared.iri ?? `${vocabulary}:${term}`,
    iriValue: declared.iriValue === true,
    input: declared.input ?? (format === 'uri' ? 'url' : schemaType === 'integer' || schemaType === 'number' ? 'number' : 'text'),
    invalid: declared.invalid,
  };
}

/** The JSON Schema of an item's plain form: its fields, the required ones, nothing else. */
function itemSchema(title: string, fields: readonly Field[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of fields) properties[f.name] = f.access === 'read-only' && !('readOnly' in f.schema) ? { ...f.schema, readOnly: true } : f.schema;
  return { title, type: 'object', required: fields.filter((f) => f.required).map((f) => f.name), properties, additionalProperties: false };
}

/**
 * Checks and compiles an API declaration (see `ApiDeclaration`): every type, field, link and relation
 * is checked at once, and a TypeError names the first thing wrong (a relation to an unknown type, a
 * field named twice, a schema keyword the validator does not know...). The result is what
 * `createService` serves.
 *
 * @example
 * import { defineApi } from 'player-hypermedia';
 * const api = defineApi({ title: 'Teams', version: '1.0.0', vocabulary: { prefix: 'tm', iri: 'https://example.com/teams#' }, types: [team, player] });
 */
export function defineApi(declaration: ApiDeclaration): Api {
  if (!declaration || typeof declaration !== 'object') fail('the declaration must be an object');
  const vocabulary = declaration.vocabulary;
  if (!vocabulary || !TERM.test(vocabulary.prefix ?? '') || !/^https?:\/\/\S+[#/]$/.test(vocabulary.iri ?? '')) {
    fail('vocabulary must be { prefix: a term, iri: an http(s) IRI ending in # or / }');
  }
  if (!Array.isArray(declaration.types) || declaration.types.length === 0) fail('types must list at least one resource type');
  const types: ResourceType[] = [];
  const byName = new Map<string, ResourceType>();
  const pending: { type: ResourceType; relations: NonNullable<TypeDeclaration['relations']> }[] = [];
  const api: Api = {
    title: nonEmpty(declaration.title, 'title'),
    version: nonEmpty(declaration.version, 'version'),
    description: declaration.description,
    license: declaration.license,
    vocabulary,
    prefixes: { ...(declaration.prefixes ?? {}) },
    contextUrl: declaration.contextUrl ?? new URL('context.jsonld', vocabulary.iri).href,
    types,
    type(name: string): ResourceType {
      const found = byName.get(name);
      if (!found) throw new TypeError(`no resource type "${name}"; the types are ${[...byName.keys()].join(', ')}`);
      return found;
    },
    typeByPlural(plural: string) {
      return types.find((t) => t.plural === plural);
    },
  };
  for (const declared of declaration.types) {
    const type = compileType(api, declared, vocabulary.prefix);
    if (byName.has(type.name)) fail(`two types are named "${type.name}"`);
    if (types.some((t) => t.prefix === type.prefix)) fail(`two types are served at ${type.prefix}/{id}`);
    byName.set(type.name, type);
    types.push(type);
    pending.push({ type, relations: declared.relations ?? [] });
  }
  for (const { type, relations } of pending) {
    const compiled: Relation[] = [];
    for (const r of relations) compiled.push(compileRelation(r, type, byName, vocabulary.prefix));
    (type as unknown as { relations: Relation[] }).relations = compiled;
  }
  return api;
}

function compileType(api: Api, declared: TypeDeclaration, vocabulary: string): ResourceType {
  const name = nonEmpty(declared?.name, 'a type name');
  if (!NAME.test(name)) fail(`type "${name}": a name is lower-case letters, digits and dashes`);
  const where = `type "${name}"`;
  const plural = nonEmpty(declared.plural, `${where}: plural`);
  const path = nonEmpty(declared.path, `${where}: path`);
  const m = /^((?:\/[A-Za-z0-9._~-]+)+)\/\{id\}$/.exec(path);
  if (!m) fail(`${where}: path must be literal segments then {id}, like /player/{id}`);
  const fields = (declared.fields ?? []).map((f) => compileField(f, name, vocabulary));
  const names = new Set<string>();
  for (const f of fields) {
    if (names.has(f.name)) fail(`${where}: two fields are named "${f.name}"`);
    names.add(f.name);
  }
  const idField = fields.find((f) => f.name === declared.id);
  if (!idField) fail(`${where}: id "${String(declared.id)}" names no field`);
  const links = declared.links ?? [];
  for (const l of links) {
    if (!l || !/^[a-z][a-z0-9.-]*$/.test(l.rel ?? '') || !/^[A-Za-z0-9._~-]+$/.test(l.path ?? '')) fail(`${where}: a link needs a rel (lower case) and a path segment`);
  }
  for (const f of fields) if (f.derived && !links.some((l) => l.rel === f.derived!.link)) fail(`${where}, field "${f.name}": derived from an undeclared link "${f.derived.link}"`);
  const readable = fields.filter((f) => f.access !== 'write-only');
  const order = declared.termOrder;
  let termOrder = readable;
  if (order) {
    // The fields named first, in that order; a readable field not named (one added later, a player's
    // `level`) follows in declaration order.
    const named = order.map((n) => readable.find((f) => f.name === n) ?? fail(`${where}: termOrder names "${n}", no readable field`));
    if (new Set(named).size !== named.length) fail(`${where}: termOrder names a field twice`);
    termOrder = [...named, ...readable.filter((f) => !named.includes(f))];
  }
  const byName = new Map(fields.map((f) => [f.name, f]));
  const alternates = new Map<string, Field>();
  for (const f of fields) {
    if (f.access === 'read-only') continue;
    if (alternates.has(f.term)) fail(`${where}: two writable fields are called "${f.term}"`);
    alternates.set(f.term, f);
  }
  if (!declared.linkedData || !TERM.test(declared.linkedData.term ?? '') || typeof declared.linkedData.class !== 'string') {
    fail(`${where}: linkedData must be { class: a compact IRI, term: a term }`);
  }
  const display = declared.display;
  if (!display || !Array.isArray(display.title) || display.title.some((t) => !names.has(t))) fail(`${where}: display.title must name fields`);
  const title = nonEmpty(declared.title, `${where}: title`);
  const type: ResourceType = {
    api,
    name,
    plural,
    title,
    description: declared.description,
    path,
    prefix: m[1]!,
    idField: idField.name,
    fields,
    readable,
    termOrder,
    writable: fields.filter((f) => f.access !== 'read-only'),
    linkedData: declared.linkedData,
    links,
    relations: [],
    display,
    replaceTitle: declared.replaceTitle ?? `Update the ${title.toLowerCase()}`,
    descriptions: { item: declared.descriptions?.item, list: declared.descriptions?.list },
    schema: itemSchema(title, fields),
    field: (n) => byName.get(n),
    relation: (n) => type.relations.find((r) => r.name === n),
    fieldByTerm: (alternate) => alternates.get(alternate),
    itemUrl: (baseUrl, id) => `${baseUrl}${m[1]}/${pathSegment(id)}`,
  };
  return type;
}

function relationPath(path: unknown, where: string, owner: ResourceType): string {
  if (typeof path !== 'string' || !/^[A-Za-z0-9._~-]+$/.test(path) || path === 'relationships' || path === '.' || path === '..') fail(`${where}: path is one URL path segment, not "relationships"`);
  if (owner.links.some((l) => l.path === path)) fail(`${where}: path "${path}" is a link's path too`);
  return path;
}

function memberNoun(member: unknown, where: string): string {
  if (typeof member !== 'string' || !/^[a-z][a-z0-9]*(?: [a-z0-9]+)*$/.test(member)) fail(`${where}: member is a lower-case noun (letters, digits, single spaces)`);
  return member;
}

function compileRelation(r: NonNullable<TypeDeclaration['relations']>[number], owner: ResourceType, types: Map<string, ResourceType>, vocabulary: string): Relation {
  const where = `type "${owner.name}", relation ${JSON.stringify(r?.name)}`;
  const name = nonEmpty(r?.name, `${where}: name`);
  if (!NAME.test(name)) fail(`${where}: a name is lower-case letters, digits and dashes`);
  if (r.kind !== 'to-many' && r.kind !== 'to-one') fail(`${where}: kind must be to-many or to-one`);
  const target = types.get(r.target) ?? fail(`${where}: target "${r.target}" is no declared type`);
  if (owner.fields.some((f) => f.name === name && r.kind === 'to-many')) fail(`${where}: a field has the same name`);
  if (r.kind === 'to-one') {
    const field = owner.fields.find((f) => f.name === r.field) ?? fail(`${where}: field "${String(r.field)}" (the target's id) is no field`);
    if (r.add || r.search) fail(`${where}: a to-one relation has no add or search`);
    void field;
  } else if (r.field !== undefined) fail(`${where}: a to-many relation has no field`);
  if (r.add) {
    nonEmpty(r.add.name, `${where}: add.name`);
    // A new member gets a random UUID as its id (or the client's, JSON:API): the target's ids must take one.
    const id = target.field(target.idField)!;
    if (r.add.create !== false && validateItem({ type: 'object', properties: { [id.name]: id.schema } }, { [id.name]: '3b241101-e2bb-4255-8caf-4136c566a962' }).length > 0) {
      fail(`${where}: add.create makes members with a random UUID as ${target.name}.${id.name}, which its schema refuses; set create: false or let the schema take one`);
    }
    for (const f of r.add.fields ?? []) if (!target.writable.some((w) => w.name === f)) fail(`${where}: add.fields names "${f}", not a writable field of ${target.name}`);
  }
  if (r.search) for (const f of r.search.fields ?? []) if (!target.field(f)) fail(`${where}: search.fields names "${f}", no field of ${target.name}`);
  return {
    name,
    kind: r.kind,
    target,
    title: nonEmpty(r.title, `${where}: title`),
    member: r.member === undefined ? target.title.toLowerCase() : memberNoun(r.member, where),
    path: relationPath(r.path ?? name, where, owner),
    field: r.field,
    add: r.add,
    search: r.search && { ...r.search, className: r.search.className ?? 'search-results' },
    labels: { owner: r.labels?.owner ?? `The ${owner.title.toLowerCase()}`, all: r.labels?.all ?? `All ${name}` },
    iri: r.linkedData?.iri ?? `${vocabulary}:${name}`,
    reverse: r.linkedData?.reverse,
    listClass: r.linkedData?.listClass,
    description: r.description,
    owner,
  };
}
