import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DATABASE_TIMEOUT_DEFAULTS } from '../config/config';
import { dataSourceOptions } from './data-source';
import { ensureAllPartitions } from './partition-maintenance';

const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';
/** Arbitrary constant: serialises migration runs of processes started together (API and worker). */
const MIGRATION_LOCK = 7_316_504_211;

function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) throw new Error(`Unsupported database name in DATABASE_URL: "${name}"`);
  return name;
}

/**
 * Start-up and maintenance connections wait at most this long to connect. Their statements are not
 * bounded: a migration may build an index on a large table, and `DROP DATABASE` waits for its
 * sessions to end.
 */
type ConnectTimeout = { connectTimeoutMs?: number };

/** Runs `work` on a connection to the server's `postgres` maintenance database. */
async function withMaintenanceConnection<T>(
  databaseUrl: string,
  { connectTimeoutMs = DATABASE_TIMEOUT_DEFAULTS.connectTimeoutMs }: ConnectTimeout,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: connectTimeoutMs });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the database of `databaseUrl` when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string, options: ConnectTimeout = {}): Promise<void> {
  const name = databaseName(databaseUrl);
  await withMaintenanceConnection(databaseUrl, options, async (client) => {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`).catch((error: { code?: string }) => {
        // Another process created it between our check and our CREATE.
        if (error.code !== DUPLICATE_DATABASE && error.code !== UNIQUE_VIOLATION) throw error;
      });
    }
  });
}

/** Runs pending migrations under an advisory lock; returns the names of those it ran. */
export async function runMigrations(
  databaseUrl: string,
  { connectTimeoutMs = DATABASE_TIMEOUT_DEFAULTS.connectTimeoutMs }: ConnectTimeout = {},
): Promise<string[]> {
  const dataSource = new DataSource({ ...dataSourceOptions(databaseUrl), extra: { max: 1, connectionTimeoutMillis: connectTimeoutMs } });
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      // The partitions a process may write to from its first moment (ADR 0052).
      const runner = dataSource.createQueryRunner();
      try {
        await ensureAllPartitions((text, values) => runner.query(text, values), new Date());
      } finally {
        await runner.release();
      }
      return ran.map((migration) => migration.name);
    } finally {
      await dataSource.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await dataSource.destroy();
  }
}

/** What `npm start`, the worker and the CLI do before touching data. */
export async function prepareDatabase(databaseUrl: string, options: ConnectTimeout = {}): Promise<string[]> {
  await ensureDatabase(databaseUrl, options);
  return runMigrations(databaseUrl, options);
}

/** Drops a database (tests only clean up their own). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  await withMaintenanceConnection(databaseUrl, {}, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
