// buildSwagger: the Swagger 2.0 description of a service configuration, without serving it.
import { resolveOptions, type PlayerServiceOptions } from '../../core/service/options.js';
import { describeService, type SwaggerDocument } from './document.js';
import { defaultRepresentations } from '../../representations/index.js';
import { endpointsOf } from '../../core/service/router.js';
import { apiRoutes } from '../routes/index.js';

/**
 * The Swagger 2.0 description of the service these options configure (the built-in formats unless
 * `representations` says otherwise), for its latest version at `baseUrl`. With `backendUrl`, GET
 * /player/{id} carries the `x-<gateway>-integration` extension (gateway default `amazon-apigateway`).
 *
 * @example
 * import { buildSwagger } from 'player-hypermedia';
 * const doc = buildSwagger({ baseUrl: 'https://api.example.com', backendUrl: 'https://backend.internal' });
 * doc.info; // { title: 'Player API', description: 'A simple API for Player resources', version: '1.0.1', license: ... }
 * doc.paths['/player/{id}'].get['x-amazon-apigateway-integration'].uri; // 'https://backend.internal/player/{id}'
 */
export function buildSwagger(options: PlayerServiceOptions): SwaggerDocument {
  const config = resolveOptions({ ...options, representations: options.representations ?? defaultRepresentations }, endpointsOf(apiRoutes));
  return describeService(config, { baseUrl: config.baseUrl, version: config.versioning.latest });
}
