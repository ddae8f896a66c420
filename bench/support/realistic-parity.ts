// bench/realistic compares both servers' answers before it measures anything: the same status, body and
// header fields (names and values), so that the baseline builds and sends the same bytes as the library.
import { sampleRequests, sampleWrites } from './realistic-loads.js';

/** Fields whose values are the server's own: compared by presence (and, for dates, by form). */
const OWN_VALUES = new Set(['etag', 'date', 'last-modified', 'expires']);
/** Fields of the connection, not of the answer. */
const CONNECTION = new Set(['connection', 'keep-alive']);
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

interface Seen {
  status: number;
  body: string;
  fields: Map<string, string>;
}

async function ask(port: number, r: { method?: string; path: string; headers: Record<string, string>; body?: string }): Promise<Seen> {
  const response = await fetch(`http://127.0.0.1:${port}${r.path}`, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
  const fields = new Map<string, string>();
  response.headers.forEach((value, name) => CONNECTION.has(name) || fields.set(name, value));
  return { status: response.status, body: await response.text(), fields };
}

/** What differs between two answers, empty when none does (`ids`: server-chosen ids to read as one). */
export function differences(a: Seen, b: Seen, ids: [string, string] | undefined): string[] {
  const same = (x: string, y: string) => (ids ? x.replaceAll(ids[0], '{id}') === y.replaceAll(ids[1], '{id}') : x === y);
  const out: string[] = [];
  if (a.status !== b.status) out.push(`status ${a.status} / ${b.status}`);
  if (!same(a.body, b.body)) out.push(`body\n  ${a.body}\n  ${b.body}`);
  for (const name of new Set([...a.fields.keys(), ...b.fields.keys()])) {
    const [x, y] = [a.fields.get(name), b.fields.get(name)];
    if (x === undefined || y === undefined) out.push(`${name}: ${x ?? '(none)'} / ${y ?? '(none)'}`);
    else if (OWN_VALUES.has(name)) {
      if (name !== 'etag' && !(HTTP_DATE.test(x) && HTTP_DATE.test(y))) out.push(`${name}: ${x} / ${y}`);
    } else if (!same(x, y)) out.push(`${name}: ${x} / ${y}`);
  }
  return out;
}

/** The id a created answer names in its Location (the last path segment). */
const createdId = (s: Seen) => s.fields.get('location')?.split('/').pop();

/**
 * Asks both servers the sample reads and writes (sampleRequests, sampleWrites) in turn and throws,
 * naming every difference, unless they answer each with the same status, body and header fields.
 *
 * @example
 * await checkSameAnswers(baselinePort, libraryPort);
 */
export async function checkSameAnswers(baselinePort: number, libraryPort: number): Promise<void> {
  const problems: string[] = [];
  for (const r of [...sampleRequests(), ...sampleWrites()]) {
    const [a, b] = [await ask(baselinePort, r), await ask(libraryPort, r)];
    const [x, y] = [createdId(a), createdId(b)];
    const found = differences(a, b, x && y ? [x, y] : undefined);
    if (found.length > 0) problems.push(`${r.method ?? 'GET'} ${r.path} (${r.headers.accept}, ${r.headers['content-type'] ?? 'no body'}):\n  ${found.join('\n  ')}`);
  }
  if (problems.length > 0) throw new Error(`the baseline and the library answer differently:\n${problems.join('\n')}`);
}
