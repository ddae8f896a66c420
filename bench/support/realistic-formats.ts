// The bodies of bench/realistic's hand-written baselines in all eight formats: a player and a page of its
// friends, each built per request as a plain object and written with JSON.stringify (HTML with template
// strings), the same bytes as the library's. What a team writing the Player API by hand would write.
import type { SeedPlayer } from './realistic-data.js';
import { BASE_URL } from './realistic-data.js';

/** A player as a baseline keeps it. */
export interface Stored extends SeedPlayer {
  revision: number | string;
  modifiedAt: number;
}

/** The formats, by media type, and the letter of each in the baselines' ETags. */
export const FORMATS = {
  'application/json': 'j',
  'application/ld+json': 'l',
  'application/hal+json': 'h',
  'application/prs.hal-forms+json': 'f',
  'application/vnd.collection+json': 'c',
  'application/vnd.siren+json': 's',
  'application/vnd.api+json': 'a',
  'text/html': 't',
} as const;

/** A media type of FORMATS. */
export type Format = keyof typeof FORMATS;

/** The Content-Type each format is sent with. */
export const contentTypeOf = (format: Format): string => (format === 'text/html' ? 'text/html; charset=utf-8' : format);

export const urlOf = (id: string): string => `${BASE_URL}/player/${encodeURIComponent(id)}`;

const VOCAB = 'https://w3id.org/player-hypermedia/vocab#';
const CURIES = [{ name: 'ph', href: `${VOCAB}{rel}`, templated: true }];

/** A player in plain JSON. */
export const plain = (p: Stored): object =>
  p.displayName === undefined
    ? { playerId: p.playerId, alias: p.alias, profilePhotoUrl: `${urlOf(p.playerId)}/avatar.png` }
    : { playerId: p.playerId, alias: p.alias, displayName: p.displayName, profilePhotoUrl: `${urlOf(p.playerId)}/avatar.png` };

/** A player's fields by their linked-data names. */
const terms = (p: Stored, url: string) =>
  p.displayName === undefined
    ? { playerId: p.playerId, alternateName: p.alias, image: `${url}/avatar.png` }
    : { playerId: p.playerId, name: p.displayName, alternateName: p.alias, image: `${url}/avatar.png` };

const halPlayer = (p: Stored) => {
  const url = urlOf(p.playerId);
  return {
    _links: {
      self: { href: url },
      curies: CURIES,
      friends: { href: `${url}/friends` },
      avatar: { href: `${url}/avatar.png`, type: 'image/png' },
      search: { href: `${url}/friends/search{?search}`, templated: true },
    },
    ...terms(p, url),
  };
};

const PROPERTIES = {
  name: { name: 'name', prompt: 'Full name', required: false, type: 'text', maxLength: 128 },
  alternateName: { name: 'alternateName', prompt: 'Alias', required: true, type: 'text', maxLength: 64 },
  image: { name: 'image', prompt: 'Picture URL', required: false, type: 'url', maxLength: 2048 },
};
const addFriendTemplate = (url: string) => ({ title: 'Add a friend', method: 'POST', contentType: 'application/json', target: `${url}/friends`, properties: [PROPERTIES.name, PROPERTIES.alternateName, PROPERTIES.image] });
const searchTemplate = (url: string) => ({ title: 'Search friends', method: 'GET', target: `${url}/friends/search`, properties: [{ name: 'search', prompt: 'Text in alias or name', required: true, type: 'search' }] });

const halFormsPlayer = (p: Stored) => {
  const url = urlOf(p.playerId);
  const alias: Record<string, unknown> = { name: 'alias', prompt: 'Alias', required: true, type: 'text', value: p.alias, maxLength: 64 };
  const displayName: Record<string, unknown> = { name: 'displayName', prompt: 'Full name', required: false, type: 'text' };
  if (p.displayName !== undefined) displayName.value = p.displayName;
  displayName.maxLength = 128;
  return {
    ...halPlayer(p),
    _templates: {
      default: { title: 'Update the player', method: 'PUT', contentType: 'application/json', target: url, properties: [alias, displayName, { name: 'image', prompt: 'Picture URL', required: false, type: 'url', maxLength: 2048 }] },
      addFriend: addFriendTemplate(url),
      search: searchTemplate(url),
    },
  };
};

const cjLinks = (url: string) => [
  { rel: 'friends', href: `${url}/friends`, prompt: 'Friends', render: 'link' },
  { rel: 'avatar', href: `${url}/avatar.png`, prompt: 'Avatar', render: 'image' },
];
const cjItem = (p: Stored) => {
  const url = urlOf(p.playerId);
  const data: { name: string; value: string; prompt: string }[] = [{ name: 'playerId', value: p.playerId, prompt: 'Player id' }];
  if (p.displayName !== undefined) data.push({ name: 'name', value: p.displayName, prompt: 'Full name' });
  data.push({ name: 'alternateName', value: p.alias, prompt: 'Alias' }, { name: 'image', value: `${url}/avatar.png`, prompt: 'Picture URL' });
  return { href: url, data, links: cjLinks(url) };
};
const cjSearch = (url: string) => [{ rel: 'search', href: `${url}/friends/search`, name: 'search', prompt: 'Search friends', data: [{ name: 'search', value: '', prompt: 'Text in alias or name' }] }];

const sirenRel = (rel: string) => [`${VOCAB}${rel}`];
const sirenProperties = (p: Stored) => terms(p, urlOf(p.playerId));
const sirenSearch = (url: string, title: string, fieldTitle: string) => ({
  name: 'search',
  class: ['search'],
  title,
  method: 'GET',
  href: `${url}/friends/search`,
  type: 'application/x-www-form-urlencoded',
  fields: [{ name: 'search', type: 'search', title: fieldTitle }],
});

const jsonApiAttributes = (p: Stored) => {
  const url = urlOf(p.playerId);
  return p.displayName === undefined ? { alternateName: p.alias, image: `${url}/avatar.png` } : { name: p.displayName, alternateName: p.alias, image: `${url}/avatar.png` };
};

/** The JSON-LD context of the Player API, inline in every document (as the library writes it). */
const CONTEXT = {
  schema: 'https://schema.org/',
  hydra: 'http://www.w3.org/ns/hydra/core#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  ph: VOCAB,
  Person: 'schema:Person',
  playerId: 'ph:playerId',
  name: 'schema:name',
  alternateName: 'schema:alternateName',
  image: { '@id': 'schema:image', '@type': '@id' },
  friends: { '@id': 'ph:friends', '@type': '@id' },
  friendsOf: { '@reverse': 'ph:friends', '@type': '@id' },
  Collection: 'hydra:Collection',
  FriendList: 'ph:FriendList',
  PartialCollectionView: 'hydra:PartialCollectionView',
  collection: { '@id': 'hydra:collection', '@type': '@id' },
  member: { '@id': 'hydra:member', '@type': '@id' },
  totalItems: 'hydra:totalItems',
  size: 'ph:size',
  view: { '@id': 'hydra:view', '@type': '@id' },
  first: { '@id': 'hydra:first', '@type': '@id' },
  previous: { '@id': 'hydra:previous', '@type': '@id' },
  next: { '@id': 'hydra:next', '@type': '@id' },
  last: { '@id': 'hydra:last', '@type': '@id' },
  Operation: 'hydra:Operation',
  operation: 'hydra:operation',
  method: 'hydra:method',
  title: 'hydra:title',
  expects: { '@id': 'hydra:expects', '@type': '@vocab' },
  Class: 'hydra:Class',
  SupportedProperty: 'hydra:SupportedProperty',
  supportedProperty: 'hydra:supportedProperty',
  property: { '@id': 'hydra:property', '@type': '@vocab' },
  required: 'hydra:required',
  range: { '@id': 'rdfs:range', '@type': '@vocab' },
  search: 'hydra:search',
  IriTemplate: 'hydra:IriTemplate',
  IriTemplateMapping: 'hydra:IriTemplateMapping',
  template: 'hydra:template',
  mapping: 'hydra:mapping',
  variable: 'hydra:variable',
  variableRepresentation: { '@id': 'hydra:variableRepresentation', '@type': '@vocab' },
  BasicRepresentation: 'hydra:BasicRepresentation',
  freetextQuery: 'hydra:freetextQuery',
};
const jsonLdNode = (p: Stored) => {
  const url = urlOf(p.playerId);
  return { '@id': url, '@type': 'Person', ...terms(p, url), friends: `${url}/friends` };
};
const supported = (id: string, range: string, required: boolean, title: string) => ({ '@type': 'SupportedProperty', property: { '@id': id, range }, required, title });

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}' +
  'a{color:#0b57d0}dt{font-weight:600}dd{margin:0 0 .5rem}nav a{margin-right:1rem}' +
  'form{border:1px solid #ddd;border-radius:6px;padding:1rem;margin:1.5rem 0}label{display:block;margin:.5rem 0}' +
  'input{font:inherit;padding:.25rem;width:100%;box-sizing:border-box}button{font:inherit;margin-top:.5rem}' +
  'img.picture{width:96px;height:96px;border-radius:8px;background:#eee}img.thumb{vertical-align:middle;border-radius:4px}';
const TITLES: [string, string][] = [
  ['application/json', 'JSON'],
  ['application/ld+json', 'JSON-LD'],
  ['application/hal+json', 'HAL'],
  ['application/prs.hal-forms+json', 'HAL-FORMS'],
  ['application/vnd.collection+json', 'Collection+JSON'],
  ['application/vnd.siren+json', 'Siren'],
  ['application/vnd.api+json', 'JSON:API'],
];
const htmlPage = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escape(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
const htmlFormats = (url: string) => {
  const sep = url.includes('?') ? '&amp;' : '?';
  return `<nav class="formats">This page in ${TITLES.map(([type, title]) => `<a rel="alternate" type="${type}" href="${escape(url)}${sep}mediaType=${encodeURIComponent(type)}">${title}</a>`).join('')}</nav>`;
};
const SEARCH_FORM = (url: string) =>
  `<form class="search" name="search" method="get" action="${escape(url)}/friends/search">\n<h2>Search friends</h2>\n<label>Text in alias or name (required)\n<input name="search" type="search" required></label>\n<button type="submit">Search friends</button>\n</form>`;

/**
 * GET /player/{id} in `format`. `linkage` is the ids of the first page of its friends and their total
 * (JSON:API's relationship shows them), with `pageSize` and the list's last page.
 */
export function playerBody(format: Format, p: Stored, linkage: { ids: string[]; total: number; pageSize: number }): string {
  const url = urlOf(p.playerId);
  switch (format) {
    case 'application/json':
      return JSON.stringify(plain(p));
    case 'application/hal+json':
      return JSON.stringify(halPlayer(p));
    case 'application/prs.hal-forms+json':
      return JSON.stringify(halFormsPlayer(p));
    case 'application/ld+json':
      return JSON.stringify({ '@context': CONTEXT, ...jsonLdNode(p) });
    case 'application/vnd.collection+json':
      return JSON.stringify({ collection: { version: '1.0', href: url, links: cjLinks(url), items: [cjItem(p)], queries: cjSearch(url) } });
    case 'application/vnd.siren+json':
      return JSON.stringify({
        class: ['player'],
        properties: sirenProperties(p),
        actions: [sirenSearch(url, 'search', 'search')],
        links: [{ rel: ['self'], href: url }, { rel: sirenRel('friends'), href: `${url}/friends` }, { rel: sirenRel('avatar'), href: `${url}/avatar.png`, type: 'image/png' }],
      });
    case 'application/vnd.api+json': {
      const last = Math.max(1, Math.ceil(linkage.total / linkage.pageSize));
      const links: Record<string, string> = { self: `${url}/relationships/friends`, related: `${url}/friends`, first: `${url}/relationships/friends?page=1` };
      if (last > 1) links.next = `${url}/relationships/friends?page=2`;
      links.last = `${url}/relationships/friends?page=${last}`;
      const friends = { links, data: linkage.ids.map((id) => ({ type: 'players', id })), meta: { total: linkage.total } };
      return JSON.stringify({ data: { type: 'players', id: p.playerId, attributes: jsonApiAttributes(p), relationships: { friends }, links: { self: url } }, links: { self: url }, jsonapi: { version: '1.0' } });
    }
    case 'text/html': {
      const title = p.displayName ?? p.alias;
      const fields = [`<dt>playerId</dt><dd class="playerId">${escape(p.playerId)}</dd>`, `<dt>alias</dt><dd class="alias">${escape(p.alias)}</dd>`];
      // A field without a value leaves an empty line, as the library's page does.
      fields.push(p.displayName === undefined ? '' : `<dt>displayName</dt><dd class="displayName">${escape(p.displayName)}</dd>`);
      fields.push(`<dt>profilePhotoUrl</dt><dd><a href="${escape(url)}/avatar.png">${escape(url)}/avatar.png</a></dd>`);
      return htmlPage(
        title,
        `<main class="player">\n<h1>${escape(title)}</h1>\n<img class="picture" src="${escape(url)}/avatar.png" alt="Avatar of ${escape(title)}">\n<dl>\n${fields.join('\n')}\n</dl>\n` +
          `<ul class="links"><li><a rel="friends" href="${escape(url)}/friends">friends</a></li><li><a rel="avatar" href="${escape(url)}/avatar.png" type="image/png">avatar</a></li></ul>\n` +
          `${SEARCH_FORM(url)}\n${htmlFormats(url)}\n</main>`,
      );
    }
  }
}

/** GET /player/{id}/friends?page=N in `format`: `items` are the page's players of a list of `total`; `links` the paging links. */
export function pageBody(format: Format, ownerId: string, items: Stored[], total: number, page: number, pageSize: number, links: [string, string][]): string {
  const ownerUrl = urlOf(ownerId);
  const last = Math.max(1, Math.ceil(total / pageSize));
  const self = `${ownerUrl}/friends?page=${page}`;
  switch (format) {
    case 'application/json':
      return JSON.stringify(items.map(plain));
    case 'application/hal+json':
    case 'application/prs.hal-forms+json': {
      const _links: Record<string, unknown> = {};
      for (const [rel, href] of links) {
        _links[rel] = { href };
        if (rel === 'self') _links.curies = CURIES;
      }
      _links.search = { href: `${ownerUrl}/friends/search{?search}`, templated: true };
      const embedded = items.map((p) => {
        const url = urlOf(p.playerId);
        return { _links: { self: { href: url }, friends: { href: `${url}/friends` } }, ...terms(p, url) };
      });
      const hal = { _links, size: String(items.length), total, page, _embedded: { player: embedded } };
      return JSON.stringify(format === 'application/hal+json' ? hal : { ...hal, _templates: { default: addFriendTemplate(ownerUrl), search: searchTemplate(ownerUrl) } });
    }
    case 'application/ld+json': {
      const view: Record<string, unknown> = { '@id': self, '@type': 'PartialCollectionView', size: String(items.length) };
      for (const [rel, href] of links) {
        if (rel === 'first' || rel === 'next' || rel === 'last') view[rel] = href;
        else if (rel === 'prev') view.previous = href;
      }
      const expects = {
        '@id': 'schema:Person',
        '@type': 'Class',
        supportedProperty: [supported('schema:name', 'xsd:string', false, 'Full name'), supported('schema:alternateName', 'xsd:string', true, 'Alias'), supported('schema:image', 'schema:URL', false, 'Picture URL')],
      };
      return JSON.stringify({
        '@context': CONTEXT,
        '@id': `${ownerUrl}/friends`,
        '@type': ['Collection', 'FriendList'],
        friendsOf: ownerUrl,
        totalItems: total,
        member: items.map(jsonLdNode),
        view,
        operation: [{ '@type': 'Operation', method: 'POST', title: 'Add a friend', expects }],
        search: {
          '@type': 'IriTemplate',
          template: `${ownerUrl}/friends/search{?search}`,
          variableRepresentation: 'BasicRepresentation',
          mapping: [{ '@type': 'IriTemplateMapping', variable: 'search', property: 'freetextQuery', required: true }],
        },
      });
    }
    case 'application/vnd.collection+json': {
      const prompts: Record<string, string> = { self: 'This page', first: 'First page', prev: 'Previous page', next: 'Next page', last: 'Last page', up: 'Owner of the list' };
      const template = { data: [{ name: 'playerId', value: '', prompt: 'Player id' }, { name: 'name', value: '', prompt: 'Full name' }, { name: 'alternateName', value: '', prompt: 'Alias' }, { name: 'image', value: '', prompt: 'Picture URL' }] };
      return JSON.stringify({
        collection: { version: '1.0', href: `${ownerUrl}/friends`, links: links.map(([rel, href]) => ({ rel, href, prompt: prompts[rel], render: 'link' })), items: items.map(cjItem), queries: cjSearch(ownerUrl), template },
      });
    }
    case 'application/vnd.siren+json': {
      const entities = items.map((p) => {
        const url = urlOf(p.playerId);
        return { class: ['player'], rel: ['item'], properties: sirenProperties(p), links: [{ rel: ['self'], href: url }, { rel: sirenRel('friends'), href: `${url}/friends` }] };
      });
      const add = {
        name: 'add-friend',
        class: ['add-friend'],
        title: 'Add a friend',
        method: 'POST',
        href: `${ownerUrl}/friends`,
        type: 'application/x-www-form-urlencoded',
        fields: [{ name: 'name', type: 'text', title: 'Full name' }, { name: 'alternateName', type: 'text', title: 'Alias' }, { name: 'image', type: 'url', title: 'Picture URL' }],
      };
      return JSON.stringify({
        class: ['friends', 'collection'],
        properties: { size: String(items.length), page, pageSize, total, lastPage: last },
        entities,
        actions: [add, sirenSearch(ownerUrl, 'Search friends', 'Text in alias or name')],
        links: links.map(([rel, href]) => ({ rel: [rel], href })),
      });
    }
    case 'application/vnd.api+json': {
      const data = items.map((p) => {
        const url = urlOf(p.playerId);
        return { type: 'players', id: p.playerId, attributes: jsonApiAttributes(p), relationships: { friends: { links: { self: `${url}/relationships/friends`, related: `${url}/friends` } } }, links: { self: url } };
      });
      const top = Object.fromEntries(links.filter(([rel]) => rel !== 'up'));
      return JSON.stringify({ data, links: top, meta: { total, page, pageSize, lastPage: last, size: String(items.length) }, jsonapi: { version: '1.0' } });
    }
    case 'text/html': {
      const labels: Record<string, string> = { first: 'First', prev: 'Previous', next: 'Next', last: 'Last' };
      const members = items
        .map((p) => {
          const url = urlOf(p.playerId);
          return `<li><img class="thumb" src="${escape(url)}/avatar.png" alt="" width="24" height="24"> <a class="member" href="${escape(url)}">${escape(p.displayName ?? p.alias)}</a> <small>@${escape(p.alias)}</small></li>`;
        })
        .join('');
      const pager = links.filter(([rel]) => labels[rel]).map(([rel, href]) => `<a rel="${rel}" href="${escape(href)}">${labels[rel]}</a>`).join('');
      const add =
        `<form class="add-friend" name="add-friend" method="post" action="${escape(ownerUrl)}/friends" enctype="application/x-www-form-urlencoded">\n<h2>Add a friend</h2>\n` +
        `<label>Full name\n<input name="name" type="text"></label><label>Alias (required)\n<input name="alternateName" type="text" required></label><label>Picture URL\n<input name="image" type="url"></label>\n` +
        `<button type="submit">Add a friend</button>\n</form>`;
      const list = items.length ? `<ol class="friends" start="${(page - 1) * pageSize + 1}">${members}</ol>` : '<p class="empty">Nobody here.</p>';
      return htmlPage(
        `Friends of ${ownerId} (page ${page} of ${last})`,
        `<main class="friends">\n<p><a rel="up" href="${escape(ownerUrl)}">&larr; ${escape(ownerId)}</a></p>\n<h1>Friends of ${escape(ownerId)}</h1>\n` +
          `<p class="paging">${total} in all; page <span class="page">${page}</span> of <span class="last-page">${last}</span>, ${items.length} here.</p>\n${list}\n` +
          `<nav class="pager">${pager}</nav>\n${add}${SEARCH_FORM(ownerUrl)}\n${htmlFormats(self)}\n</main>`,
      );
    }
  }
}
