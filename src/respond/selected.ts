// A selected representation's answers to GET and HEAD (its 304 and 200s), and the preconditions that choose one.
import { evaluatePreconditions, type Validators } from '../http/conditional.js';
import type { RequestHead } from '../http/request-head.js';
import { Answer } from './answer.js';

/**
 * The answers of one selected representation (RFC 9110 section 3.2) to a GET or HEAD: its validators,
 * its 304, and once its body was rendered, its 200 (`ok`; `head` is the 200 to a HEAD, made on demand).
 * One object answers every request for the same representation, so it can be kept (AnswerMemo): its
 * answers are never changed once made.
 *
 * @example
 * const answer = answerSelected(ctx.head, selected); // the 304, the 200, 'failed' (412) or undefined (render first)
 */
export interface SelectedAnswers {
  validators: Validators;
  notModified: Answer;
  ok?: Answer;
  head?: Answer;
}

/**
 * The answer a selected representation gives a GET or HEAD, preconditions evaluated in RFC 9110
 * section 13.2.2 order: its 304 (section 15.4.5), `'failed'` for a 412, its 200 (a HEAD's carries the
 * Content-Length GET would send, section 9.3.2), or undefined when the 200 is due and no body was
 * rendered yet. The one place where a GET's preconditions meet its answers, fresh or kept.
 *
 * @example
 * const answer = answerSelected(ctx.head, selected);
 */
export function answerSelected(request: Pick<RequestHead, 'method' | 'headers'>, selected: SelectedAnswers): Answer | 'failed' | undefined {
  const outcome = evaluatePreconditions(request, selected.validators);
  if (outcome === 'not-modified') return selected.notModified;
  if (outcome === 'failed') return outcome;
  const ok = selected.ok;
  if (!ok || request.method !== 'HEAD') return ok;
  if (!selected.head) {
    const fields = new Map(ok.fields);
    fields.set('content-length', String((ok.body as Uint8Array).byteLength));
    selected.head = new Answer(200, fields, null);
  }
  return selected.head;
}
