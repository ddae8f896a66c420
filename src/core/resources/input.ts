// From a client's description of an item (PUT, POST, PATCH result) to validated data to store, and the
// references to existing items a body may give.
import type { ResourceType } from '../model/api.js';
import { storedValue, type StoredItem } from '../model/documents.js';
import type { ItemInput } from '../model/representation.js';
import { HttpError } from '../http/problem.js';
import { isValidId, requireValidItem } from './validation.js';

/** What a client's item document is checked against. */
export interface ItemTarget {
  /** The id the item has (from the URL, or chosen by the server or the client). */
  id: string;
  /** The base URL of this response, for the server-owned (derived) fields. */
  baseUrl: string;
  /** The item as stored now, if it exists: its write-only fields are kept when the document has none. */
  current?: StoredItem | undefined;
  /** Status for members of the wrong JSON type: 400 for request bodies, 422 for a patched result. */
  wrongTypeStatus?: 400 | 422;
  /** Where each plain field came from in the request body (see ItemInput.pointers). */
  pointers?: Readonly<Record<string, string>> | undefined;
}

function unprocessable(detail: string, pointer: string, fieldDetail: string): HttpError {
  return new HttpError(422, detail, { errors: [{ pointer, detail: fieldDetail }] });
}

/** The value of each derived field of the item at `url`: the href of its link. */
function derivedValues(type: ResourceType, url: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const f of type.fields) {
    const link = f.derived && type.links.find((l) => l.rel === f.derived!.link);
    if (link) values.set(f.name, `${url}/${link.path}`);
  }
  return values;
}

/**
 * Validates a client's plain JSON item (a PUT body, a patched document) and turns it into the data to
 * store. Rules (docs/decisions.md): the document must satisfy the type's schema (unknown members
 * rejected); its id field must equal the target's; a derived field is server-owned and accepted only
 * when equal to the server's value; a writable field equal to a derived one it shares a term with (a
 * player's `image` sent back as the avatar URL the formats show) means "unchanged"; an optional field
 * sent empty is a field left out (a form's untouched property); a missing write-only field keeps the
 * stored value.
 *
 * @example
 * itemDataFromDocument(type, { alias: 'bobby' }, { id: 'bob', baseUrl: 'https://x.test' });
 * // { playerId: 'bob', alias: 'bobby' }
 */
export function itemDataFromDocument(type: ResourceType, document: unknown, target: ItemTarget): Record<string, unknown> {
  const t = type.title.toLowerCase();
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new HttpError(target.wrongTypeStatus ?? 400, `A ${t} is a JSON object.`, { errors: [{ pointer: '', detail: 'must be object' }] });
  }
  const doc = document as Record<string, unknown>;
  const idField = type.idField;
  const candidate: Record<string, unknown> = { ...doc, [idField]: Object.hasOwn(doc, idField) ? doc[idField] : target.id };
  const derived = derivedValues(type, type.itemUrl(target.baseUrl, target.id));
  for (const f of type.writable) {
    // The server's own value of a field shown under the same term is not a value to store.
    const shown = type.fields.find((d) => d.derived && d.term === f.term);
    if (shown !== undefined && candidate[f.name] === derived.get(shown.name)) delete candidate[f.name];
    // An optional field sent empty is a field left out: a form client (HAL-FORMS, Siren, an HTML form)
    // submits every property of a template, an optional one it was given nothing for as "" (the
    // HAL-FORMS property `value` defaults to ""). docs/decisions.md, "The resource model" (values from forms).
    if (!f.required && candidate[f.name] === '') delete candidate[f.name];
    // A number or boolean field given as its JSON text is that value: form clients (HTML forms,
    // HAL-FORMS, whose property values are strings) send every value as text. docs/decisions.md, "The
    // resource model" (values from forms).
    const text = candidate[f.name];
    if (typeof text === 'string') {
      const parsed = formValue(f.schema, text);
      if (parsed !== undefined) candidate[f.name] = parsed;
    }
  }
  const rename = target.pointers ?? {};
  const pointerOf = (name: string) => (Object.hasOwn(rename, name) ? rename[name]! : `/${name}`);
  requireValidItem(type, candidate, { wrongTypeStatus: target.wrongTypeStatus ?? 400, rename });
  if (candidate[idField] !== target.id) {
    throw unprocessable(`The ${idField} of the body differs from the ${t} addressed.`, pointerOf(idField), `must be "${target.id}"`);
  }
  for (const f of type.fields) {
    if (f.access !== 'read-only' || candidate[f.name] === undefined) continue;
    const server = derived.get(f.name);
    if (candidate[f.name] !== server) {
      throw unprocessable(`${f.name} is set by the server.`, pointerOf(f.name), server === undefined ? 'must be absent' : `must be absent or "${server}"`);
    }
  }
  const data: Record<string, unknown> = {};
  for (const f of type.fields) {
    if (f.access === 'read-only') continue;
    const value = candidate[f.name] ?? (f.access === 'write-only' && target.current ? storedValue(target.current, f.name) : undefined);
    if (value !== undefined) data[f.name] = value;
  }
  return data;
}

/** The number or boolean a form's text stands for, when the field's schema takes one and not a string. */
function formValue(schema: Readonly<Record<string, unknown>>, text: string): number | boolean | undefined {
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  if (types.includes('string')) return undefined;
  if ((types.includes('integer') || types.includes('number')) && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return undefined;
}

/**
 * The item of `type` a reference names: a bare id, or the URL of an item of this service (absolute, or
 * relative to one of the base URLs); 422 for anything else.
 *
 * @example
 * idOfReference(type, 'https://x.test/player/bob', ['https://x.test']); // 'bob'
 * idOfReference(type, 'bob', ['https://x.test']);                        // 'bob'
 */
export function idOfReference(type: ResourceType, ref: string, baseUrls: readonly string[], pointer = '/@id'): string {
  if (isValidId(type, ref)) return ref;
  const path = type.prefix.slice(1);
  for (const base of baseUrls) {
    let url: URL;
    try {
      url = new URL(ref, `${base}/`);
    } catch {
      break;
    }
    const prefix = new URL(`${base}/`);
    if (url.origin !== prefix.origin || !url.pathname.startsWith(prefix.pathname) || url.search || url.hash) continue;
    const rest = url.pathname.slice(prefix.pathname.length);
    if (!rest.startsWith(`${path}/`) || rest.indexOf('/', path.length + 1) !== -1) continue;
    let id: string;
    try {
      id = decodeURIComponent(rest.slice(path.length + 1));
    } catch {
      continue;
    }
    if (isValidId(type, id)) return id;
  }
  const t = type.title.toLowerCase();
  throw unprocessable(`The reference does not name a ${t} of this service.`, pointer, `must be a ${t} id or a ${t} URL of this service`);
}

/** Where a field came from in the request body: its own entry in `pointers`, else `/name`. */
function pointerOf(input: ItemInput, field: string, otherwise = `/${field}`): string {
  const pointers = input.pointers;
  return pointers && Object.hasOwn(pointers, field) ? pointers[field]! : otherwise;
}

/**
 * The id of the existing item a POST body refers to (`ref`, or its id field), or undefined when the
 * body describes a new item. A reference carries nothing else (422).
 *
 * @example
 * referencedId(type, { fields: { playerId: 'bob' } }, ['https://x.test']); // 'bob'
 * referencedId(type, { fields: { alias: 'new' } }, ['https://x.test']);     // undefined
 */
export function referencedId(type: ResourceType, input: ItemInput, baseUrls: readonly string[]): string | undefined {
  const idField = type.idField;
  const { [idField]: id, ...others } = input.fields;
  if (input.ref === undefined && id === undefined) return undefined;
  if (id !== undefined && typeof id !== 'string') {
    throw new HttpError(400, 'The body has members of the wrong JSON type.', { errors: [{ pointer: pointerOf(input, idField), detail: 'must be string' }] });
  }
  const extra = Object.keys(others).filter((k) => others[k] !== undefined);
  if (extra.length) {
    throw new HttpError(422, `A reference to an existing ${type.title.toLowerCase()} names only ${idField} or @id; to create a new one, leave both out.`, {
      errors: extra.map((k) => ({ pointer: pointerOf(input, k), detail: 'not allowed beside a reference' })),
    });
  }
  const fromRef = input.ref === undefined ? undefined : idOfReference(type, input.ref, baseUrls, pointerOf(input, 'ref', '/@id'));
  const fromId = id === undefined ? undefined : idOfReference(type, id, baseUrls, pointerOf(input, idField));
  if (fromRef !== undefined && fromId !== undefined && fromRef !== fromId) {
    throw unprocessable(`${idField} and @id name different ${type.plural}.`, `/${idField}`, `must be "${fromRef}"`);
  }
  return fromRef ?? fromId;
}
