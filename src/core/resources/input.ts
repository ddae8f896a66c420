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

const NO_POINTERS: Readonly<Record<string, string>> = Object.freeze({});

/** Where a field came from in the request body: its entry in `rename`, else `/name`. */
function renamed(rename: Readonly<Record<string, string>>, name: string): string {
  return Object.hasOwn(rename, name) ? rename[name]! : `/${name}`;
}

function unprocessable(detail: string, pointer: string, fieldDetail: string): HttpError {
  return new HttpError(422, detail, { errors: [{ pointer, detail: fieldDetail }] });
}

/**
 * What reading an item's input needs of its type, worked out once per type (types are defined once):
 * each derived field with the path of its link, each writable field with the derived field shown under
 * its term and the kind of value its form text stands for, the read-only fields.
 */
interface InputPlan {
  /** The path under the item's URL of each derived field's link, by field name. */
  readonly derived: ReadonlyMap<string, string>;
  readonly writableByName: ReadonlyMap<string, { readonly required: boolean; readonly shownAs: string | undefined; readonly formText: 'number' | 'boolean' | 'number-or-boolean' | undefined }>;
  readonly readOnly: readonly string[];
  /** The derived fields the schema does not require: the server's own value of one is not checked against it again. */
  readonly optionalDerived: ReadonlySet<string>;
  readonly stored: readonly { readonly name: string; readonly writeOnly: boolean }[];
}

const inputPlans = new WeakMap<ResourceType, InputPlan>();

function inputPlan(type: ResourceType): InputPlan {
  let plan = inputPlans.get(type);
  if (plan !== undefined) return plan;
  const derived = new Map(
    type.fields.flatMap((f) => {
      const link = f.derived && type.links.find((l) => l.rel === f.derived!.link);
      return link ? [[f.name, link.path] as const] : [];
    }),
  );
  const writableByName = new Map(
    type.writable.map((f) => [f.name, { required: f.required, shownAs: type.fields.find((d) => d.derived && d.term === f.term)?.name, formText: formTextKind(f.schema) }] as const),
  );
  plan = {
    derived,
    writableByName,
    readOnly: type.fields.filter((f) => f.access === 'read-only').map((f) => f.name),
    optionalDerived: new Set([...derived.keys()].filter((name) => !type.fields.find((f) => f.name === name)!.required)),
    stored: type.fields.filter((f) => f.access !== 'read-only').map((f) => ({ name: f.name, writeOnly: f.access === 'write-only' })),
  };
  inputPlans.set(type, plan);
  return plan;
}

/**
 * The value of a derived field of the item `target` names: the href of its link, undefined for a
 * field that is not derived. The item's URL is made at the first derived field asked for (most write
 * bodies hold none).
 */
class DerivedValues {
  #url: string | undefined;
  constructor(
    private readonly plan: InputPlan,
    private readonly type: ResourceType,
    private readonly target: ItemTarget,
  ) {}

  get(name: string | undefined): string | undefined {
    const path = name === undefined ? undefined : this.plan.derived.get(name);
    if (path === undefined) return undefined;
    this.#url ??= this.type.itemUrl(this.target.baseUrl, this.target.id);
    return `${this.#url}/${path}`;
  }
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
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new HttpError(target.wrongTypeStatus ?? 400, `A ${type.title.toLowerCase()} is a JSON object.`, { errors: [{ pointer: '', detail: 'must be object' }] });
  }
  const doc = document as Record<string, unknown>;
  const plan = inputPlan(type);
  const idField = type.idField;
  const derived = new DerivedValues(plan, type, target);
  // The document as the client gave it, but for the fields below: built once, without deleting members
  // afterwards (an object that loses members becomes a slow dictionary for every later read).
  const candidate: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) {
    const f = plan.writableByName.get(key);
    let value = doc[key];
    // The server's own value of a derived field (a patched document holds it, as does a GET's body sent
    // back) is left out of what is checked: it is the server's to be right about, and it is not stored.
    if (plan.optionalDerived.has(key) && value === derived.get(key)) continue;
    if (f !== undefined) {
      // The server's own value of a field shown under the same term is not a value to store.
      if (f.shownAs !== undefined && value === derived.get(f.shownAs)) continue;
      // An optional field sent empty is a field left out: a form client (HAL-FORMS, Siren, an HTML form)
      // submits every property of a template, an optional one it was given nothing for as "" (the
      // HAL-FORMS property `value` defaults to ""). docs/decisions.md, "The resource model" (values from forms).
      if (!f.required && value === '') continue;
      // A number or boolean field given as its JSON text is that value: form clients (HTML forms,
      // HAL-FORMS, whose property values are strings) send every value as text. docs/decisions.md, "The
      // resource model" (values from forms).
      if (f.formText !== undefined && typeof value === 'string') value = formValue(f.formText, value) ?? value;
    }
    // A member named __proto__ is data (as JSON.parse made it), never the prototype.
    if (key === '__proto__') Object.defineProperty(candidate, key, { value, enumerable: true, writable: true, configurable: true });
    else candidate[key] = value;
  }
  if (!Object.hasOwn(doc, idField)) candidate[idField] = target.id;
  const rename = target.pointers ?? NO_POINTERS;
  requireValidItem(type, candidate, { wrongTypeStatus: target.wrongTypeStatus ?? 400, rename });
  if (candidate[idField] !== target.id) {
    throw unprocessable(`The ${idField} of the body differs from the ${type.title.toLowerCase()} addressed.`, renamed(rename, idField), `must be "${target.id}"`);
  }
  for (const name of plan.readOnly) {
    if (candidate[name] === undefined) continue;
    const server = derived.get(name);
    if (candidate[name] !== server) {
      throw unprocessable(`${name} is set by the server.`, renamed(rename, name), server === undefined ? 'must be absent' : `must be absent or "${server}"`);
    }
  }
  const data: Record<string, unknown> = {};
  for (const f of plan.stored) {
    const value = candidate[f.name] ?? (f.writeOnly && target.current ? storedValue(target.current, f.name) : undefined);
    if (value !== undefined) data[f.name] = value;
  }
  return data;
}

/** Which values a field's form text may stand for: undefined when its schema takes a string (text stays text). */
function formTextKind(schema: Readonly<Record<string, unknown>>): 'number' | 'boolean' | 'number-or-boolean' | undefined {
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  if (types.includes('string')) return undefined;
  const number = types.includes('integer') || types.includes('number');
  const boolean = types.includes('boolean');
  return number && boolean ? 'number-or-boolean' : number ? 'number' : boolean ? 'boolean' : undefined;
}

/** The number or boolean a form's text stands for, when the field's schema takes one and not a string. */
function formValue(kind: 'number' | 'boolean' | 'number-or-boolean', text: string): number | boolean | undefined {
  if (kind !== 'boolean' && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) return Number(text);
  if (kind !== 'number' && (text === 'true' || text === 'false')) return text === 'true';
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
