import type { PoolClient, QueryConfig, QueryResult } from 'pg';
import type { EntityManager } from 'typeorm';
import { namedStatementsOn, poolOf } from '../../database/pg-pool';
import { discardConnection, isQueryTimeout } from '../../database/timeouts';

/** Statement texts seen so far and their names; texts are code, so the set stays small. */
const names = new Map<string, string>();
const MAX_NAMED = 500;

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `q${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/**
 * pg's query for `text` and `values`: named, so that each connection prepares it once, unless
 * `named` is false (`DATABASE_PREPARED_STATEMENTS=false`, for PgBouncer in transaction mode, where
 * a statement prepared on one server connection is unknown on the next). Unnamed statements are
 * still parameterised; PostgreSQL parses and plans them on every run.
 */
export function statementConfig(text: string, values: readonly unknown[], named: boolean): QueryConfig {
  return { name: named ? nameOf(text) : undefined, text, values: values as unknown[] };
}

/**
 * Runs a parameterised statement as a named prepared statement (see `statementConfig`) on the manager's connection: its
 * transaction's (`QueryRunner.connect()` hands out the pg client), or else the DataSource's pool.
 * PostgreSQL parses it once per connection and, after a few runs, plans it once too: on the hot
 * paths planning cost as much as a third of the statement. Values are passed as with
 * `manager.query`. A transaction's connection whose statement timed out is ended, like TypeORM's
 * own statements' (`DiscardTimedOutConnections`); the pool removes its own clients on any error.
 */
export async function preparedQuery<Row = Record<string, unknown>>(
  manager: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<{ rows: Row[]; rowCount: number | null }> {
  const config = statementConfig(text, values, namedStatementsOn(manager.connection));
  const runner = manager.queryRunner;
  if (runner !== undefined && !runner.isReleased) {
    const { rows, rowCount } = await queryOnTransaction((await runner.connect()) as PoolClient, config);
    return { rows: rows as Row[], rowCount };
  }
  const pool = poolOf(manager.connection);
  if (!pool) throw new Error('The DataSource is not initialised');
  const { rows, rowCount } = await pool.query(config);
  return { rows: rows as Row[], rowCount };
}

/**
 * Sends `config` on a transaction's connection at once (the call itself queues it on the client);
 * a connection whose statement timed out is ended, as `preparedQuery` says.
 */
export function queryOnTransaction(client: PoolClient, config: QueryConfig): Promise<QueryResult> {
  return client.query(config).catch((error: unknown) => {
    if (isQueryTimeout(error)) discardConnection(client);
    throw error;
  });
}
