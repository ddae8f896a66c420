import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createService, defineApi, MemoryStore, type TypeDeclaration } from '../src/index.js';
import { KEPT_DOCUMENT_BYTES, keptDocumentStats, keptItemDocument } from '../src/core/model/kept-documents.js';
import { itemDocument, type StoredItem } from '../src/core/model/documents.js';

// The documents of listed items and every format's text of them are kept between pages while their
// records are unchanged (src/core/model/kept-documents.ts); what they hold is bounded in bytes, not in
// documents, whatever the declared fields weigh.
const kept = suite('kept documents of listed items: bounded in bytes with their texts');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MiB = 1024 * 1024;
const EVERY_FORMAT = ['application/json', 'application/ld+json', 'application/hal+json', 'application/prs.hal-forms+json', 'application/vnd.collection+json', 'application/vnd.siren+json', 'application/vnd.api+json', 'text/html'];

const note: TypeDeclaration = {
  name: 'note',
  plural: 'notes',
  title: 'Note',
  path: '/notes/{id}',
  id: 'noteId',
  fields: [
    { name: 'noteId', title: 'Note id', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' }, iri: 'bd:noteId' },
    { name: 'text', title: 'Text', required: true, schema: { type: 'string', maxLength: 20_000 }, iri: 'bd:text' },
  ],
  linkedData: { class: 'bd:Note', term: 'Note' },
  display: { title: ['noteId'] },
};

const board: TypeDeclaration = {
  name: 'board',
  plural: 'boards',
  title: 'Board',
  path: '/boards/{id}',
  id: 'boardId',
  fields: [{ name: 'boardId', title: 'Board id', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' }, iri: 'bd:boardId' }],
  linkedData: { class: 'bd:Board', term: 'Board' },
  relations: [{ name: 'notes', kind: 'to-many', target: 'note', title: 'Notes', member: 'note', labels: { owner: 'The board', all: 'All notes' }, linkedData: { iri: 'bd:notes', listClass: 'NoteList' } }],
  display: { title: ['boardId'] },
};

const api = defineApi({ title: 'Boards', version: '1.0.0', vocabulary: { prefix: 'bd', iri: 'https://boards.test/vocab#' }, types: [board, note] });
const NOTES = 400;
/** The default page size. */
const PAGE = 10;

/** A service over `count` boards of NOTES notes each (their own notes), caches off. */
async function boardService(count = 1) {
  const store = new MemoryStore();
  const notes = api.type('note');
  const boards = api.type('board');
  for (let b = 0; b < count; b++) {
    await store.put(boards, { boardId: `b${b}` });
    // Each note's text is 10 KB (its own string): the formats' texts of a note hold about 60 KB.
    for (let i = 0; i < NOTES; i++) {
      // Through JSON, as a store's strings are: flat (a rope would be flattened by the first render, growing the store).
      const text = JSON.parse(JSON.stringify(`${i}:`.padEnd(10_000, String.fromCharCode(97 + (i % 26))))) as string;
      await store.put(notes, { noteId: `n${b}-${i}`, text });
      await store.addMember(boards.relation('notes')!, `b${b}`, `n${b}-${i}`);
    }
  }
  const service = createService({ api, store, baseUrl: 'https://boards.test', memoizeAnswers: false, bodyCacheBytes: 0 });
  const read = async (page: number, accept: string, board = 0) => {
    const response = await service.fetch(new Request(`https://boards.test/boards/b${board}/notes?page=${page}`, { headers: { accept } }));
    assert.is(response.status, 200, `page ${page} in ${accept}`);
    return response.text();
  };
  return { read, store };
}

kept('should count a format\'s texts of a shared document, and not while it was listed once', async () => {
  const { read } = await boardService();
  const start = keptDocumentStats().bytes;
  // Listed once: the documents are kept, no format keeps a text of them (JSON's would be 10 KB each).
  await read(1, 'application/json');
  const once = keptDocumentStats().bytes;
  assert.ok(once - start > 0 && once - start < PAGE * 2_000, `${once - start} bytes for ${PAGE} documents`);
  // Listed again: shared; each format's first render of them keeps its text, counted with them.
  await read(1, 'application/vnd.siren+json');
  const withSiren = keptDocumentStats().bytes;
  assert.ok(withSiren - once >= PAGE * 10_000, `${withSiren - once} bytes more for ${PAGE} Siren texts`);
  await read(1, 'application/vnd.siren+json');
  assert.is(keptDocumentStats().bytes, withSiren, 'a kept text is counted once');
});

kept('should let a document of an older record go as soon as the item\'s new record is listed', async () => {
  const { read, store } = await boardService();
  const notes = api.type('note');
  await read(1, 'application/json');
  await read(1, 'application/vnd.siren+json');
  const before = keptDocumentStats();
  for (let i = 0; i < 20; i++) {
    const current = (await store.get(notes, 'n0-0'))!;
    await store.put(notes, { noteId: 'n0-0', text: `changed ${i}` }, { expect: { revision: current.revision } });
    const page = await read(1, 'application/vnd.siren+json');
    assert.ok(page.includes(`changed ${i}`), 'the page shows the change');
  }
  const after = keptDocumentStats();
  assert.is(after.documents, before.documents, 'one document of the item, the newest');
  assert.ok(after.bytes < before.bytes, `${after.bytes} bytes counted against ${before.bytes} (the new text is short)`);
});

kept('should keep one document of an item whose records follow one another, the only one of its type', () => {
  // A type of its own (another API of the same declarations): nothing else of it is kept.
  const notes = defineApi({ title: 'Notes alone', version: '1.0.0', vocabulary: { prefix: 'bd', iri: 'https://boards.test/vocab#' }, types: [board, note] }).type('note');
  const before = keptDocumentStats().documents;
  for (let revision = 1; revision <= 5; revision++) {
    const record = { noteId: 'alone', text: `v${revision}`, revision: String(revision), modifiedAt: 0 } as StoredItem;
    const doc = keptItemDocument(notes, 'https://boards.test', record, (type, baseUrl, stored) => itemDocument(type, baseUrl, stored));
    assert.is(doc.fields.text, `v${revision}`);
    assert.is(keptDocumentStats().documents, before + 1, `after record ${revision}: one document of the item`);
  }
});

kept('should give a document listed again a second chance when the bound lets the oldest go', () => {
  // A type of its own, documents of 100 KB each (their one link's href): about forty fit the bound.
  const notes = defineApi({ title: 'Notes in turn', version: '1.0.0', vocabulary: { prefix: 'bd', iri: 'https://boards.test/vocab#' }, types: [board, note] }).type('note');
  const long = `https://boards.test/${'x'.repeat(100_000)}`;
  let made = 0;
  const make = (type: typeof notes, baseUrl: string, stored: StoredItem) => {
    made++;
    const doc = itemDocument(type, baseUrl, stored);
    return { ...doc, links: [{ rel: 'self', href: long }] };
  };
  const record = (id: string) => ({ noteId: id, text: id, revision: '1', modifiedAt: 0 }) as StoredItem;
  const hot = record('hot');
  keptItemDocument(notes, 'https://boards.test', hot, make);
  // The hot document is listed again between each of 120 others: three times what the bound holds.
  for (let i = 0; i < 120; i++) {
    keptItemDocument(notes, 'https://boards.test', hot, make);
    keptItemDocument(notes, 'https://boards.test', record(`cold-${i}`), make);
  }
  assert.is(made, 121, 'the hot document was made once, never let go');
  assert.ok(keptDocumentStats().bytes <= KEPT_DOCUMENT_BYTES);
});

kept('should keep listed documents and every format\'s texts of them within the bound in bytes, and render the same', async () => {
  const { read } = await boardService(3);
  const first = new Map<string, string>();
  let most = 0;
  /** Every page of a board twice in every format: the second listing shares the documents, and the formats keep texts. */
  const crawl = async (board: number) => {
    for (let round = 0; round < 2; round++) {
      for (const accept of EVERY_FORMAT) {
        for (let page = 1; page <= NOTES / PAGE; page++) {
          const body = await read(page, accept, board);
          most = Math.max(most, keptDocumentStats().bytes);
          const key = `${board} ${accept} ${page}`;
          if (round === 0) first.set(key, body);
          else assert.is(body, first.get(key), `${key}: the same bytes from kept texts`);
        }
      }
    }
    first.clear();
  };
  await crawl(0);
  gc();
  const filled = process.memoryUsage().heapUsed;
  // Twice as many documents again: without the bound, their texts would hold about 48 MB more.
  await crawl(1);
  await crawl(2);
  gc();
  const more = process.memoryUsage().heapUsed - filled;
  assert.ok(more < 2 * MiB, `${(more / MiB).toFixed(1)} MiB more held after listing twice as many documents`);
  // The texts are counted: they filled the bound, which was never passed.
  assert.ok(most > KEPT_DOCUMENT_BYTES / 2 && most <= KEPT_DOCUMENT_BYTES, `at most ${most} bytes counted, bound ${KEPT_DOCUMENT_BYTES}`);
});

kept.run();
