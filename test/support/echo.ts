// Test helpers for adapters: a fetch handler that echoes what it received, and a listening helper.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as assert from 'uvu/assert';

/** Answers with the method, URL, content type and body it was given, so a test sees what an adapter passed on. */
export const echo = {
  async fetch(request: Request): Promise<Response> {
    const body = await request.text();
    return new Response(JSON.stringify({ method: request.method, url: request.url, type: request.headers.get('content-type'), body }), {
      status: 200,
      headers: { 'Content-Type': 'application/json', 'X-Echo': 'yes', Vary: 'Accept' },
    });
  },
};

/** The http://127.0.0.1:PORT origin of a listening server. */
export function originOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * What every framework adapter mounted at /games/api (beside a /health route answering "ok") must do:
 * serve the API there, with links carrying the prefix, and leave the framework's other routes alone.
 */
export async function assertServedUnderPrefix(origin: string): Promise<void> {
  const res = await fetch(`${origin}/games/api/player/alice`);
  assert.is(res.status, 200);
  assert.is((await res.json()).profilePhotoUrl, `${origin}/games/api/player/alice/avatar.png`);
  const page = await fetch(`${origin}/games/api/player/alice/friends`);
  assert.match(page.headers.get('link')!, `<${origin}/games/api/player/alice/friends?page=2>; rel="next"`);
  assert.is(await (await fetch(`${origin}/health`)).text(), 'ok');
}
