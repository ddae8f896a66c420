// Preconditions of writes (RFC 9110 section 13.1) turned into one compare-and-set expectation for the store.
import { parseEntityTags } from '../http/conditional.js';
import type { RequestContext } from '../service/context.js';
import { listRevisionOfEtag, revisionOfEtag } from './etag.js';
import type { StoredItem } from '../model/documents.js';
import { HttpError } from '../http/problem.js';
import type { Expectation } from '../../stores/contract.js';
import type { Awaitable } from '../service/awaitable.js';

/**
 * The outcome of a write's preconditions: the store expectation that makes check and write one atomic
 * step, or `failed` when the preconditions already cannot hold (412, unless the store replays an
 * idempotent request first).
 *
 * @example
 * const { expect, failed } = await writePreconditions(ctx, () => store.get(type, id));
 */
export interface WriteConditions {
  expect?: Expectation;
  failed: boolean;
  /** Whether the client sent any precondition (then a lost race is 412, not a silent retry). */
  conditional: boolean;
}

/** Options of `writePreconditions`. */
export interface WritePreconditionOptions {
  /** The write may create the target (PUT): `If-None-Match: *` then satisfies `requireIfMatch`. */
  mayCreate?: boolean;
  /** The target is a list of the item: page ETags of the list (and the owner's ETag) are accepted. */
  list?: boolean;
}

/**
 * The 412 answer of a failed write precondition (RFC 9110 section 15.5.13).
 *
 * @example
 * throw preconditionFailed();
 */
export function preconditionFailed(): HttpError {
  return new HttpError(412, 'A precondition of the request (If-Match, If-Unmodified-Since or If-None-Match) does not hold; nothing was written.');
}

/**
 * With the `requireIfMatch` option, a write without If-Match is 428 Precondition Required (RFC 6585
 * section 3); a write that may create its target may send `If-None-Match: *` instead. Cheap, so
 * routes call it before reading the body.
 *
 * @example
 * requireIfMatchWhenConfigured(ctx, { mayCreate: true });
 */
export function requireIfMatchWhenConfigured(ctx: RequestContext, options: WritePreconditionOptions = {}): void {
  if (!ctx.config.requireIfMatch || ctx.head.headers.has('if-match')) return;
  if (options.mayCreate && ctx.head.headers.get('if-none-match')?.trim() === '*') return;
  throw new HttpError(428, 'This service requires If-Match on writes: send the ETag of the version you are changing.');
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Evaluates If-Match, If-Unmodified-Since and If-None-Match of a write in RFC 9110 section 13.2.2
 * order, as an expectation on the item's revision. An ETag of this service starts with the item's
 * revision (`"<revision>-<hash>"`), so `If-Match` becomes `expect.revision` and the store checks it in
 * the same step as the write: of many writers sending the same If-Match, exactly one wins.
 * `loadCurrent` is called only when the current state is needed (several tags, dates, If-None-Match).
 * With `requireIfMatch`, a write without If-Match is 428 (RFC 6585 section 3).
 *
 * @example
 * const c = await writePreconditions(ctx, () => ctx.config.store.get(type, id), { mayCreate: true });
 * if (c.failed) throw preconditionFailed();
 * await ctx.config.store.put(type, data, { expect: c.expect });
 */
export function writePreconditions(
  ctx: RequestContext,
  loadCurrent: () => Promise<StoredItem | undefined>,
  options: WritePreconditionOptions = {},
): Awaitable<WriteConditions> {
  const h = ctx.head.headers;
  const ifMatch = h.get('if-match');
  const ifNoneMatch = h.get('if-none-match');
  const ifUnmodifiedSince = h.get('if-unmodified-since');
  requireIfMatchWhenConfigured(ctx, options);
  // Without preconditions there is nothing to evaluate: answered at once.
  if (ifMatch === null && ifNoneMatch === null && ifUnmodifiedSince === null) return UNCONDITIONAL;
  // If-Match alone (If-Unmodified-Since is then ignored, step 2) naming one revision, or `*`, or none
  // this service gave: decided at once, as every client that echoes an ETag sends it.
  if (ifNoneMatch === null && ifMatch !== null) {
    const step = ifMatchStep(ifMatch, revisionReader(options));
    if (step === 'failed') return FAILED;
    if (!Array.isArray(step)) return { expect: step, failed: false, conditional: true };
  }
  return evaluate(ifMatch, ifNoneMatch, ifUnmodifiedSince, loadCurrent, options);
}

/** Reads the revision an ETag of the target names: a page's tags name the owner's too for a list. */
function revisionReader(options: WritePreconditionOptions): (tag: string) => string | undefined {
  return options.list ? (tag) => listRevisionOfEtag(tag) ?? revisionOfEtag(tag) : revisionOfEtag;
}

/**
 * Step 1, RFC 9110 section 13.1.1 (strong comparison; weak tags never match): the expectation If-Match
 * sets (`*`: the target exists; one revision named: that revision), 'failed' when it names none, or the
 * revisions it names when several, which the current state decides between.
 */
function ifMatchStep(ifMatch: string, revisionOf: (tag: string) => string | undefined): Expectation | 'failed' | string[] {
  const tags = parseEntityTags(ifMatch);
  if (tags === '*') return { exists: true };
  const revisions = [...new Set(tags.filter((t) => !t.startsWith('W/')).map(revisionOf).filter((r) => r !== undefined))];
  if (revisions.length === 0) return 'failed';
  return revisions.length === 1 ? { revision: revisions[0]! } : revisions;
}

const FAILED: WriteConditions = Object.freeze({ failed: true, conditional: true });
const UNCONDITIONAL: WriteConditions = Object.freeze({ failed: false, conditional: false });

/** The preconditions of `writePreconditions` evaluated in order, reading the current state only when needed. */
async function evaluate(
  ifMatch: string | null,
  ifNoneMatch: string | null,
  ifUnmodifiedSince: string | null,
  loadCurrent: () => Promise<StoredItem | undefined>,
  options: WritePreconditionOptions,
): Promise<WriteConditions> {
  const conditional = true;
  const revisionOf = revisionReader(options);
  let current: Promise<StoredItem | undefined> | undefined;
  const load = () => (current ??= loadCurrent());
  const expect: Expectation = {};

  if (ifMatch !== null) {
    const step = ifMatchStep(ifMatch, revisionOf);
    if (step === 'failed') return FAILED;
    if (!Array.isArray(step)) Object.assign(expect, step);
    else {
      const now = await load();
      if (!now || !step.includes(now.revision)) return FAILED;
      expect.revision = now.revision;
    }
  } else if (ifUnmodifiedSince !== null) {
    // Step 2, section 13.1.4: only without If-Match; ignored when not a valid date or nothing exists.
    const since = Date.parse(ifUnmodifiedSince);
    const now = Number.isNaN(since) ? undefined : await load();
    if (now) {
      if (seconds(now.modifiedAt) > seconds(since)) return FAILED;
      expect.revision = now.revision;
    }
  }
  if (ifNoneMatch !== null) {
    // Step 3, section 13.1.2: for a write, a match fails; `*` means "only if nothing exists yet".
    const tags = parseEntityTags(ifNoneMatch);
    if (tags === '*') {
      if (expect.exists === true) return FAILED;
      expect.exists = false;
    } else {
      const now = await load();
      if (now) {
        if (tags.some((t) => revisionOf(t.replace(/^W\//, '')) === now.revision)) return FAILED;
        if (expect.revision !== undefined && expect.revision !== now.revision) return FAILED;
        expect.revision = now.revision;
      }
    }
  }
  return { expect, failed: false, conditional };
}
