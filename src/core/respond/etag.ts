// Entity tags (RFC 9110 section 8.8.3) computed from store revisions, without rendering the body.

/** Changes when the rendering code changes in a way that changes bodies; part of every ETag. */
export const RENDER_GENERATION = '2';

/**
 * A fast 53-bit string hash (cyrb53), in base 36. Not cryptographic: ETags are opaque validators,
 * and every input that changes a body is part of the hashed string.
 *
 * @example
 * hashString('hello'); // a short base-36 string, always the same for 'hello'
 */
export function hashString(input: string): string {
  // Not remembered: the inputs carry revisions, so under writes they rarely repeat, and a kept input
  // (a page's is a few hundred characters) outlives the young generation for nothing.
  return cyrb53(input);
}

function cyrb53(input: string): string {
  return new TagInput(false).add(input).digest();
}

/** cyrb53's multipliers. */
const M1 = 2654435761;
const M2 = 1597334677;

/**
 * What an ETag depends on (RFC 9110 section 8.8.3: everything a body depends on: format, variants,
 * the absolute URL, store revisions, the render generation), hashed as it is given, piece by piece
 * (cyrb53 reads one character at a time, so the pieces hash as their concatenation would), without
 * joining them into one string first. Starts with the render generation, unless `generation` is false.
 * An item's tag puts its revision first, so a write's If-Match becomes a compare-and-set
 * (`revisionOfEtag`); a page's puts the owner's revision first (`listRevisionOfEtag`).
 *
 * @example
 * new TagInput().addRepresentation('hal', undefined, undefined, 'https://x.test/player/bob').itemTag('17'); // '"17-..."'
 */
export class TagInput {
  #h1 = 0xdeadbeef;
  #h2 = 0x41c6ce57;

  constructor(generation = true) {
    if (generation) this.add(RENDER_GENERATION).add('|');
  }

  /** Adds a piece of text. */
  add(text: string): this {
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, M1);
      h2 = Math.imul(h2 ^ ch, M2);
    }
    this.#h1 = h1;
    this.#h2 = h2;
    return this;
  }

  /**
   * Adds a slice of a list: its total, then each member's id and revision (`|id:revision`). Ids are
   * included so that a store whose revisions are per item still gives another tag for another list.
   */
  addSlice(slice: { total: number; items: readonly { revision: string }[] }, idField: string): this {
    this.add(String(slice.total));
    // As `add('|').add(id).add(':').add(revision)` for each member, with the state in locals for the
    // whole slice: the hash of a page's members is most of its ETag's cost.
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (const p of slice.items) {
      const id = (p as unknown as Record<string, string>)[idField]!;
      const revision = p.revision;
      h1 = Math.imul(h1 ^ 0x7c, M1); // '|'
      h2 = Math.imul(h2 ^ 0x7c, M2);
      for (let i = 0; i < id.length; i++) {
        const ch = id.charCodeAt(i);
        h1 = Math.imul(h1 ^ ch, M1);
        h2 = Math.imul(h2 ^ ch, M2);
      }
      h1 = Math.imul(h1 ^ 0x3a, M1); // ':'
      h2 = Math.imul(h2 ^ 0x3a, M2);
      for (let i = 0; i < revision.length; i++) {
        const ch = revision.charCodeAt(i);
        h1 = Math.imul(h1 ^ ch, M1);
        h2 = Math.imul(h2 ^ ch, M2);
      }
    }
    this.#h1 = h1;
    this.#h2 = h2;
    return this;
  }

  /**
   * Adds a slice of a list shown by its members' ids only (`RenderPlan.linkage`): its total, then each
   * member's id (`|id`). The owner's revision, in the tag already, changes with its lists.
   */
  addSliceIds(slice: { total: number; items: readonly object[] }, idField: string): this {
    this.add(String(slice.total));
    for (const p of slice.items) this.add('|').add((p as Record<string, string>)[idField]!);
    return this;
  }

  /** The hash of everything added, in base 36. */
  digest(): string {
    let h1 = this.#h1;
    let h2 = this.#h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return base36(4294967296 * (2097151 & h2) + (h1 >>> 0));
  }

  /** The strong ETag of an item at `revision`: `"<revision>-<hash>"`. */
  itemTag(revision: string): string {
    return `"${revision}-${this.digest()}"`;
  }

  /** The strong ETag of a list page: `"p<owner revision>-<hash>"`. */
  pageTag(ownerRevision = ''): string {
    return `"p${ownerRevision}-${this.digest()}"`;
  }

  /**
   * Adds which representation of which URL a body is (`format|planVariant|requestVariant|url`): the
   * format, its variant, the request's own variant (the API version served) and the absolute URL (so
   * the base URL, a path prefix or a proxy's Host change it, as they change links).
   */
  addRepresentation(format: string, planVariant: string | undefined, requestVariant: string | undefined, url: string): this {
    return this.add(format).add('|').add(planVariant ?? '').add('|').add(requestVariant ?? '').add('|').add(url);
  }
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * `n.toString(36)` for a non-negative integer below 2^53, by exact division: V8's radix conversion of a
 * double is general (fractions included) and several times slower, and every computed answer's
 * ETag goes through here.
 */
function base36(n: number): string {
  let out = '';
  do {
    const q = Math.floor(n / 36);
    out = DIGITS[n - q * 36] + out;
    n = q;
  } while (n > 0);
  return out;
}

/**
 * The owner's revision a page ETag (`TagInput.pageTag`) carries, or undefined for any other tag.
 *
 * @example
 * listRevisionOfEtag('"p41-1x2y3z"'); // '41'
 */
export function listRevisionOfEtag(etag: string): string | undefined {
  const m = /^"p([^"-]+)-[0-9a-z]+"$/.exec(etag);
  return m?.[1];
}

/**
 * The store revision an item ETag (`TagInput.itemTag`) carries, or undefined for any other tag.
 *
 * @example
 * revisionOfEtag('"17-1x2y3z"'); // '17'
 * revisionOfEtag('W/"17-1x2y3z"'); // undefined (weak tags never match If-Match)
 */
export function revisionOfEtag(etag: string): string | undefined {
  // Page tags ("p-..." and "p<owner revision>-...") carry no revision of their own.
  const m = /^"(?!p)([^"-]+)-[0-9a-z]+"$/.exec(etag);
  return m?.[1];
}
