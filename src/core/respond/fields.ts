// Response header fields as the service builds them: one shape (lower-case names in a Map), one set of helpers.

/**
 * Response header fields as the service builds them: lower-case names, one value each (a repeated field
 * joined with ", ", RFC 9110 section 5.3), in the order they are written.
 *
 * @example
 * const fields: Fields = new Map([['content-type', 'application/json']]);
 */
export type Fields = Map<string, string>;

/**
 * A copy of `fields` to change: the answers of a request each start from the request's fields, or a
 * kept answer's. Copied by `forEach` into a new Map: `new Map(fields)` goes through the iterator
 * protocol, an entry array for each field (measured in Node 20: 0.7 us against 0.4 for seven fields).
 *
 * @example
 * const fields = copyFields(ctx.responseHeaders);
 * fields.set('cache-control', 'no-store');
 */
export function copyFields(fields: ReadonlyMap<string, string>): Fields {
  const copy: Fields = new Map();
  fields.forEach((value, name) => copy.set(name, value));
  return copy;
}

/**
 * Fields from name/value pairs of any case (an error's own fields, a route's OPTIONS fields).
 *
 * @example
 * fieldsOf({ 'Retry-After': '5' }).get('retry-after'); // '5'
 */
export function fieldsOf(pairs: Readonly<Record<string, string>>): Fields {
  const fields: Fields = new Map();
  for (const name of Object.keys(pairs)) addField(fields, name, pairs[name]!);
  return fields;
}

/**
 * Adds a header field, joining a repeated field's values with ", " (RFC 9110 section 5.3).
 *
 * @example
 * addField(ctx.responseHeaders, 'Link', '<https://x.test/v2>; rel="successor-version"');
 */
export function addField(fields: Fields, name: string, value: string): void {
  const key = name.toLowerCase();
  const current = fields.get(key);
  fields.set(key, current === undefined ? value : `${current}, ${value}`);
}

/**
 * Adds a field name to the Vary field of an answer unless it is already listed (RFC 9110 section 12.5.5).
 *
 * @example
 * appendVary(fields, 'Accept');
 */
export function appendVary(fields: Fields, field: string): void {
  const current = fields.get('vary') ?? null;
  const next = varyWith(current, field);
  if (next !== current) fields.set('vary', next);
}

/**
 * The Vary value `current` with `field` added unless already listed (or `*`): appendVary on a string.
 *
 * @example
 * varyWith('Accept', 'Authorization'); // 'Accept, Authorization'
 */
export function varyWith(current: string | null, field: string): string {
  if (!current) return field;
  // Already the last name listed (as Api-Version is on every answer): nothing to look up.
  if (current.endsWith(field) && (current.length === field.length || current.endsWith(`, ${field}`))) return current;
  // A service answers with a handful of Vary values: each combination is worked out once, looked up by
  // the two strings as they are (no key made of both to allocate and hash for every answer).
  let byField = varied.get(current);
  if (byField === undefined) {
    if (varied.size >= 64) varied.clear();
    varied.set(current, (byField = new Map()));
  }
  let next = byField.get(field);
  if (next === undefined) {
    next = varyAdding(current, field);
    if (byField.size >= 64) byField.clear();
    byField.set(field, next);
  }
  return next;
}

const varied = new Map<string, Map<string, string>>();

function varyAdding(current: string, field: string): string {
  const names = current.split(',').map((s) => s.trim().toLowerCase());
  return !names.includes(field.toLowerCase()) && !names.includes('*') ? `${current}, ${field}` : current;
}

/**
 * Adds the fields every answer of a request carries (`extra`: Api-Version, deprecation fields...) to an
 * answer's fields: Vary values and Link values are merged in, any other field set where absent, and
 * Api-Version named in Vary (every answer depends on that request field, RFC 9110 section 12.5.5).
 * Idempotent: fields that already hold them are left as they are.
 *
 * @example
 * mergeFields(answer.fields, ctx.responseHeaders, 'Api-Version');
 */
export function mergeFields(fields: Fields, extra: ReadonlyMap<string, string>, alwaysVary: string, status = 200): void {
  appendVary(fields, alwaysVary);
  extra.forEach((value, name) => {
    if (name === 'vary') for (const field of value.split(',')) appendVary(fields, field.trim());
    else if (name === 'link') {
      // A 304 names no Link: it would replace the whole Link field of the 200 a cache freshens with it
      // (RFC 9111 section 4.3.4), and the 200's links come from its body (see answerSelected).
      if (status === 304) return;
      const current = fields.get('link');
      // Most answers already hold the request's links, or none: the value is compared whole first.
      if (current === undefined) fields.set('link', value);
      else if (!current.includes(value)) fields.set('link', withLinks(current, value));
    } else if (!fields.has(name)) fields.set(name, value);
  });
}

/** Where a Link field value holds a second link: a comma before its `<`. */
const SEVERAL_LINKS = /,(?=\s*<)/;

/** Whether the last `links` withLinks was given holds several links (the same value comes with every answer). */
let lastLinks = '';
let lastSeveral = false;

/** A Link field value with each link of `links` appended unless it is already there (`current` does not hold `links` whole). */
function withLinks(current: string, links: string): string {
  if (links !== lastLinks) {
    lastLinks = links;
    lastSeveral = SEVERAL_LINKS.test(links);
  }
  // One link (as a route's `linkedFromEveryAnswer`): appended as it is.
  if (!lastSeveral) {
    const one = links.trim();
    return one !== links && current.includes(one) ? current : `${current}, ${one}`;
  }
  for (const link of links.split(SEVERAL_LINKS)) {
    const one = link.trim();
    if (!current.includes(one)) current = `${current}, ${one}`;
  }
  return current;
}
