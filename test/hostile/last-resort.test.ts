import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import { toNodeListener, type FetchHandler } from '../../src/adapters/node.js';
import { attachAnswerer } from '../../src/core/service/answerer.js';
import { originOf } from '../support/echo.js';
import { assertProblem } from '../support/hostile.js';
import { RawConnection } from '../support/raw-http.js';

// When answering fails, the node adapter's last resort is a complete 500 problem: the head is written
// only once the body is in hand, so a failure never leaves a head without its body.
const lastResort = suite('the node adapter when answering fails');

async function serve(handler: FetchHandler): Promise<{ origin: string; server: Server }> {
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: originOf(server), server };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Runs `body` with console.error collected (the adapter logs the failure), and returns what was logged. */
async function quietly(body: () => Promise<void>): Promise<unknown[][]> {
  const logged: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void logged.push(args);
  try {
    await body();
  } finally {
    console.error = original;
  }
  return logged;
}

const failing: Record<string, FetchHandler> = {
  'a handler that rejects': { fetch: () => Promise.reject(new Error('boom')) },
  'a handler that throws': {
    fetch: () => {
      throw new Error('boom');
    },
  },
  'a response whose body stream fails': {
    fetch: async () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            controller.error(new Error('stream failed'));
          },
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      ),
  },
  'a service whose answer rejects': attachAnswerer({ fetch: () => Promise.reject(new Error('unused')) }, () => Promise.reject(new Error('boom'))),
};

lastResort('should answer a 500 problem with its body whatever failed', async () => {
  for (const [name, handler] of Object.entries(failing)) {
    const { origin, server } = await serve(handler);
    const logged = await quietly(async () => {
      const c = await RawConnection.open(origin);
      for (const method of ['GET', 'PUT']) {
        const answer = await c.request({ method, target: '/player/alice', body: method === 'PUT' ? '{}' : undefined });
        const problem = assertProblem(answer, 500, `${name} ${method}`);
        assert.is(problem.title, 'Internal Server Error', name);
        assert.is(answer.headers['cache-control'], 'no-store', name);
      }
      // The connection still serves the next request.
      assert.is((await c.request({ method: 'GET', target: '/player/alice' })).status, 500, name);
      c.close();
    });
    assert.ok(logged.length > 0, `${name}: the failure is logged`);
    await stop(server);
  }
});

lastResort.run();
