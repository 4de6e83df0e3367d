import type { Client, ClientConfig, PoolClient } from 'pg';
import type { DatabaseTimeouts } from '../config/config';

/*
 * How long the service waits for PostgreSQL (ADR 0046): for a connection, and for each
 * statement's answer. Nothing here loads TypeORM, so the benchmark's baseline can share it.
 */

/**
 * What a process runs on its pool, which decides how long one statement may take: the
 * API's requests are short; worker processes run the pipeline's batches; the CLI runs bulk seeds
 * and imports whose statements take tens of seconds.
 */
export type DatabaseWorkload = 'api' | 'worker' | 'cli';

/** The CLI's server-side bound; a bulk seed lifts it for its own sessions. */
const CLI_STATEMENT_TIMEOUT_MS = 15_000;

/**
 * PostgreSQL's `statement_timeout` for a client-side bound: a little shorter, so that in the
 * normal case the server cancels a slow statement first (57014, on a connection that stays
 * usable), and the client's bound acts only when the server does not answer at all.
 */
export function statementTimeoutFor(queryTimeoutMs: number): number {
  return queryTimeoutMs - Math.min(1_000, Math.round(queryTimeoutMs / 5));
}

export type PgTimeouts = Pick<ClientConfig, 'connectionTimeoutMillis' | 'query_timeout' | 'statement_timeout'>;

/** pg's options bounding the waits of a pool or client used for `workload`. */
export function pgTimeouts(timeouts: DatabaseTimeouts, workload: DatabaseWorkload): PgTimeouts {
  const connectionTimeoutMillis = timeouts.connectTimeoutMs;
  if (workload === 'cli') return { connectionTimeoutMillis, statement_timeout: CLI_STATEMENT_TIMEOUT_MS };
  const queryTimeout = workload === 'api' ? timeouts.queryTimeoutMs : timeouts.workerQueryTimeoutMs;
  return { connectionTimeoutMillis, query_timeout: queryTimeout, statement_timeout: statementTimeoutFor(queryTimeout) };
}

/** pg's error when a statement got no answer within the client's `query_timeout`. */
const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

/** True for pg's client-side query timeout (the server did not answer in time). */
export function isQueryTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === QUERY_TIMEOUT_MESSAGE;
}

/**
 * Ends a connection whose statement timed out on the client. pg answers the caller but leaves the
 * statement outstanding on the connection, so anything sent after it (the transaction's
 * `ROLLBACK`, the next request's statements) would wait behind it for another full timeout.
 * `end()` closes the socket at once when a statement is outstanding; the pool then drops the
 * client when it is released instead of handing it out again, and PostgreSQL ends the backend
 * (cancelling the statement) when it sees the connection gone.
 */
export function discardConnection(client: Client | PoolClient): void {
  void client.end().catch(() => undefined);
}
