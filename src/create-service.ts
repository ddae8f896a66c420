// createService with the built-in formats: the package's main entry point for an API of your own.
import { createService as createCoreService, type Service } from './core/service/service.js';
import type { ServiceOptions } from './core/service/options.js';
import { defaultRepresentations } from './representations/index.js';

/**
 * Creates a service for a declared API (`defineApi`), serving the eight built-in formats unless
 * `representations` says otherwise, on a new `MemoryStore` unless `store` says otherwise. The result's
 * `fetch(request)` is the whole API: every item, list, search and relationship URL its declarations
 * imply, the Swagger description, the Hydra ApiDocumentation and its entry point.
 *
 * @example
 * import { createService, defineApi } from 'player-hypermedia';
 * const api = defineApi({ title: 'Books', version: '1.0.0', vocabulary: { prefix: 'bk', iri: 'https://example.com/books#' }, types: [book] });
 * const service = createService({ api, baseUrl: 'https://api.example.com' });
 * const res = await service.fetch(new Request('https://api.example.com/book/dune'));
 */
export function createService(options: ServiceOptions): Service {
  if (!options || typeof options !== 'object') throw new TypeError('createService: options (an object with api and baseUrl) are required');
  return createCoreService({ ...options, representations: options.representations ?? defaultRepresentations });
}
