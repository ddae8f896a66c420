// Test helpers for writes: a seeded service with a Bearer token, and request builders.
import { bearerTokens, type PlayerServiceOptions } from '../../src/index.js';
import { demoService } from './service.js';

export const TOKEN = 's3cret-token';
export const AUTH = { Authorization: `Bearer ${TOKEN}` };

/** A demo service that accepts TOKEN, and `send` for writes carrying it. */
export async function writableService(options: Partial<PlayerServiceOptions> = {}) {
  const svc = await demoService({ authenticate: bearerTokens([TOKEN]), ...options });
  /** A request with the token; a non-string body is sent as JSON. */
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { ...AUTH, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    return svc.call(path, init);
  };
  return { ...svc, send };
}
