// A database of its own for each library server of a PostgreSQL bench, on the server of `url`.
import pg from 'pg';

/**
 * Makes (dropping any earlier one) the database `name` on the server of `url`, and returns its URL.
 *
 * Why not a schema each: on every commit that NOTIFYs, PostgreSQL 15 signals each session LISTENing in
 * the same database, on whatever channel (src/backend/commands/async.c, `SignalBackends`; its model since
 * 9.0 keeps no central record of which session listens to which channel: each reads every new notice of
 * its database and keeps those of its own channels). The servers of a round all run at once, so with one database every write of the one
 * measured woke the idle servers' listening sessions too, work a lone deployment does not do and the
 * baseline, which listens to nothing, never pays. A database each leaves the measured server's writes
 * waking only its own.
 *
 * @example
 * const own = await ownDatabase(process.env.TEST_DATABASE_URL!, 'bench_defaults');
 */
export async function ownDatabase(url: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`ownDatabase: "${name}" is not a plain database name`);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return own.toString();
}
