// A second API on the same core: teams with a paged, searchable list of member players and a captain.
// Declared once here; every format, description, store and cache of the library serves it as it is.
// Run it: npx tsx examples/teams.ts (PORT, BASE_URL, API_TOKEN as for the example server; DATABASE_URL for PostgreSQL).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerTokens, createService, defineApi, MemoryStore, type Service, type ServiceOptions, type Store, type TypeDeclaration } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { swaggerUi } from '../src/adapters/swagger-ui.js';

const ID = { type: 'string', pattern: '^(?!\\.\\.?$)[A-Za-z0-9._~-]{1,64}$' } as const;

/** A player of the teams API: an id, a name, a nickname. */
export const player: TypeDeclaration = {
  name: 'player',
  plural: 'players',
  title: 'Player',
  path: '/players/{id}',
  id: 'playerId',
  fields: [
    { name: 'playerId', title: 'Player id', required: true, schema: ID, iri: 'tm:playerId' },
    { name: 'name', title: 'Name', required: true, schema: { type: 'string', minLength: 1, maxLength: 128 }, iri: 'schema:name' },
    { name: 'nickname', title: 'Nickname', schema: { type: 'string', maxLength: 64 }, term: 'alternateName', iri: 'schema:alternateName' },
  ],
  linkedData: { class: 'schema:Person', term: 'Person' },
  display: { title: ['name'], handle: 'nickname' },
};

/** A team: an id, a name, a motto, a captain (one of the players) and its members, paged and searchable. */
export const team: TypeDeclaration = {
  name: 'team',
  plural: 'teams',
  title: 'Team',
  path: '/teams/{id}',
  id: 'teamId',
  fields: [
    { name: 'teamId', title: 'Team id', required: true, schema: ID, iri: 'tm:teamId' },
    { name: 'name', title: 'Name', required: true, schema: { type: 'string', minLength: 1, maxLength: 128 }, iri: 'schema:name' },
    { name: 'motto', title: 'Motto', schema: { type: 'string', maxLength: 256 }, iri: 'schema:slogan' },
    { name: 'founded', title: 'Founded', schema: { type: 'integer', minimum: 1800, maximum: 2100 }, iri: 'schema:foundingDate', input: 'number' },
    { name: 'captainId', title: 'Captain', schema: ID, iri: 'tm:captainId' },
  ],
  linkedData: { class: 'schema:SportsTeam', term: 'SportsTeam' },
  relations: [
    {
      name: 'members',
      kind: 'to-many',
      target: 'player',
      title: 'Members',
      member: 'member',
      add: { name: 'add-member', title: 'Add a member', fields: ['name', 'nickname'], create: true, reference: true },
      search: { title: 'Search members', prompt: 'Text in name or nickname', fields: ['name', 'nickname'] },
      labels: { owner: 'The team', all: 'All members' },
      linkedData: { iri: 'schema:member', listClass: 'MemberList' },
    },
    { name: 'captain', kind: 'to-one', target: 'player', title: 'Captain', field: 'captainId', linkedData: { iri: 'tm:captain' } },
  ],
  display: { title: ['name'] },
};

/** The teams API: two types, its own vocabulary, schema.org terms. */
export const teamsApi = defineApi({
  title: 'Teams API',
  version: '1.0.0',
  description: 'Teams, their members and captains',
  vocabulary: { prefix: 'tm', iri: 'https://example.com/teams/vocab#' },
  prefixes: { schema: 'https://schema.org/' },
  types: [team, player],
});

/** The teams service: the built-in formats, a memory store unless one is given. */
export function createTeamsService(options: Omit<ServiceOptions, 'api'>): Service {
  return createService({ ...options, api: teamsApi });
}

/** A few teams and players to look at. */
export async function seedTeams(store: Store): Promise<void> {
  const players = teamsApi.type('player');
  const teams = teamsApi.type('team');
  const members = teams.relation('members')!;
  for (let i = 1; i <= 24; i++) await store.put(players, { playerId: `p${i}`, name: `Player ${i}`, ...(i % 3 ? { nickname: `nick${i}` } : {}) });
  await store.put(teams, { teamId: 'reds', name: 'The Reds', motto: 'Forward', founded: 1901, captainId: 'p1' });
  await store.put(teams, { teamId: 'blues', name: 'The Blues', founded: 1923 });
  for (let i = 1; i <= 24; i++) await store.addMember(members, i % 2 ? 'reds' : 'blues', `p${i}`);
}

// Run as a program: a node:http server with the seeded teams.
if (import.meta.url === `file://${process.argv[1]}`) {
  const store = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : new MemoryStore();
  await seedTeams(store);
  const token = process.env.API_TOKEN ?? 'teams-token';
  const server = createServer();
  server.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    const baseUrl = process.env.BASE_URL ?? `http://127.0.0.1:${port}`;
    server.on('request', toNodeListener(createTeamsService({ baseUrl, store, authenticate: bearerTokens([token]), extensions: [swaggerUi()] })));
    console.log(`Teams API at ${baseUrl}/teams/reds (writes: Authorization: Bearer ${token}; explorer: ${baseUrl}/docs)`);
  });
}

async function openPostgres(url: string): Promise<Store> {
  const { PostgresStore } = await import('../src/stores/postgres/index.js');
  const store = new PostgresStore({ api: teamsApi, connectionString: url });
  await store.migrate();
  return store;
}
