import { suite } from 'uvu';
import { PLAYER } from '../src/player/documents.js';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { defaultRepresentations } from '../src/index.js';
import { renderDocument, UsageError } from '../src/cli/render.js';
import { ROOT, startChild } from './support/child-server.js';
import { assertHeadersTimeout } from './support/hostile.js';
import { BASE, demoService } from './support/service.js';

const BIN = join(ROOT, 'bin/player-hypermedia.js');
const dir = mkdtempSync(join(tmpdir(), 'player-hypermedia-cli-'));
const run = (args: string[], input?: string) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', input, timeout: 30_000 });

const rendering = suite('renderDocument: the same bytes as the service');

rendering('should render a player in every registered format as the service does', async () => {
  const { call } = await demoService();
  const input = { playerId: 'bob', alias: 'bobby', displayName: 'Bob Builder' };
  for (const r of defaultRepresentations) {
    if (r.plan?.(new URLSearchParams(), 'item', PLAYER).embed?.length) continue; // its player carries bob's real friends
    const served = await (await call('/player/bob', { headers: { Accept: r.mediaType } })).text();
    assert.is(renderDocument(input, { as: r.name, baseUrl: BASE, pageSize: 10 }), served, r.name);
  }
});

rendering('should render a friends page and a search page in every format as the service does', async () => {
  const { call } = await demoService();
  const friends = await (await call('/player/alice/friends?page=2')).json();
  const strip = (list: Record<string, unknown>[]) => list.map(({ profilePhotoUrl: _drop, ...rest }) => rest);
  const found = await (await call('/player/alice/friends/search?search=ada&page=1')).json();
  for (const r of defaultRepresentations) {
    const page = await (await call('/player/alice/friends?page=2', { headers: { Accept: r.mediaType } })).text();
    assert.is(renderDocument({ playerId: 'alice', page: 2, total: 32, friends: strip(friends) }, { as: r.mediaType, baseUrl: BASE, pageSize: 10 }), page, r.name);
    const search = await (await call(`/player/alice/friends/search?${encodeURIComponent(r.searchParameter ?? 'search')}=ada&page=1`, { headers: { Accept: r.mediaType } })).text();
    assert.is(renderDocument({ playerId: 'alice', search: 'ada', friends: strip(found) }, { as: r.name, baseUrl: BASE, pageSize: 10 }), search, r.name);
  }
});

rendering('should refuse unknown formats and input that is not a player or a page', () => {
  assert.throws(() => renderDocument({ playerId: 'bob', alias: 'b' }, { as: 'yaml', baseUrl: BASE, pageSize: 10 }), (e: unknown) => e instanceof UsageError);
  for (const bad of [[], 'bob', { playerId: 'a b', alias: 'x' }, { playerId: 'bob' }, { playerId: 'alice', friends: [{}] }, { playerId: 'alice', friends: [], total: -1 }]) {
    assert.throws(() => renderDocument(bad, { as: 'json', baseUrl: BASE, pageSize: 10 }), (e: unknown) => e instanceof TypeError, JSON.stringify(bad));
  }
});

rendering.run();

const cli = suite('the player-hypermedia command, as a child process');

cli('should end quietly when the reader closes the pipe early (swagger | head -c 10)', () => {
  // The shell's pipeline, so that the reader really goes away after 10 bytes of a larger output.
  const direct = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" swagger | head -c 10 >/dev/null`], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  assert.is(direct.status, 0, direct.stderr);
  assert.is(direct.stderr, '');
});

cli('should print help for the command and each subcommand', () => {
  const main = run(['--help']);
  assert.is(main.status, 0);
  assert.match(main.stdout, 'Usage: player-hypermedia <command>');
  const render = run(['render', '--help']);
  assert.is(render.status, 0);
  for (const r of defaultRepresentations) assert.match(render.stdout, r.name);
  const swagger = run(['swagger', '--help']);
  assert.is(swagger.status, 0);
  assert.match(swagger.stdout, '--backend-url');
  const serve = run(['serve', '--help']);
  assert.is(serve.status, 0);
  assert.match(serve.stdout, 'API_TOKEN');
});

cli('should render a file and standard input', () => {
  const file = join(dir, 'player.json');
  writeFileSync(file, JSON.stringify({ playerId: 'bob', alias: 'bobby' }));
  const hal = run(['render', file, '--as', 'hal', '--base-url', 'https://games.test/api']);
  assert.is(hal.status, 0, hal.stderr);
  assert.is(JSON.parse(hal.stdout)._links.self.href, 'https://games.test/api/player/bob');
  const piped = run(['render', '-', '--as', 'json', '--pretty'], '{"playerId":"zed","alias":"z"}');
  assert.is(piped.stdout, `{\n  "playerId": "zed",\n  "alias": "z",\n  "profilePhotoUrl": "https://api.example.com/player/zed/avatar.png"\n}\n`);
});

cli('should exit 2 on usage errors and 1 on bad input, with a message on stderr', () => {
  for (const args of [['frobnicate'], ['render', 'x.json', '--as', 'yaml'], ['render', 'x.json', '--bogus']]) {
    const res = run(args);
    assert.is(res.status, 2, args.join(' '));
    assert.match(res.stderr, 'player-hypermedia:');
  }
  const missing = run(['render', join(dir, 'missing.json')]);
  assert.is(missing.status, 1);
  const notJson = run(['render', '-'], '{oops');
  assert.is(notJson.status, 1);
  assert.match(notJson.stderr, 'is not JSON');
});

cli('should print the Swagger document the service serves, and validate it', async () => {
  const res = run(['swagger', '--base-url', BASE, '--backend-url', 'https://backend.test']);
  assert.is(res.status, 0, res.stderr);
  const printed = JSON.parse(res.stdout);
  const { call } = await demoService({ backendUrl: 'https://backend.test' });
  assert.equal(printed, await (await call('/swagger.json')).json());
  assert.is(printed.info.title, 'Player API');
  assert.is(printed.paths['/player/{id}'].get['x-amazon-apigateway-integration'].uri, 'https://backend.test/player/{id}');
  await SwaggerParser.validate(printed);
  assert.is(run(['swagger', '--base-url', 'not a url']).status, 2);
});

cli('should serve the demo API with the example server environment', async () => {
  const server = await startChild([BIN, 'serve'], { API_TOKEN: 'cli-token', HEADERS_TIMEOUT_MS: '1000' });
  try {
    const res = await fetch(`${server.origin}/player/alice`);
    assert.is(res.status, 200);
    assert.is((await res.json()).profilePhotoUrl, `${server.origin}/player/alice/avatar.png`);
    // The start-up lines may come in more than one chunk of the child's output.
    for (let i = 0; i < 40 && !server.output().includes('Write token'); i++) await new Promise((r) => setTimeout(r, 50));
    assert.match(server.output(), 'Write token: cli-token');
    // The server limits come from the environment (createNodeServer).
    await assertHeadersTimeout(server.origin, 1000, 'serve');
  } finally {
    await server.stop();
  }
});

cli.run();
