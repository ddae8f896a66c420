// The pairs of a query string whose names pass a test, read off the string without parsing the rest.

/**
 * The `name=value` pairs of a query string (`search`, `?` first as `URL.search` has it) whose name,
 * decoded as application/x-www-form-urlencoded decodes it (WHATWG URL, "urlencoded parser": `+` is a
 * space, then percent-decoding), passes `keep`: each as written, after an `&`, in order; '' when none
 * does. Two queries that give the same string hold the same kept pairs with the same values.
 *
 * @example
 * keptPairs('?page=2&include=friends&cacheBuster=7', (name) => name === 'include'); // '&include=friends'
 * keptPairs('?fields%5Bplayers%5D=alias', (name) => name.startsWith('fields[')); // '&fields%5Bplayers%5D=alias'
 */
export function keptPairs(search: string, keep: (name: string) => boolean): string {
  let kept = '';
  let start = search.startsWith('?') ? 1 : 0;
  while (start < search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    if (end > start) {
      const pair = search.slice(start, end);
      const equals = pair.indexOf('=');
      const raw = equals === -1 ? pair : pair.slice(0, equals);
      if (keep(decodedName(raw))) kept += `&${pair}`;
    }
    start = end + 1;
  }
  return kept;
}

/** A name as URLSearchParams decodes it; only one with `+` or `%` needs decoding. */
function decodedName(raw: string): string {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  // The raw name holds no `&` nor `=`: it is the only name of this one-pair query.
  return new URLSearchParams(`${raw}=`).keys().next().value ?? '';
}
