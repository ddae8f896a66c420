// An HTML page's links to its resource in every other format the service serves it in.
import type { RenderPlan } from '../core/model/representation.js';
import { escapeHtml, HTML_MEDIA_TYPE } from './html-text.js';

/**
 * "This page in" each other format the resource is served in: links to its raw representations, the
 * format named in the URL (`?mediaType=`), so that a browser shows the JSON a client would get. Empty
 * when the resource is served in no other format.
 *
 * @example
 * formatLinks('https://x.test/player/alice', plan.formats); // '<nav class="formats">This page in <a rel="alternate" ...'
 */
export function formatLinks(url: string, formats: RenderPlan['formats'], search?: string): string {
  if (formats === undefined) return '';
  const parts = formatParts(formats);
  if (parts.length === 0) return '';
  let out = '<nav class="formats">This page in ';
  if (search === undefined) {
    // A list's or an item's URL has no query but the page number: the parameter is appended.
    const base = escapeHtml(url) + (url.includes('?') ? '&amp;' : '?');
    for (const p of parts) out += `${p.head}${base}${p.param}${p.tail}`;
  } else {
    for (const p of parts) {
      const target = new URL(url);
      // A format that reads the search text under another name (JSON:API's filter[search]) gets it so.
      if (p.searchParameter !== undefined && p.searchParameter !== 'search') {
        target.searchParams.delete('search');
        target.searchParams.set(p.searchParameter, search);
      }
      target.searchParams.set('mediaType', p.mediaType);
      out += `${p.head}${escapeHtml(target.href)}${p.tail}`;
    }
  }
  return `${out}</nav>`;
}

interface FormatPart {
  mediaType: string;
  searchParameter: string | undefined;
  /** `<a rel="alternate" type="..." href="`. */
  head: string;
  /** `mediaType=<the media type, percent-encoded>`. */
  param: string;
  /** `">Title</a>`. */
  tail: string;
}

/** The fixed text of each link to another format, worked out once per list of formats (the service's). */
const formatTexts = new WeakMap<object, FormatPart[]>();

function formatParts(formats: NonNullable<RenderPlan['formats']>): FormatPart[] {
  let parts = formatTexts.get(formats);
  if (parts === undefined) {
    parts = formats
      .filter((f) => f.mediaType !== HTML_MEDIA_TYPE)
      .map((f) => ({
        mediaType: f.mediaType,
        searchParameter: f.searchParameter,
        head: `<a rel="alternate" type="${escapeHtml(f.mediaType)}" href="`,
        param: `mediaType=${encodeURIComponent(f.mediaType)}`,
        tail: `">${escapeHtml(f.title ?? f.name)}</a>`,
      }));
    formatTexts.set(formats, parts);
  }
  return parts;
}
