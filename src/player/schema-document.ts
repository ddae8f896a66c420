// The JSON Schema of a player, as data: read by the validator generator and by the Swagger document.

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
    playerId: { type: 'string', pattern: '^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,64}$', description: 'Identifier of the player' },
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
