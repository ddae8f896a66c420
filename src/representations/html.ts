// HTML (text/html): browsable pages of items and lists, plain server-rendered HTML with real links and forms.
import { keptItemText, keptTextSlot } from '../core/model/kept-documents.js';
import type { ProblemDetails } from '../core/http/problem.js';
import type { RenderPlan, Representation } from '../core/model/representation.js';
import type { Item, Link, Operation, OperationField, Page, Resource } from '../core/model/resource.js';
import { escapeHtml, html, HTML_MEDIA_TYPE, Markup } from './html-text.js';
import { formatLinks } from './html-format-links.js';

export { escapeHtml, HTML_MEDIA_TYPE } from './html-text.js';


const REL_LABELS: Record<string, string> = { first: 'First', prev: 'Previous', next: 'Next', last: 'Last' };

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}' +
  'a{color:#0b57d0}dt{font-weight:600}dd{margin:0 0 .5rem}nav a{margin-right:1rem}' +
  'form{border:1px solid #ddd;border-radius:6px;padding:1rem;margin:1.5rem 0}label{display:block;margin:.5rem 0}' +
  'input{font:inherit;padding:.25rem;width:100%;box-sizing:border-box}button{font:inherit;margin-top:.5rem}' +
  'img.picture{width:96px;height:96px;border-radius:8px;background:#eee}img.thumb{vertical-align:middle;border-radius:4px}';

const PAGE_HEAD = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>`;
const PAGE_STYLE = `</title>
<style>${STYLE}</style>
</head>
<body>
`;
const PAGE_END = `
</body>
</html>
`;

/** A whole page around its body (plain concatenation: this runs for every HTML answer). */
function page(title: string, body: Markup): string {
  return PAGE_HEAD + escapeHtml(title) + PAGE_STYLE + body.html + PAGE_END;
}

function linkList(links: readonly Link[]): Markup {
  let out = '<ul class="links">';
  for (const l of links) {
    if (l.templated || l.rel === 'self') continue;
    out += `<li><a rel="${escapeHtml(l.rel)}" href="${escapeHtml(l.href)}"${l.type ? ` type="${escapeHtml(l.type)}"` : ''}>${escapeHtml(l.title ?? l.rel)}</a></li>`;
  }
  return new Markup(`${out}</ul>`);
}

function field(f: OperationField, value?: string): string {
  const required = f.required ? ' (required)' : '';
  return (
    `<label>${escapeHtml(f.title)}${required}\n<input name="${escapeHtml(f.name)}" type="${f.type === 'hidden' ? 'hidden' : escapeHtml(f.type)}"` +
    `${f.required ? ' required' : ''}${value !== undefined ? ` value="${escapeHtml(value)}"` : ''}></label>`
  );
}

function form(op: Operation, values: Record<string, string> = {}): Markup | undefined {
  // HTML forms can only GET or POST; POST forms are sent as application/x-www-form-urlencoded.
  if (op.method !== 'GET' && op.method !== 'POST') return undefined;
  const enctype = op.method === 'POST' ? ' enctype="application/x-www-form-urlencoded"' : '';
  const name = escapeHtml(op.name);
  const title = escapeHtml(op.title);
  let fields = '';
  for (const f of op.fields) fields += field(f, values[f.name]);
  return new Markup(
    `<form class="${name}" name="${name}" method="${op.method.toLowerCase()}" action="${escapeHtml(op.href)}"${enctype}>\n<h2>${title}</h2>\n${fields}\n<button type="submit">${title}</button>\n</form>`,
  );
}

function searchForm(resource: Item): Markup | undefined {
  const template = resource.links.find((l) => l.rel === 'search' && l.templated);
  if (!template) return undefined;
  const action = template.href.replace(/\{\?[^}]*\}$/, '');
  return form({
    name: 'search',
    title: template.prompt ?? 'Search',
    method: 'GET',
    href: action,
    contentType: 'application/x-www-form-urlencoded',
    fields: [...(template.variables ?? [{ name: 'search', type: 'search', title: 'Text to find', required: true }])],
  });
}

/** What an item is called: the first of its type's title fields that it has. */
function titleOf(item: Item): string {
  const names = item.type.display.title;
  const fields = item.fields;
  for (let i = 0; i < names.length; i++) {
    const value = fields[names[i]!];
    if (value !== undefined && value !== null && value !== '') return typeof value === 'string' ? value : String(value);
  }
  return item.id;
}

/** An item's fields as a definition list: each by its plain name, links as links, one line each. */
function fieldList(item: Item): Markup {
  const fields = item.type.readable;
  let out = '';
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (i > 0) out += '\n';
    const value = item.fields[f.name];
    if (value === undefined) continue;
    const text = escapeHtml(String(value));
    const name = escapeHtml(f.name);
    out += f.derived || f.input === 'url' ? `<dt>${name}</dt><dd><a href="${text}">${text}</a></dd>` : `<dt>${name}</dt><dd class="${name}">${text}</dd>`;
  }
  return new Markup(out);
}

function renderItem(resource: Item, plan?: RenderPlan): string {
  const title = titleOf(resource);
  const display = resource.type.display;
  const picture = display.picture === undefined ? undefined : resource.fields[display.picture];
  const label = display.picture === undefined ? undefined : resource.type.field(display.picture)!.title;
  const t = escapeHtml(title);
  const image = typeof picture === 'string' ? `<img class="picture" src="${escapeHtml(picture)}" alt="${escapeHtml(String(label))} of ${t}">\n` : '';
  const search = searchForm(resource);
  const formats = formatLinks(resource.url, plan?.formats);
  return page(
    title,
    new Markup(
      `<main class="${escapeHtml(resource.type.name)}">\n<h1>${t}</h1>\n${image}<dl>\n${fieldList(resource).html}\n</dl>\n${linkList(resource.links).html}\n` +
        `${search === undefined ? '' : search.html}\n${formats}\n</main>`,
    ),
  );
}

/** The text of each shared listed item (`keptItemText`). */
const listedTexts = keptTextSlot();

/** A member of a page as a list item: its picture as a thumbnail, its title linking to it, its handle. */
function listItem(item: Item): string {
  const display = item.type.display;
  const picture = display.picture === undefined ? undefined : item.fields[display.picture];
  const handle = display.handle === undefined ? undefined : item.fields[display.handle];
  const url = escapeHtml(item.url);
  const title = escapeHtml(titleOf(item));
  // One template per shape: the text of each item is then a few pieces.
  if (typeof picture === 'string') {
    return handle === undefined
      ? `<li><img class="thumb" src="${escapeHtml(picture)}" alt="" width="24" height="24"> <a class="member" href="${url}">${title}</a></li>`
      : `<li><img class="thumb" src="${escapeHtml(picture)}" alt="" width="24" height="24"> <a class="member" href="${url}">${title}</a> <small>@${escapeHtml(String(handle))}</small></li>`;
  }
  return handle === undefined ? `<li><a class="member" href="${url}">${title}</a></li>` : `<li><a class="member" href="${url}">${title}</a> <small>@${escapeHtml(String(handle))}</small></li>`;
}

function renderPage(resource: Page, plan?: RenderPlan): string {
  const { paging } = resource;
  const owner = resource.owner.id;
  const list = resource.relation.title;
  const title = resource.search !== undefined ? `${list} of ${owner} matching “${resource.search}”` : `${list} of ${owner}`;
  const pager = ['first', 'prev', 'next', 'last']
    .map((rel) => resource.links.find((l) => l.rel === rel))
    .filter((l): l is Link => l !== undefined)
    .map((l) => html`<a rel="${l.rel}" href="${l.href}">${REL_LABELS[l.rel]}</a>`);
  // One list item per member (kept with its document while it is shared), joined into one string.
  const items = new Array<string>(resource.items.length);
  for (let i = 0; i < items.length; i++) items[i] = keptItemText(listedTexts, resource.items[i]!, listItem);
  const forms = resource.operations.map((op) => form(op, op.name === 'search' && resource.search !== undefined ? { search: resource.search } : {}));
  const kind = resource.search !== undefined ? 'search' : resource.relation.name;
  return page(
    paging.totalIsLowerBound ? `${title} (page ${paging.page})` : `${title} (page ${paging.page} of ${paging.lastPage})`,
    html`<main class="${kind}">
<p><a rel="up" href="${resource.owner.url}">&larr; ${owner}</a></p>
<h1>${title}</h1>
${paging.totalIsLowerBound
  ? html`<p class="paging">more than ${paging.total} in all; page <span class="page">${paging.page}</span>, ${paging.size} here.</p>`
  : html`<p class="paging">${paging.total} in all; page <span class="page">${paging.page}</span> of <span class="last-page">${paging.lastPage}</span>, ${paging.size} here.</p>`}
${items.length ? html`<ol class="${resource.relation.name}" start="${(paging.page - 1) * paging.pageSize + 1}">${new Markup(items.join(''))}</ol>` : html`<p class="empty">Nobody here.</p>`}
<nav class="pager">${pager}</nav>
${forms}
${new Markup(formatLinks(resource.url, plan?.formats, resource.search))}
</main>`,
  );
}

/**
 * HTML for browsers: an item page (its title, picture, fields, links, a search form) and pages of a
 * list or a search (the members as links, first/prev/next/last links, the search form and the add form,
 * which posts application/x-www-form-urlencoded). Registered last among the built-in formats, so it is chosen
 * only when a client asks for text/html more than for the JSON formats, as browsers do. Errors are
 * small HTML pages carrying the problem's title and detail.
 *
 * @example
 * const res = await service.fetch(new Request(itemUrl, { headers: { Accept: 'text/html' } }));
 * res.headers.get('content-type'); // 'text/html; charset=utf-8'
 */
export const htmlRepresentation: Representation = {
  name: 'html',
  title: 'HTML',
  mediaType: HTML_MEDIA_TYPE,
  contentType: 'text/html; charset=utf-8',
  render(resource: Resource, plan?: RenderPlan): string {
    return resource.kind === 'item' ? renderItem(resource, plan) : renderPage(resource, plan);
  },
  // An HTML page is text: the description says so, and no more.
  describe: (document) => (document.kind === 'input' || document.kind === 'linkage' ? undefined : { type: 'string' }),
  renderProblem(problem: ProblemDetails): string {
    const errors = (problem.errors ?? []).map((e) => html`<li>${e.pointer ?? e.parameter ?? ''} ${e.detail}</li>`);
    return page(
      `${problem.status} ${problem.title}`,
      html`<main class="problem">
<h1>${problem.status} ${problem.title}</h1>
${problem.detail === undefined ? '' : html`<p class="detail">${problem.detail}</p>`}
${errors.length ? html`<ul class="errors">${errors}</ul>` : ''}
</main>`,
    );
  },
};
