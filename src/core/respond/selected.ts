// A selected representation's answers to GET and HEAD (its 304 and 200s), and the preconditions that choose one.
import { evaluatePreconditions, type PreconditionOutcome, type Validators } from '../http/conditional.js';
import { httpDate } from '../http/date.js';
import type { RequestHead } from '../http/request-head.js';
import { Answer } from './answer.js';
import { copyFields, type Fields } from './fields.js';

/**
 * The items whose state a representation shows, by key (`<type>/<id>`: the item itself, the owner of a
 * list, each member on a page), so that a change of any of them retires it; `'all'` for one that any
 * change may alter (a search page: any member may start or stop matching).
 *
 * @example
 * const shows: Dependencies = ['player/alice', 'player/bob'];
 */
export type Dependencies = readonly string[] | 'all';

/**
 * Dependencies, or how to list them when asked: most computed answers are never kept, so the keys of
 * the items a page shows are made only for one that is (or is tagged for a shared cache).
 *
 * @example
 * const later: DependencySource = () => slice.items.map((i) => itemKey('player', i.playerId));
 */
export type DependencySource = Dependencies | (() => readonly string[]);

/**
 * The dependencies of a selected representation, listed (and kept listed) on first use.
 *
 * @example
 * const shows = dependenciesOf(selected); // ['player/alice', 'player/bob'] or 'all'
 */
export function dependenciesOf(selected: SelectedAnswers): Dependencies {
  const source = selected.dependsOn;
  if (typeof source !== 'function') return source;
  const listed = source();
  selected.dependsOn = listed;
  return listed;
}

/**
 * The selected representation (RFC 9110 section 3.2) of a GET or HEAD, as everything that answers
 * requests for it: its validators; the fields its 200 and 304 share except the two that depend on the
 * clock (Date, and Expires = Date + `maxAge`, set when an answer is made); once its body was rendered, what
 * only its 200 carries (`ok`); and what it depends on. It holds for as long as the items it shows are
 * unchanged, whatever the clock says, so it can be kept (AnswerMemo). The answers made from it are
 * reused within a second (`answers`) and never changed once made.
 *
 * @example
 * const answer = answerSelected(ctx.head, selected); // the 304, the 200, 'failed' (412) or undefined (render first)
 */
export interface SelectedAnswers {
  readonly validators: Validators;
  /** The fields a 200 and its 304 share (RFC 9110 section 15.4.5), without Date and Expires. */
  readonly fields: Fields;
  /** Seconds from Date to Expires (the applied policy's max-age, RFC 9111 section 5.3). */
  readonly maxAge: number;
  /** What only the 200 adds: its Content-Type, its own fields (Link, Total-Count...) and its body. */
  ok?: { readonly contentType: string; readonly fields?: ReadonlyMap<string, string> | undefined; readonly body: string | Uint8Array; readonly size: number };
  /** What it depends on, or how to list it (read it with `dependenciesOf`). */
  dependsOn: DependencySource;
  /** The answers made in one second of the clock (each when first asked), reused within it. */
  answers?: { second: number; date: string; expires: string; notModified?: Answer; ok?: Answer; head?: Answer };
}

/**
 * The answer a selected representation gives a GET or HEAD at `now`, preconditions evaluated in RFC
 * 9110 section 13.2.2 order: its 304 (section 15.4.5), `'failed'` for a 412, its 200 (a HEAD's carries
 * the Content-Length GET would send, section 9.3.2), or undefined when the 200 is due and no body was
 * rendered yet. The one place where a GET's preconditions meet its answers, fresh or kept.
 *
 * @example
 * const answer = answerSelected(ctx.head, selected);
 */
export function answerSelected(request: Pick<RequestHead, 'method' | 'headers'>, selected: SelectedAnswers, now = Date.now()): Answer | 'failed' | undefined {
  return answerOf(request, selected, evaluatePreconditions(request, selected.validators), now);
}

/**
 * `answerSelected` for preconditions already evaluated (`outcome`): what a computed answer asks again
 * once its body is rendered, without reading the request's conditional fields a second time.
 *
 * @example
 * const outcome = evaluatePreconditions(ctx.head, selected.validators);
 * const answer = answerOf(ctx.head, selected, outcome);
 */
export function answerOf(request: Pick<RequestHead, 'method'>, selected: SelectedAnswers, outcome: PreconditionOutcome, now = Date.now()): Answer | 'failed' | undefined {
  if (outcome === 'failed') return outcome;
  const second = Math.floor(now / 1000);
  let answers = selected.answers;
  if (answers === undefined || answers.second !== second) {
    answers = selected.answers = { second, date: httpDate(now), expires: httpDate(now + selected.maxAge * 1000) };
  }
  if (outcome === 'not-modified') return (answers.notModified ??= new Answer(304, notModifiedFields(selected.fields, answers), null));
  const ok = selected.ok;
  if (!ok) return undefined;
  answers.ok ??= new Answer(200, okFields(datedFields(selected.fields, answers), ok), ok.body, ok.size);
  if (request.method !== 'HEAD') return answers.ok;
  if (!answers.head) {
    const fields = copyFields(answers.ok.fields);
    fields.set('content-length', String(ok.size));
    answers.head = new Answer(200, fields, null);
  }
  return answers.head;
}

/** A copy of the shared fields with this second's Date and Expires. */
function datedFields(shared: Fields, answers: { date: string; expires: string }): Fields {
  const fields = copyFields(shared);
  fields.set('date', answers.date);
  fields.set('expires', answers.expires);
  return fields;
}

/**
 * A 304's fields: the shared ones dated, without Link. A cache freshening its stored 200 with a 304
 * replaces every stored field the 304 names (RFC 9111 section 4.3.4), so a Link field on a 304 must
 * be the 200's whole Link field or none; the 200's links come from its body, which a 304 never
 * renders: none. RFC 9110 section 15.4.5 does not ask a 304 for Link.
 */
function notModifiedFields(shared: Fields, answers: { date: string; expires: string }): Fields {
  const fields = datedFields(shared, answers);
  fields.delete('link');
  return fields;
}

/** The 200's fields: the shared ones (a fresh copy, changed in place) with its own added; the body's links come before the request's (successor-version): one Link field. */
function okFields(fields: Fields, ok: NonNullable<SelectedAnswers['ok']>): Fields {
  fields.set('content-type', ok.contentType);
  ok.fields?.forEach((value, key) => {
    const current = key === 'link' ? fields.get('link') : undefined;
    fields.set(key, current ? (value ? `${value}, ${current}` : current) : value);
  });
  return fields;
}
