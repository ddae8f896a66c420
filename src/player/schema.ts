// The JSON Schema of a player (the plain JSON form) and its validator (ajv, compiled once).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { HttpError, type FieldError } from '../http/problem.js';

/**
 * The JSON Schema of a player in its plain JSON form, as stored and as written by PUT and PATCH:
 * the field limits of docs/decisions.md. It uses only keywords that JSON Schema draft-07 and the Swagger 2.0
 * Schema Object share, so the same object serves input validation and the Swagger `Player`
 * definition. `profilePhotoUrl` is server-owned (`readOnly`); `image` is the picture URL a client may
 * give (the avatar redirects to it until one is uploaded).
 *
 * @example
 * import { PLAYER_SCHEMA } from 'player-hypermedia';
 * new Ajv().compile(PLAYER_SCHEMA)({ playerId: 'bob', alias: 'bobby' }); // true
 */
export const PLAYER_SCHEMA = {
  title: 'Player',
  type: 'object',
  required: ['playerId', 'alias'],
  properties: {
    playerId: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,64}$', description: 'Identifier of the player' },
    alias: { type: 'string', minLength: 1, maxLength: 64, description: 'Short handle of the player' },
    displayName: { type: 'string', maxLength: 128, description: 'Full name shown for the player' },
    image: {
      type: 'string',
      format: 'uri',
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
      maxLength: 2048,
      description: 'Absolute http(s) URL of a picture of the player',
    },
    profilePhotoUrl: {
      type: 'string',
      format: 'uri',
      maxLength: 2048,
      readOnly: true,
      description: 'Address of the avatar image, always {baseUrl}/player/{playerId}/avatar.png',
    },
  },
  additionalProperties: false,
} as const;

type FormatsPlugin = (ajv: Ajv, formats?: string[]) => Ajv;
// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import may be the module.
const addFormats = ((formatsPlugin as unknown as { default?: FormatsPlugin }).default ?? formatsPlugin) as unknown as FormatsPlugin;

let compiled: ValidateFunction | undefined;

/** The compiled validator, built on first use so that read-only services never pay for it. */
function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats(ajv, ['uri']);
    compiled = ajv.compile(PLAYER_SCHEMA);
  }
  return compiled;
}

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
  const validate = validator();
  if (validate(document)) return { errors: [], wrongType: false };
  const raw = validate.errors ?? [];
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
