// The texts the formats keep of listed items' documents while they are shared between pages.
import { isSharedDocument, type Item } from '../core/model/resource.js';
import { flat } from '../core/json/text.js';

/**
 * A format's text of a listed item: kept in `texts` (the format's own map) with the document when the
 * document is shared, that is, listed on more than one page while its record is unchanged (the memory
 * store's records, or those the answer memo keeps: `isSharedDocument`), else made each time. Made flat,
 * so that each page copies it as one piece. `make` must write the same text for the same document
 * whatever the request (a sparse fieldset, say, is not the document's: such a page does not ask here).
 * The documents kept are bounded (src/core/model/documents.ts), and a text goes with its document.
 *
 * @example
 * const items = page.items.map((doc) => keptItemText(sirenTexts, doc, subEntity));
 */
export function keptItemText(texts: WeakMap<Item, string>, doc: Item, make: (doc: Item) => string): string {
  if (!isSharedDocument(doc)) return make(doc);
  let text = texts.get(doc);
  if (text === undefined) texts.set(doc, (text = flat(make(doc))));
  return text;
}
