// Starts the example server as separate processes (service instances) and talks to them over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';

/** A running instance: its origin, its process, and stop(). */
export interface Instance {
  origin: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

const SERVER = new URL('../../examples/server.ts', import.meta.url).pathname;

/**
 * Starts `node --import tsx examples/server.ts` on a free port with the given environment and waits
 * for its "listening" line.
 *
 * @example
 * const a = await startInstance({ DATABASE_URL: url, BASE_URL: 'http://api.test' });
 * await fetch(`${a.origin}/player/alice`);
 */
export function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance did not start:\n${log}`)), 60_000);
    const onData = (chunk: Buffer) => {
      log += chunk;
      const m = /listening on (http:\/\/[^ ]+)/.exec(log);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        origin: m[1]!,
        child,
        output: () => log,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited with ${code}:\n${log}`));
    });
  });
}
