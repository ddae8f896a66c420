// Real shared caches in front of a test server: nginx and Varnish from the machine (Debian's packages),
// started on free ports with the configurations docs/caching.md recommends.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running cache: where clients reach it, and stop(). */
export interface RunningProxy {
  origin: string;
  stop(): Promise<void>;
  output(): string;
}

const DOCS = new URL('../../docs/caching.md', import.meta.url);

/** The path of a program, or undefined when the machine does not have it. */
export function which(program: string): string | undefined {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    const path = join(dir, program);
    if (spawnSync('test', ['-x', path]).status === 0) return path;
  }
  return undefined;
}

/** The code block of `language` under the heading `heading` of docs/caching.md (the one readers copy). */
export function docsBlock(heading: string, language: string): string {
  const text = readFileSync(DOCS, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`docs/caching.md has no heading "${heading}"`);
  const fence = text.indexOf('```' + language + '\n', start);
  const end = text.indexOf('\n```', fence + 4);
  if (fence === -1 || end === -1) throw new Error(`docs/caching.md has no ${language} block under "${heading}"`);
  return text.slice(fence + language.length + 4, end + 1);
}

/** A free TCP port of 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Waits until something accepts connections on the port (or the process died). */
async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the cache exited (${child.exitCode}):\n${log()}`);
    try {
      await fetch(`http://127.0.0.1:${port}/__probe`, { signal: AbortSignal.timeout(500) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`the cache did not listen on ${port}:\n${log()}`);
}

function run(program: string, args: string[], dir: string): { child: ChildProcess; log: () => string; stop: () => Promise<void> } {
  const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (c: Buffer) => (text += c));
  child.stderr!.on('data', (c: Buffer) => (text += c));
  const stop = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  return { child, log: () => text, stop };
}

/**
 * nginx in front of `upstream` (host:port) with the server block of docs/caching.md: its upstream,
 * listen address and cache directory replaced by the test's, inside a minimal main configuration.
 */
export async function startNginx(upstream: string, block = docsBlock('### nginx (proxy_cache)', 'nginx')): Promise<RunningProxy> {
  const nginx = which('nginx');
  if (!nginx) throw new Error('nginx is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'ph-nginx-'));
  const port = await freePort();
  const site = block
    .replace('/var/cache/nginx/players', join(dir, 'cache'))
    .replace(/server 127\.0\.0\.1:3000;/, `server ${upstream};`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  if (site === block) throw new Error('the nginx block of docs/caching.md changed shape');
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
${site}
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const proc = run(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], dir);
  await listening(port, proc.child, () => proc.log() + safeRead(join(dir, 'error.log')));
  return { origin: `http://127.0.0.1:${port}`, stop: proc.stop, output: () => proc.log() + safeRead(join(dir, 'error.log')) };
}

/** Varnish in front of `upstream` with the VCL of docs/caching.md (`heading`), its backend replaced. */
export async function startVarnish(upstream: string, heading = '### Varnish'): Promise<RunningProxy> {
  const varnishd = which('varnishd');
  if (!varnishd) throw new Error('varnishd is not installed');
  const block = docsBlock(heading, 'vcl');
  const [host, port] = upstream.split(':');
  const vcl = block.replace(/\.host = "127\.0\.0\.1"; \.port = "3000";/, `.host = "${host}"; .port = "${port}";`);
  if (vcl === block) throw new Error('the VCL of docs/caching.md changed shape');
  const dir = mkdtempSync(join(tmpdir(), 'ph-varnish-'));
  writeFileSync(join(dir, 'default.vcl'), vcl);
  const listen = await freePort();
  const admin = await freePort();
  const proc = run(
    varnishd,
    ['-F', '-j', 'none', '-n', join(dir, 'work'), '-a', `127.0.0.1:${listen}`, '-T', `127.0.0.1:${admin}`, '-f', join(dir, 'default.vcl'), '-s', 'malloc,32m'],
    dir,
  );
  await listening(listen, proc.child, proc.log);
  return { origin: `http://127.0.0.1:${listen}`, stop: proc.stop, output: proc.log };
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
