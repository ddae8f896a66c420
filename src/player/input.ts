// From a client's description of a player (PUT, POST, PATCH result) to validated PlayerData.
import { isValidPlayerId, type PlayerData, type StoredPlayer } from './player.js';
import { avatarUrl } from './urls.js';
import { requireValidPlayer } from './schema.js';
import { HttpError } from '../core/http/problem.js';
import type { ItemInput as PlayerInput } from '../core/model/representation.js';

/** What a client's player document is checked against. */
export interface PlayerTarget {
  /** The id the player has (from the URL, or chosen by the server). */
  playerId: string;
  /** The base URL of this response, for the server-owned profilePhotoUrl. */
  baseUrl: string;
  /** The player as stored now, if it exists: its picture URL is kept when the document has none. */
  current?: StoredPlayer;
  /** Status for members of the wrong JSON type: 400 for request bodies, 422 for a patched result. */
  wrongTypeStatus?: 400 | 422;
  /** Where each plain field came from in the request body (see PlayerInput.pointers). */
  pointers?: Readonly<Record<string, string>>;
}

function unprocessable(detail: string, pointer: string, fieldDetail: string): HttpError {
  return new HttpError(422, detail, { errors: [{ pointer, detail: fieldDetail }] });
}

/** The player fields a document may leave out, and so send empty (see playerDataFromDocument). */
const OPTIONAL_FIELDS = ['displayName', 'image'] as const;

/**
 * Validates a client's plain JSON player (a PUT body, a patched document) and turns it into the data
 * to store. Rules (docs/decisions.md): the document must satisfy PLAYER_SCHEMA (unknown
 * members rejected); a `playerId` must equal the target's; `profilePhotoUrl` is server-owned and
 * accepted only when equal to the server's value; `image` equal to the player's own avatar URL (what
 * the alternate formats show as `image`) means "unchanged", and a missing `image` keeps the stored one.
 *
 * @example
 * playerDataFromDocument({ alias: 'bobby' }, { playerId: 'bob', baseUrl: 'https://x.test' });
 * // { playerId: 'bob', alias: 'bobby' }
 */
export function playerDataFromDocument(document: unknown, target: PlayerTarget): PlayerData {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new HttpError(target.wrongTypeStatus ?? 400, 'A player is a JSON object.', { errors: [{ pointer: '', detail: 'must be object' }] });
  }
  const doc = document as Record<string, unknown>;
  const ownAvatar = avatarUrl(target.baseUrl, target.playerId);
  const candidate: Record<string, unknown> = { ...doc, playerId: Object.hasOwn(doc, 'playerId') ? doc.playerId : target.playerId };
  // The avatar URL shown as `image` by the alternate formats is not a picture URL to store.
  if (candidate.image === ownAvatar) delete candidate.image;
  // An optional field sent empty is a field left out: a form client (HAL-FORMS, Siren, an HTML form)
  // submits every property of a template, an optional one it was given nothing for as "" (the
  // HAL-FORMS property `value` defaults to ""). docs/decisions.md, "Empty optional values".
  for (const optional of OPTIONAL_FIELDS) if (candidate[optional] === '') delete candidate[optional];
  const rename = target.pointers ?? {};
  requireValidPlayer(candidate, { wrongTypeStatus: target.wrongTypeStatus ?? 400, rename });
  if (candidate.playerId !== target.playerId) {
    throw unprocessable('The playerId of the body differs from the player addressed.', (Object.hasOwn(rename, 'playerId') ? rename.playerId! : '/playerId'), `must be "${target.playerId}"`);
  }
  if (candidate.profilePhotoUrl !== undefined && candidate.profilePhotoUrl !== ownAvatar) {
    throw unprocessable('profilePhotoUrl is set by the server; upload a picture to the avatar URL instead.', (Object.hasOwn(rename, 'profilePhotoUrl') ? rename.profilePhotoUrl! : '/profilePhotoUrl'), `must be absent or "${ownAvatar}"`);
  }
  const data: PlayerData = { playerId: target.playerId, alias: candidate.alias as string };
  if (candidate.displayName !== undefined) data.displayName = candidate.displayName as string;
  const image = (candidate.image as string | undefined) ?? target.current?.image;
  if (image !== undefined) data.image = image;
  return data;
}

/**
 * The player a reference names: a bare player id, or the URL of a player of this service (absolute,
 * or relative to the base URL); 422 for anything else.
 *
 * @example
 * playerIdOfReference('https://x.test/player/bob', ['https://x.test']); // 'bob'
 * playerIdOfReference('bob', ['https://x.test']);                        // 'bob'
 */
export function playerIdOfReference(ref: string, baseUrls: readonly string[], pointer = '/@id'): string {
  if (isValidPlayerId(ref)) return ref;
  for (const base of baseUrls) {
    let url: URL;
    try {
      url = new URL(ref, `${base}/`);
    } catch {
      break;
    }
    const prefix = new URL(`${base}/`);
    if (url.origin !== prefix.origin || !url.pathname.startsWith(prefix.pathname) || url.search || url.hash) continue;
    const m = /^player\/([^/]+)$/.exec(url.pathname.slice(prefix.pathname.length));
    if (!m) continue;
    let id: string;
    try {
      id = decodeURIComponent(m[1]!);
    } catch {
      continue;
    }
    if (isValidPlayerId(id)) return id;
  }
  throw unprocessable('The reference does not name a player of this service.', pointer, 'must be a player id or a player URL of this service');
}

/** Where a field came from in the request body: its own entry in `pointers`, else `/name`. */
function pointerOf(input: PlayerInput, field: string, otherwise = `/${field}`): string {
  const pointers = input.pointers;
  return pointers && Object.hasOwn(pointers, field) ? pointers[field]! : otherwise;
}

/**
 * The id of the existing player a POST body refers to (`ref`, or a `playerId` member), or undefined
 * when the body describes a new player. A reference carries nothing else (422).
 *
 * @example
 * referencedPlayerId({ fields: { playerId: 'bob' } }, ['https://x.test']); // 'bob'
 * referencedPlayerId({ fields: { alias: 'new' } }, ['https://x.test']);     // undefined
 */
export function referencedPlayerId(input: PlayerInput, baseUrls: readonly string[]): string | undefined {
  const { playerId, ...others } = input.fields;
  if (input.ref === undefined && playerId === undefined) return undefined;
  if (playerId !== undefined && typeof playerId !== 'string') {
    throw new HttpError(400, 'The body has members of the wrong JSON type.', { errors: [{ pointer: pointerOf(input, 'playerId'), detail: 'must be string' }] });
  }
  const extra = Object.keys(others).filter((k) => others[k] !== undefined);
  if (extra.length) {
    throw new HttpError(422, 'A reference to an existing player names only playerId or @id; to create a new friend, leave both out.', {
      errors: extra.map((k) => ({ pointer: pointerOf(input, k), detail: 'not allowed beside a reference' })),
    });
  }
  const fromRef = input.ref === undefined ? undefined : playerIdOfReference(input.ref, baseUrls, pointerOf(input, 'ref', '/@id'));
  const fromId = playerId === undefined ? undefined : playerIdOfReference(playerId, baseUrls, pointerOf(input, 'playerId'));
  if (fromRef !== undefined && fromId !== undefined && fromRef !== fromId) {
    throw unprocessable('playerId and @id name different players.', '/playerId', `must be "${fromRef}"`);
  }
  return fromRef ?? fromId;
}
