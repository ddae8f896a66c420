// Validation of an item's plain form against its type's JSON Schema: an interpreter of the keywords fields
// use (no code is generated at run time, which Workers forbid), with ajv's messages and order.
import * as ucs2 from 'ajv/dist/runtime/ucs2length.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { JsonSchema } from './declaration.js';

/**
 * One broken rule: a JSON Pointer (RFC 6901) to the member, and what is wrong with it.
 *
 * @example
 * const e: SchemaError = { pointer: '/alias', detail: 'must NOT have fewer than 1 characters', keyword: 'minLength' };
 */
export interface SchemaError {
  pointer: string;
  detail: string;
  keyword: string;
}

/** The keywords the interpreter checks, and those it ignores (annotations). */
/** The length of a string in Unicode code points, as JSON Schema counts it (ajv's own function). */
const ucs2length: (s: string) => number = ((ucs2 as { default: { default?: unknown } }).default.default ?? (ucs2 as { default: unknown }).default) as (s: string) => number;

const CHECKED = new Set(['type', 'enum', 'const', 'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'items', 'minItems', 'maxItems', 'uniqueItems']);
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'example', 'readOnly', 'writeOnly', 'deprecated', '$comment', 'nullable']);
const FORMATS: Readonly<Record<string, (value: string) => boolean>> = Object.fromEntries(
  ['uri', 'uri-reference', 'email', 'date', 'date-time', 'time', 'uuid', 'hostname', 'ipv4', 'ipv6', 'iri'].flatMap((name) => {
    const f = (fullFormats as Record<string, unknown>)[name];
    const test = typeof f === 'function' ? (f as (v: string) => boolean) : f instanceof RegExp ? (v: string) => f.test(v) : (f as { validate?: (v: string) => boolean } | undefined)?.validate;
    return test ? [[name, test]] : [];
  }),
);

/**
 * Throws a TypeError when a field's schema uses a keyword the interpreter does not check (it would be
 * silently ignored), or an unknown format.
 *
 * @example
 * checkSchemaKeywords({ type: 'string', maxLength: 64 }, 'field "alias"'); // passes
 */
export function checkSchemaKeywords(schema: JsonSchema, where: string): void {
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || ANNOTATIONS.has(key)) continue;
    if (!CHECKED.has(key)) throw new TypeError(`defineApi: ${where}: the schema keyword "${key}" is not supported (supported: ${[...CHECKED].join(', ')})`);
    if (key === 'format' && !(String(value) in FORMATS)) throw new TypeError(`defineApi: ${where}: the format "${String(value)}" is not supported (${Object.keys(FORMATS).join(', ')})`);
    if (key === 'items') checkSchemaKeywords(value as JsonSchema, `${where} items`);
  }
}

function typeOk(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

/** Each pattern of the declarations, compiled once (as ajv does, with the `u` flag). */
const patterns = new Map<string, RegExp>();

function patternOf(source: string): RegExp {
  let compiled = patterns.get(source);
  if (compiled === undefined) {
    compiled = new RegExp(source, 'u');
    // Patterns come from declarations, a small set; the bound is for a caller validating anything.
    if (patterns.size < 1024) patterns.set(source, compiled);
  }
  return compiled;
}

/**
 * Whether one value satisfies a field's schema (the same rules as `validateItem`, without the errors).
 *
 * @example
 * valueIsValid({ type: 'string', pattern: '^[a-z]+$' }, 'alice'); // true
 */
export function valueIsValid(schema: JsonSchema, value: unknown): boolean {
  const out: SchemaError[] = [];
  valueErrors(schema, value, '', out);
  return out.length === 0;
}

/** The errors of one value against a field's schema, in ajv's order (type first, then each keyword). */
function valueErrors(schema: JsonSchema, value: unknown, pointer: string, out: SchemaError[]): void {
  const type = schema.type;
  // One type (a string) is the common case: no array made for it.
  if (type !== undefined && !(typeof type === 'string' ? typeOk(type, value) : (type as string[]).some((t) => typeOk(t, value)))) {
    out.push({ pointer, detail: `must be ${typeof type === 'string' ? type : (type as string[]).join(',')}`, keyword: 'type' });
    return;
  }
  if (typeof value === 'string') {
    if (typeof schema.maxLength === 'number' || typeof schema.minLength === 'number') {
      const length = ucs2length(value);
      if (typeof schema.maxLength === 'number' && length > schema.maxLength) out.push({ pointer, detail: `must NOT have more than ${schema.maxLength} characters`, keyword: 'maxLength' });
      if (typeof schema.minLength === 'number' && length < schema.minLength) out.push({ pointer, detail: `must NOT have fewer than ${schema.minLength} characters`, keyword: 'minLength' });
    }
    if (typeof schema.pattern === 'string' && !patternOf(schema.pattern).test(value)) out.push({ pointer, detail: `must match pattern "${schema.pattern}"`, keyword: 'pattern' });
    if (typeof schema.format === 'string' && !FORMATS[schema.format]!(value)) out.push({ pointer, detail: `must match format "${schema.format}"`, keyword: 'format' });
  }
  if (typeof value === 'number') {
    if (typeof schema.maximum === 'number' && value > schema.maximum) out.push({ pointer, detail: `must be <= ${schema.maximum}`, keyword: 'maximum' });
    if (typeof schema.minimum === 'number' && value < schema.minimum) out.push({ pointer, detail: `must be >= ${schema.minimum}`, keyword: 'minimum' });
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) out.push({ pointer, detail: `must be < ${schema.exclusiveMaximum}`, keyword: 'exclusiveMaximum' });
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) out.push({ pointer, detail: `must be > ${schema.exclusiveMinimum}`, keyword: 'exclusiveMinimum' });
    if (typeof schema.multipleOf === 'number' && value / schema.multipleOf !== Math.round(value / schema.multipleOf)) out.push({ pointer, detail: `must be multiple of ${schema.multipleOf}`, keyword: 'multipleOf' });
  }
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) out.push({ pointer, detail: `must NOT have more than ${schema.maxItems} items`, keyword: 'maxItems' });
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) out.push({ pointer, detail: `must NOT have fewer than ${schema.minItems} items`, keyword: 'minItems' });
    if (schema.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) out.push({ pointer, detail: 'must NOT have duplicate items', keyword: 'uniqueItems' });
    if (schema.items && typeof schema.items === 'object') value.forEach((v, i) => valueErrors(schema.items as JsonSchema, v, `${pointer}/${i}`, out));
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) out.push({ pointer, detail: 'must be equal to one of the allowed values', keyword: 'enum' });
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) out.push({ pointer, detail: 'must be equal to constant', keyword: 'const' });
}

/** Escapes one reference token of a JSON Pointer (RFC 6901 section 4). */
function token(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Validates a document against an item schema (`ResourceType.schema`: an object of `properties`,
 * `required`, `additionalProperties: false`), collecting every error, in ajv's order and with its
 * messages: required members, members the type does not have, then each property.
 *
 * @example
 * validateItem(api.type('player').schema, { playerId: 'bob', alias: '' });
 * // [{ pointer: '/alias', detail: 'must NOT have fewer than 1 characters', keyword: 'minLength' }]
 */
export function validateItem(schema: JsonSchema, document: unknown): SchemaError[] {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return [{ pointer: '', detail: 'must be object', keyword: 'type' }];
  const doc = document as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const out: SchemaError[] = [];
  for (const name of (schema.required ?? []) as string[]) {
    if (!Object.hasOwn(doc, name) || doc[name] === undefined) out.push({ pointer: `/${token(name)}`, detail: `must have required property '${name}'`, keyword: 'required' });
  }
  if (schema.additionalProperties === false) {
    for (const key in doc) if (!Object.hasOwn(properties, key)) out.push({ pointer: `/${token(key)}`, detail: 'must NOT have additional properties', keyword: 'additionalProperties' });
  }
  for (const name in properties) {
    if (!Object.hasOwn(doc, name) || doc[name] === undefined) continue;
    valueErrors(properties[name]!, doc[name], propertyPointer(name), out);
  }
  return out;
}

/** The pointers of the declared properties, made once each (their names are the declarations'). */
const propertyPointers = new Map<string, string>();

function propertyPointer(name: string): string {
  let pointer = propertyPointers.get(name);
  if (pointer === undefined) {
    pointer = `/${token(name)}`;
    if (propertyPointers.size < 4096) propertyPointers.set(name, pointer);
  }
  return pointer;
}
