// The documents of listed items kept between pages, with the formats' texts of them, bounded in bytes.
import { flat } from '../json/text.js';
import type { ResourceType } from './api.js';
import type { StoredItem } from './documents.js';
import type { Item } from './resource.js';

/**
 * The most bytes the kept documents and their texts take, by the estimates below (measured with
 * bench/memory: the heap held beside caches that are off stays within its fixed allowance). A bound in
 * bytes, not in documents: a type with large fields, or eight formats' texts of each, keeps fewer.
 */
export const KEPT_DOCUMENT_BYTES = 4 * 1024 * 1024;

/**
 * What a kept document costs besides its strings, estimated from the heap it holds (measured by letting
 * every kept document go: 400 documents of two fields and one link held 281-322 KiB with their HTML
 * texts, estimated 318): the document, its fields object and its entry here, each field's slot, each
 * link's object and its href. Field values are the stored record's own strings (not counted: the store
 * holds them), but for derived ones, counted with the links they copy.
 */
const DOCUMENT_BYTES = 512;
const FIELD_BYTES = 32;
const LINK_BYTES = 72;
/**
 * A kept text's string header and the rope cell it was flattened from; its
 * characters count one byte each (the formats' texts are one-byte strings: measured, documents with
 * texts of 10 KB in one format held 3,409-3,752 KiB where 3,593-3,632 were counted).
 */
const TEXT_BYTES = 48;
/** A document's array of texts: its header, and a slot for each format. */
const TEXTS_BYTES = 32;
const SLOT_BYTES = 8;

interface KeptDocument {
  readonly stored: StoredItem;
  readonly baseUrl: string;
  readonly type: ResourceType;
  readonly doc: Item;
  /** Its estimated bytes with the texts kept of it. */
  bytes: number;
  /** Listed on more than one page while kept: the formats may keep their texts of it. */
  shared: boolean;
  /** Still counted in the bound (false once let go; a page in flight may still hold the document). */
  kept: boolean;
  /** The formats' texts of it, by slot (`keptTextSlot`), made when it is first shared and rendered. */
  texts: (string | undefined)[] | undefined;
  /** Listed since the bound last passed over it: it gets a second chance (moved to the newest end). */
  used: boolean;
}

/** How many formats keep texts of listed items (each took a slot). */
let slots = 0;

/** The kept documents by stored record, oldest first. */
const kept = new Map<StoredItem, KeptDocument>();
/** The newest kept document of each item, by type and id: a document of an older record of it goes. */
const newest = new Map<ResourceType, Map<string, KeptDocument>>();
let keptBytes = 0;

const ENTRY = Symbol('player-hypermedia.kept-document');

function entryOf(doc: Item): KeptDocument | undefined {
  return (doc as { [ENTRY]?: KeptDocument })[ENTRY];
}

function documentBytes(doc: Item): number {
  let bytes = DOCUMENT_BYTES + FIELD_BYTES * Object.keys(doc.fields).length;
  for (const link of doc.links) bytes += LINK_BYTES + link.href.length;
  return bytes;
}

/**
 * Counts `bytes` more for `entry`, then lets the oldest documents go until all fit in seven eighths of
 * the bound; one listed since the bound last passed over it is kept once more, as the newest (the
 * second-chance order of CLOCK).
 */
function grow(entry: KeptDocument, bytes: number): void {
  entry.bytes += bytes;
  keptBytes += bytes;
  if (keptBytes <= KEPT_DOCUMENT_BYTES) return;
  for (const old of kept.values()) {
    if (keptBytes <= (KEPT_DOCUMENT_BYTES / 8) * 7) break;
    if (old.used) {
      old.used = false;
      kept.delete(old.stored);
      kept.set(old.stored, old);
    } else letGo(old);
  }
}

function letGo(entry: KeptDocument): void {
  kept.delete(entry.stored);
  const ofType = newest.get(entry.type);
  if (ofType?.get(entry.doc.id) === entry) {
    ofType.delete(entry.doc.id);
    // Nothing kept of the type: it is not held here (an API defined for a while, a test's).
    if (ofType.size === 0) newest.delete(entry.type);
  }
  entry.kept = false;
  keptBytes -= entry.bytes;
}

/** Makes `entry` its item's newest kept document, letting the one of an older record go. */
function replaceOlder(entry: KeptDocument): void {
  const older = newest.get(entry.type)?.get(entry.doc.id);
  // Letting it go may drop its type's map (when it was the type's last): looked up again below.
  if (older !== undefined) letGo(older);
  let ofType = newest.get(entry.type);
  if (ofType === undefined) newest.set(entry.type, (ofType = new Map()));
  ofType.set(entry.doc.id, entry);
}

/**
 * The document of a listed item, kept by its stored record for records handed out again until the item
 * changes (`sharesRecords`, the memory store; or the records the answer memo keeps of a store whose
 * reads make new ones, PostgreSQL: see `loadPage`): each document is built once per base URL, not once
 * per page that lists it, and the formats keep their texts of it with it (`keptItemText`). Listed again,
 * it is marked shared. The document of an older record of the same item goes when a newer one is kept
 * (only the newest record is listed again), so that writes do not push unchanged items' documents out.
 * Shared between requests, so never changed once made; `make` builds it (a copy of its own: see
 * `keptCopy` in documents.ts).
 *
 * @example
 * const doc = keptItemDocument(type, baseUrl, stored, keptListedItem);
 */
export function keptItemDocument(type: ResourceType, baseUrl: string, stored: StoredItem, make: (type: ResourceType, baseUrl: string, stored: StoredItem) => Item): Item {
  const found = kept.get(stored);
  if (found !== undefined && found.baseUrl === baseUrl && found.type === type) {
    found.shared = true;
    found.used = true;
    return found.doc;
  }
  if (found !== undefined) letGo(found);
  const doc = make(type, baseUrl, stored);
  const entry: KeptDocument = { stored, baseUrl, type, doc, bytes: 0, shared: false, kept: true, texts: undefined, used: false };
  (doc as { [ENTRY]?: KeptDocument })[ENTRY] = entry;
  // A document of an older record of the item will not be listed again: its bytes go at once.
  replaceOlder(entry);
  kept.set(stored, entry);
  grow(entry, documentBytes(doc));
  return doc;
}

/**
 * Whether a document is kept and shared between pages (listed again while its record is unchanged): a
 * format may then keep the text it renders for it (`keptItemText`). Documents seen once are not shared,
 * so that a store handing out new records for every read (PostgreSQL) pays nothing for texts it would
 * never reuse.
 *
 * @example
 * const fromKeptTexts = page.items.every(isSharedDocument);
 */
export function isSharedDocument(doc: Item): boolean {
  const entry = entryOf(doc);
  return entry !== undefined && entry.shared && entry.kept;
}

/**
 * A slot of its own for a format's texts of listed items (`keptItemText`): taken once, when the
 * format's module loads.
 *
 * @example
 * const SIREN_TEXTS = keptTextSlot();
 */
export function keptTextSlot(): number {
  return slots++;
}

/**
 * A format's text of a listed item: kept in the format's slot (`keptTextSlot`) of the document's entry
 * while the document is shared (`isSharedDocument`), its bytes counted in the kept documents' bound,
 * else made each time. Texts live and go with their document's entry, not in a weak map per format
 * (whose tables V8 does not shrink once grown by documents let go between collections). Made flat, so
 * that each page copies it as one piece. `make` must write the same text for the same document whatever
 * the request (a sparse fieldset, say, is not the document's: such a page does not ask here).
 *
 * @example
 * const items = page.items.map((doc) => keptItemText(SIREN_TEXTS, doc, subEntity));
 */
export function keptItemText(slot: number, doc: Item, make: (doc: Item) => string): string {
  const entry = entryOf(doc);
  if (entry === undefined || !entry.shared || !entry.kept) return make(doc);
  let texts = entry.texts;
  if (texts === undefined) {
    texts = entry.texts = new Array<string | undefined>(slots);
    grow(entry, TEXTS_BYTES + SLOT_BYTES * slots);
  }
  let text = texts[slot];
  if (text === undefined) {
    texts[slot] = text = flat(make(doc));
    grow(entry, TEXT_BYTES + text.length);
  }
  return text;
}

/**
 * How many documents are kept and their estimated bytes (for tests and benchmarks).
 *
 * @example
 * keptDocumentStats().bytes <= KEPT_DOCUMENT_BYTES; // true
 */
export function keptDocumentStats(): { documents: number; bytes: number } {
  return { documents: kept.size, bytes: keptBytes };
}

