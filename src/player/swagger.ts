// buildSwagger: the Swagger 2.0 description of a Player API configuration, without serving it.
import { describeService, type SwaggerDocument } from '../core/descriptions/swagger.js';
import { createPlayerService, type PlayerServiceOptions } from './service.js';

/**
 * The Swagger 2.0 description of the Player API service these options configure (the built-in formats
 * unless `representations` says otherwise), for its latest version at `baseUrl`. With `backendUrl`, GET
 * /player/{id} carries the `x-<gateway>-integration` extension (gateway default `amazon-apigateway`).
 *
 * @example
 * import { buildSwagger } from 'player-hypermedia';
 * const doc = buildSwagger({ baseUrl: 'https://api.example.com', backendUrl: 'https://backend.internal' });
 * doc.info; // { title: 'Player API', description: 'A simple API for Player resources', license: ..., version: '1.0.1' }
 * doc.paths['/player/{id}'].get['x-amazon-apigateway-integration'].uri; // 'https://backend.internal/player/{id}'
 */
export function buildSwagger(options: PlayerServiceOptions): SwaggerDocument {
  const { config } = createPlayerService(options);
  return describeService(config, { baseUrl: config.baseUrl, version: config.versioning.latest });
}
