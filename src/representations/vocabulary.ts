// The IRIs of our own vocabulary, shared by the JSON-LD context and the HAL curies.

/**
 * The namespace of the project's own terms (playerId, friends, size): a persistent w3id.org IRI, the
 * same for every deployment, so that `playerId` means one thing wherever the library runs.
 *
 * @example
 * `${PLAYER_VOCAB}playerId`; // 'https://w3id.org/player-hypermedia/vocab#playerId'
 */
export const PLAYER_VOCAB = 'https://w3id.org/player-hypermedia/vocab#';

/**
 * The prefix declared for our vocabulary: the JSON-LD context's prefix and the HAL curie name
 * (`ph:friends` expands to `${PLAYER_VOCAB}friends` in both).
 *
 * @example
 * `${PLAYER_VOCAB_PREFIX}:friends`; // 'ph:friends'
 */
export const PLAYER_VOCAB_PREFIX = 'ph';
