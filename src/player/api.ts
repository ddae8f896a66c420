// The Player API, declared once: the player type, its fields and linked-data terms, its friends.
import { defineApi, type Api } from '../core/model/api.js';
import type { ApiDeclaration, TypeDeclaration } from '../core/model/declaration.js';

/**
 * The namespace of the project's own terms (playerId, friends, size): a persistent w3id.org IRI, the
 * same for every deployment, so that `playerId` means one thing wherever the library runs.
 *
 * @example
 * `${PLAYER_VOCAB}playerId`; // 'https://w3id.org/player-hypermedia/vocab#playerId'
 */
export const PLAYER_VOCAB = 'https://w3id.org/player-hypermedia/vocab#';

/** What a picture URL that is not an absolute http(s) URL is told. */
const NOT_A_URL = 'must be an absolute http or https URL';

/**
 * The player type: what the Player API's interface says of a player (playerId, alias, displayName,
 * profilePhotoUrl; the linked-data names playerId, name, alternateName, image), the limits of
 * docs/decisions.md, and the paged, searchable list of friends. `image` is the picture URL a client
 * may give (the avatar redirects to it until one is uploaded); `profilePhotoUrl` is always the avatar's
 * URL. Copy it to declare a type of your own.
 *
 * @example
 * import { playerType } from 'player-hypermedia';
 * const withLevel = { ...playerType, fields: [...playerType.fields, { name: 'level', title: 'Level', schema: { type: 'integer', minimum: 1 } }] };
 */
export const playerType: TypeDeclaration = {
  name: 'player',
  plural: 'players',
  title: 'Player',
  path: '/player/{id}',
  id: 'playerId',
  fields: [
    {
      name: 'playerId',
      title: 'Player id',
      required: true,
      schema: { type: 'string', pattern: '^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,64}$', description: 'Identifier of the player' },
      iri: 'ph:playerId',
      invalid: 'must be 1 to 64 characters of A-Z a-z 0-9 . _ ~ -',
    },
    {
      name: 'alias',
      title: 'Alias',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 64, description: 'Short handle of the player' },
      term: 'alternateName',
      iri: 'schema:alternateName',
    },
    {
      name: 'displayName',
      title: 'Full name',
      schema: { type: 'string', maxLength: 128, description: 'Full name shown for the player' },
      term: 'name',
      iri: 'schema:name',
    },
    {
      name: 'image',
      title: 'Picture URL',
      access: 'write-only',
      schema: { type: 'string', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', maxLength: 2048, description: 'Absolute http(s) URL of a picture of the player' },
      iri: 'schema:image',
      iriValue: true,
      invalid: NOT_A_URL,
    },
    {
      name: 'profilePhotoUrl',
      title: 'Avatar',
      derived: { link: 'avatar' },
      schema: { type: 'string', format: 'uri', maxLength: 2048, readOnly: true, description: 'Address of the avatar image, always {baseUrl}/player/{playerId}/avatar.png' },
      term: 'image',
      iri: 'schema:image',
      iriValue: true,
      invalid: NOT_A_URL,
    },
  ],
  termOrder: ['playerId', 'displayName', 'alias', 'profilePhotoUrl'],
  linkedData: { class: 'schema:Person', term: 'Person' },
  links: [{ rel: 'avatar', path: 'avatar.png', type: 'image/png', title: 'Avatar' }],
  relations: [
    {
      name: 'friends',
      kind: 'to-many',
      target: 'player',
      title: 'Friends',
      member: 'friend',
      add: { name: 'add-friend', title: 'Add a friend', fields: ['displayName', 'alias', 'image'], create: true, reference: true },
      search: { title: 'Search friends', prompt: 'Text in alias or name', fields: ['alias', 'displayName'] },
      labels: { owner: 'Owner of the list', all: 'All friends' },
      linkedData: { reverse: 'friendsOf', listClass: 'FriendList' },
      description: "A player's friends, in pages (hydra:view)",
    },
  ],
  display: { title: ['displayName', 'alias'], handle: 'alias', picture: 'profilePhotoUrl' },
  replaceTitle: 'Update the player',
  descriptions: { item: 'A player: an id, an alias, a display name, an avatar and a list of friends' },
};

/**
 * The declaration of the Player API: its title, version, licence, vocabulary and the player type. Copy
 * it to serve a variant (a player with a `level`) with `createPlayerService({ api })`.
 *
 * @example
 * import { defineApi, playerApiDeclaration, playerType } from 'player-hypermedia';
 * const api = defineApi({ ...playerApiDeclaration, types: [{ ...playerType, fields: [...playerType.fields, level] }] });
 */
export const playerApiDeclaration: ApiDeclaration = {
  title: 'Player API',
  version: '1.0.1',
  description: 'A simple API for Player resources',
  license: { name: 'Apache 2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0.html' },
  vocabulary: { prefix: 'ph', iri: PLAYER_VOCAB },
  prefixes: { schema: 'https://schema.org/' },
  types: [playerType],
};

/**
 * The Player API: the player type, titled and versioned as its interface says (Player API, 1.0.1,
 * Apache 2.0), its terms in schema.org and the project's vocabulary.
 *
 * @example
 * import { playerApi } from 'player-hypermedia';
 * playerApi.type('player').plural; // 'players'
 */
export const playerApi: Api = defineApi(playerApiDeclaration);
