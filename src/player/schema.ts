// The JSON Schema of a player (the plain JSON form) and its validation, with errors as pointers.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { validate as validatePlayer } from './player-validator.generated.js';
import { HttpError, type FieldError } from '../core/http/problem.js';

export { PLAYER_SCHEMA } from './schema-document.js';

/** The player schema's validator: ajv's code for PLAYER_SCHEMA, generated ahead (no code is compiled at run time). */
const validator = validatePlayer as unknown as ValidateFunction;

/**
 * The outcome of validating a document against the player schema.
 *
 * @example
 * const check: SchemaCheck = checkPlayerSchema(body);
 * if (check.errors.length) console.log(check.errors);
 */
export interface SchemaCheck {
  /** One entry per broken rule, with a JSON Pointer (RFC 6901) to the member. */
  errors: FieldError[];
  /** Whether some member (or the document) has the wrong JSON type. */
  wrongType: boolean;
}

/** Escapes one reference token of a JSON Pointer (RFC 6901 section 4). */
function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function toFieldError(e: ErrorObject): FieldError {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return { pointer: `${e.instancePath}/${escapeToken(String(params.missingProperty))}`, detail: 'is required' };
  if (e.keyword === 'additionalProperties') {
    return { pointer: `${e.instancePath}/${escapeToken(String(params.additionalProperty))}`, detail: 'is not a member of a player' };
  }
  if (e.keyword === 'pattern' && e.instancePath === '/playerId') return { pointer: e.instancePath, detail: 'must be 1 to 64 characters of A-Z a-z 0-9 . _ ~ -' };
  if (e.keyword === 'pattern' || e.keyword === 'format') return { pointer: e.instancePath, detail: 'must be an absolute http or https URL' };
  return { pointer: e.instancePath, detail: e.message ?? e.keyword };
}

/**
 * Validates a document against PLAYER_SCHEMA.
 *
 * @example
 * checkPlayerSchema({ playerId: 'bob', alias: '' }).errors; // [{ pointer: '/alias', detail: 'must NOT have fewer than 1 characters' }]
 */
export function checkPlayerSchema(document: unknown): SchemaCheck {
  if (validator(document)) return { errors: [], wrongType: false };
  const raw = validator.errors ?? [];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of raw) {
    const fe = toFieldError(e);
    const key = `${fe.pointer}|${fe.detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(fe);
  }
  return { errors, wrongType: raw.some((e) => e.keyword === 'type') };
}

/**
 * Throws unless `document` is a valid player: 400 when a member has the wrong JSON type (malformed
 * input), 422 when it is well-formed but breaks a rule (docs/decisions.md). `wrongTypeStatus` lets PATCH
 * answer 422 for a patched result of the wrong type. `rename` maps a plain field name back to the
 * member the client sent (e.g. `/alias` → `/alternateName`), so pointers name the client's own members.
 *
 * @example
 * requireValidPlayer({ playerId: 'bob', alias: 'bobby' }); // passes
 * requireValidPlayer({ playerId: 'bob', alias: 7 });        // throws HttpError 400
 */
export function requireValidPlayer(
  document: unknown,
  options: { wrongTypeStatus?: 400 | 422; rename?: Readonly<Record<string, string>> } = {},
): void {
  const { errors, wrongType } = checkPlayerSchema(document);
  if (errors.length === 0) return;
  const rename = options.rename ?? {};
  const named = errors.map((e) => {
    const top = /^\/([^/]*)/.exec(e.pointer ?? '')?.[1];
    const pointer = top !== undefined && Object.hasOwn(rename, top) ? rename[top] : undefined;
    return pointer !== undefined ? { ...e, pointer: pointer + (e.pointer ?? '').slice(top!.length + 1) } : e;
  });
  const status = wrongType ? (options.wrongTypeStatus ?? 400) : 422;
  const detail = status === 400 ? 'The player has members of the wrong JSON type.' : 'The player breaks the player schema.';
  throw new HttpError(status, detail, { errors: named });
}
