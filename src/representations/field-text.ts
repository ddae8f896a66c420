// Writing an item's fields with as few pieces as a hand-written template: the fixed text between two
// values (a closing quote, the next member's name, an opening quote) is one remembered string.
import type { Field, ResourceType } from '../core/model/api.js';
import { flat, jsonChars, jsonNumber, uriChars } from '../core/json/text.js';

/**
 * How a format writes one field in a list of fields: the text before a value (the first, or after a
 * comma) and after it, for a value written inside quotes (a string) or as it is (anything else).
 *
 * @example
 * const members: FieldShape = { before: (f, q) => `"${f.term}":${q}`, after: (_f, q) => q };
 */
export interface FieldShape {
  /** The text before a field's value; `quote` is `"` for a string value, else ''. */
  before(field: Field, quote: string): string;
  /** The text after a field's value. */
  after(field: Field, quote: string): string;
}

/**
 * The fields of one type written in one shape. Between two values sits one remembered flat string
 * (what ends the first and starts the next), so an item's text has two pieces per field, as a
 * hand-written template of that type would: the page that joins a list of them copies fewer pieces.
 */
export class FieldWriter {
  readonly fields: readonly Field[];
  readonly #names: readonly string[];
  readonly #derived: readonly boolean[];
  readonly #shape: FieldShape;
  /** By (previous field + 1, its kind, next field, its kind), or (next field, kind) after the start or a comma. */
  readonly #joins: (string | undefined)[];
  readonly #opens: (string | undefined)[];
  readonly #closes: (string | undefined)[];
  readonly #start: string;
  readonly #end: string;

  /**
   * @param start fixed text before the first field (merged with it into one piece)
   * @param end fixed text after the last field (likewise)
   */
  constructor(fields: readonly Field[], shape: FieldShape, start = '', end = '') {
    this.#start = start;
    this.#end = end;
    this.fields = fields;
    this.#names = fields.map((f) => f.name);
    this.#derived = fields.map((f) => f.derived !== undefined);
    this.#shape = shape;
    const n = fields.length;
    this.#joins = new Array<string | undefined>(n * 2 * n * 2).fill(undefined);
    this.#opens = new Array<string | undefined>(n * 2 * 2).fill(undefined);
    this.#closes = new Array<string | undefined>(n * 2).fill(undefined);
  }

  #open(j: number, kind: number, comma: number): string {
    const at = (j * 2 + kind) * 2 + comma;
    let text = this.#opens[at];
    if (text === undefined) this.#opens[at] = text = flat(this.#start + (comma ? ',' : '') + this.#shape.before(this.fields[j]!, kind ? '"' : ''));
    return text;
  }

  #join(i: number, ki: number, j: number, kj: number): string {
    const n = this.fields.length;
    const at = ((i * 2 + ki) * n + j) * 2 + kj;
    let text = this.#joins[at];
    if (text === undefined) {
      const shape = this.#shape;
      this.#joins[at] = text = flat(`${shape.after(this.fields[i]!, ki ? '"' : '')},${shape.before(this.fields[j]!, kj ? '"' : '')}`);
    }
    return text;
  }

  #close(i: number, kind: number): string {
    const at = i * 2 + kind;
    let text = this.#closes[at];
    if (text === undefined) this.#closes[at] = text = flat(this.#shape.after(this.fields[i]!, kind ? '"' : '') + this.#end);
    return text;
  }

  /**
   * The fields of `values` present (not undefined; `except` left out), in order, each with its
   * text around it; with a leading comma when `comma`; between the writer's `start` and `end`.
   *
   * @example
   * writer.write(item.fields, true); // ',"teamId":"reds","name":"The Reds"'
   */
  write(values: Readonly<Record<string, unknown>>, comma: boolean, except?: string): string {
    const names = this.#names;
    const derived = this.#derived;
    const joins = this.#joins;
    const count = names.length;
    let out = '';
    let previous = -1;
    let previousKind = 0;
    for (let i = 0; i < count; i++) {
      const name = names[i]!;
      const value = values[name];
      if (value === undefined || (except !== undefined && name === except)) continue;
      let kind: number;
      let text: string;
      if (typeof value === 'string') {
        kind = 1;
        text = derived[i] ? uriChars(value) : jsonChars(value);
      } else {
        kind = 0;
        text = typeof value === 'number' ? jsonNumber(value) : (JSON.stringify(value) ?? 'null');
      }
      let piece: string | undefined;
      if (previous < 0) piece = this.#open(i, kind, comma ? 1 : 0);
      else {
        piece = joins[((previous * 2 + previousKind) * count + i) * 2 + kind];
        if (piece === undefined) piece = this.#join(previous, previousKind, i, kind);
      }
      out += piece + text;
      previous = i;
      previousKind = kind;
    }
    return previous < 0 ? this.#start + this.#end : out + this.#close(previous, previousKind);
  }
}

/**
 * One writer per type and shape, made on first use.
 *
 * @example
 * const writer = writerOf(writers, type, (t) => new FieldWriter(t.termOrder, MEMBERS));
 */
export function writerOf(cache: WeakMap<ResourceType, FieldWriter>, type: ResourceType, make: (type: ResourceType) => FieldWriter): FieldWriter {
  let writer = cache.get(type);
  if (writer === undefined) cache.set(type, (writer = make(type)));
  return writer;
}
