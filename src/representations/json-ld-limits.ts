// Bounds on a JSON-LD request body, checked before the JSON-LD processor sees it. Expansion costs
// grow with nodes times the terms of the contexts in scope (type- and property-scoped contexts are
// processed again for every node they apply to), so a 40 KB body can keep the processor busy for
// seconds; an item's body is one node with a handful of values and one small context.
import { HttpError } from '../core/http/problem.js';
import { pointerToken } from './term-input.js';

/**
 * What a JSON-LD request body may hold: objects outside contexts (nodes and value objects), contexts
 * (every `@context` value, scoped ones included, and each entry of a context array), and term
 * definitions across all of them.
 *
 * @example
 * JSON_LD_BODY_LIMITS.maxTerms; // 256
 */
export const JSON_LD_BODY_LIMITS = Object.freeze({ maxObjects: 64, maxContexts: 8, maxTerms: 256 });

function tooComplex(what: string, limit: number, pointer: string): HttpError {
  const detail = `more than ${limit} ${what}`;
  return new HttpError(413, `The JSON-LD request body is more than an item's body needs: ${detail}.`, {
    errors: [{ pointer, detail }],
    extensions: { limit: what, max: limit },
  });
}

/**
 * Checks a parsed JSON-LD body against JSON_LD_BODY_LIMITS (413 past any of them), and refuses a
 * member named `__proto__` anywhere (400): the processor would treat it as a term while JavaScript
 * treats it as the prototype. Iterative, so its own cost is one visit per value.
 *
 * @example
 * checkJsonLdBody({ '@context': 'https://schema.org', name: 'Dune' }); // passes
 */
export function checkJsonLdBody(body: unknown): void {
  const { maxObjects, maxContexts, maxTerms } = JSON_LD_BODY_LIMITS;
  let objects = 0;
  let contexts = 0;
  let terms = 0;
  // What a value is: part of the data (nodes, values), a context (or an array of them), or inside a term definition.
  const stack: [value: unknown, pointer: string, kind: 'data' | 'context' | 'definition'][] = [[body, '', 'data']];
  while (stack.length) {
    const [value, pointer, kind] = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${pointer}/${i}`, kind]);
      continue;
    }
    if (kind === 'context' && ++contexts > maxContexts) throw tooComplex('contexts', maxContexts, pointer);
    if (value === null || typeof value !== 'object') continue;
    if (kind === 'data' && ++objects > maxObjects) throw tooComplex('objects', maxObjects, pointer);
    const record = value as Record<string, unknown>;
    const children: typeof stack = [];
    for (const key of Object.keys(record)) {
      const at = `${pointer}/${pointerToken(key)}`;
      if (key === '__proto__') throw new HttpError(400, 'The JSON-LD request body has a member named "__proto__".', { errors: [{ pointer: at, detail: 'unknown member' }] });
      if (key === '@context' && kind !== 'context') children.push([record[key], at, 'context']);
      else if (kind !== 'context') children.push([record[key], at, kind]);
      // In a context every member that is not a keyword defines a term, whose definition may hold a scoped context.
      else if (!key.startsWith('@')) {
        if (++terms > maxTerms) throw tooComplex('term definitions', maxTerms, at);
        children.push([record[key], at, 'definition']);
      }
    }
    // Pushed last to first, so members are visited in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}
