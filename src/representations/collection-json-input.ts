// Reading Collection+JSON write representations (section 2.1.4): a template of name/value entries.
import { HttpError } from '../core/http/problem.js';
import type { ItemInput } from '../core/model/representation.js';
import type { ResourceType } from '../core/model/api.js';
import { inputFromTerms, pointerToken, requireObject } from './term-input.js';

/** 400 naming (by JSON Pointer) every own member of `object` outside `allowed`. */
function refuseMembers(object: Record<string, unknown>, allowed: readonly string[], at: string): void {
  const extra = Object.keys(object).filter((k) => !allowed.includes(k));
  if (extra.length === 0) return;
  throw new HttpError(400, `A Collection+JSON request body has members it does not define here (only ${allowed.join(', ')}).`, {
    errors: extra.map((k) => ({ pointer: `${at}/${pointerToken(k)}`, detail: 'unknown member' })),
  });
}

/**
 * Reads a Collection+JSON write representation (section 2.1.4, `{ "template": { "data": [...] } }`)
 * for `type`: entries named by the type's terms (a new item), or its id field (an existing
 * one). Entries with an empty or null value are left out, so the rendered template can be sent back
 * partly filled.
 *
 * @example
 * readCollectionJsonBody({ template: { data: [{ name: 'name', value: 'Dune' }, { name: 'isbn', value: '' }] } }, bookType);
 * // { fields: { title: 'Dune' }, ... }
 */
export function readCollectionJsonBody(body: unknown, type: ResourceType): ItemInput {
  const object = requireObject(body, 'Collection+JSON');
  refuseMembers(object, ['template'], '');
  const template = object.template === undefined ? undefined : requireObject(object.template, 'Collection+JSON template', '/template');
  if (!template || !Array.isArray(template.data)) {
    throw new HttpError(400, 'A Collection+JSON request body is {"template": {"data": [{"name": ..., "value": ...}]}}.', {
      errors: [{ pointer: template ? '/template/data' : '/template', detail: 'a template with a data array is required' }],
    });
  }
  const seen = new Set<string>();
  const values: [string, unknown, string][] = [];
  template.data.forEach((entry: unknown, i: number) => {
    const pointer = `/template/data/${i}`;
    const item = requireObject(entry, 'Collection+JSON data entry', pointer);
    // A client may send back the template it was given, prompts included.
    refuseMembers(item, ['name', 'value', 'prompt'], pointer);
    const { name, value } = item as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || seen.has(name)) {
      throw new HttpError(400, 'Every template data entry needs a name string, used once.', {
        errors: [{ pointer: `${pointer}/name`, detail: typeof name === 'string' ? `"${name}" is repeated` : 'must be a string' }],
      });
    }
    seen.add(name);
    if (value !== '' && value !== null && value !== undefined) values.push([name, value, `${pointer}/value`]);
    else if (type.fieldByTerm(name) === undefined) values.push([name, undefined, `${pointer}/name`]);
  });
  return inputFromTerms(type, values);
}
