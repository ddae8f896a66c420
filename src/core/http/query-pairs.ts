// The pairs of a query string as the WHATWG urlencoded parser splits them, read off the string.

/**
 * Calls `visit` with each non-empty pair of a query string (`search`, `?` first as `URL.search` has
 * it), split as the WHATWG URL "urlencoded parser" splits it: at `&`, the name ending at the first
 * `=` (no `=`: an empty value). Name, value and pair are as written, not decoded: for a query with no
 * `%` and no `+` that is what URLSearchParams reads.
 *
 * @example
 * eachPair('?page=2&flag', (name, value) => console.log(name, value)); // 'page' '2', then 'flag' ''
 */
export function eachPair(search: string, visit: (name: string, value: string, pair: string) => void): void {
  let start = search.startsWith('?') ? 1 : 0;
  while (start < search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    if (end > start) {
      const pair = search.slice(start, end);
      const equals = pair.indexOf('=');
      visit(equals === -1 ? pair : pair.slice(0, equals), equals === -1 ? '' : pair.slice(equals + 1), pair);
    }
    start = end + 1;
  }
}

/**
 * The pairs of a query string whose name, decoded as application/x-www-form-urlencoded decodes it
 * (`+` is a space, then percent-decoding), passes `keep`: each as written, after an `&`, in order; ''
 * when none does. Two queries that give the same string hold the same kept pairs with the same values.
 *
 * @example
 * keptPairs('?page=2&include=friends&cacheBuster=7', (name) => name === 'include'); // '&include=friends'
 * keptPairs('?fields%5Bplayers%5D=alias', (name) => name.startsWith('fields[')); // '&fields%5Bplayers%5D=alias'
 */
export function keptPairs(search: string, keep: (name: string) => boolean): string {
  let kept = '';
  eachPair(search, (name, _value, pair) => {
    if (keep(decodedName(name))) kept += `&${pair}`;
  });
  return kept;
}

/** A name as URLSearchParams decodes it; only one with `+` or `%` needs decoding. */
function decodedName(raw: string): string {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  // The raw name holds no `&` nor `=`: it is the only name of this one-pair query.
  return new URLSearchParams(`${raw}=`).keys().next().value ?? '';
}
