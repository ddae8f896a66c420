// HTML text: its media type, escaping, and a tagged template that escapes what it is given unless it is already HTML.

/**
 * The media type of the HTML representation.
 *
 * @example
 * fetch(url, { headers: { Accept: HTML_MEDIA_TYPE } });
 */
export const HTML_MEDIA_TYPE = 'text/html';

/**
 * Escapes text for HTML content and quoted attribute values (`& < > " '`).
 *
 * @example
 * escapeHtml('<b title="x">Tom & Jerry</b>'); // '&lt;b title=&quot;x&quot;&gt;Tom &amp; Jerry&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  // Most text holds nothing to escape: one test, and the string itself back.
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!) : text;
}

const SPECIAL = /[&<>"']/;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text that is already HTML: the `html` tag writes it as it is.
 *
 * @example
 * html`<p>${new Markup('<b>x</b>')}</p>`.html; // '<p><b>x</b></p>'
 */
export class Markup {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

/**
 * Tagged template that escapes every interpolated value unless it is a `Markup` (already HTML); arrays
 * are joined, and undefined, null and false are left out.
 *
 * @example
 * html`<p>${'a & b'}</p>`.html; // '<p>a &amp; b</p>'
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (Array.isArray(value)) for (const part of value) out += htmlOf(part);
    else out += htmlOf(value);
    out += strings[i + 1]!;
  }
  return new Markup(out);
}

/** One interpolated value as HTML: Markup as it is, text escaped, nothing for undefined, null and false. */
function htmlOf(part: unknown): string {
  if (part === undefined || part === null || part === false) return '';
  if (part instanceof Markup) return part.html;
  return escapeHtml(typeof part === 'string' ? part : String(part));
}
