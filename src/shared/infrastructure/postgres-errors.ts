/** PostgreSQL error codes the service reacts to. */
export const PG_UNIQUE_VIOLATION = '23505';

/** The driver's error behind TypeORM's (`driverError`), or the error itself. */
function driverErrorOf(error: unknown): { code?: unknown; constraint?: string } {
  return (error as { driverError?: unknown })?.driverError ?? error ?? {};
}

/** True for a unique violation, optionally only of constraints whose name ends with `suffix`. */
export function isUniqueViolation(error: unknown, suffix?: string): boolean {
  const { code, constraint } = driverErrorOf(error);
  return code === PG_UNIQUE_VIOLATION && (suffix === undefined || (constraint ?? '').endsWith(suffix));
}

/** Suffix of the partial unique index on `(workspace_id, short_name) WHERE deleted_at IS NULL`. */
export const SHORT_NAME_INDEX_SUFFIX = '_short_name_active';

const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE']);
// PostgreSQL: connection exceptions, too many connections, shutdown, statement timeout.
const UNAVAILABLE_SQLSTATES = /^(08...|53300|57P0[123]|57014)$/;
// pg and pg-pool: a lost connection, no connection within the connect timeout (a new one or a free
// one from the pool), no answer within the query timeout, a connection ended after one.
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|is not queryable/i;

/**
 * True when PostgreSQL (or Redis) is unreachable, refusing, shutting down or not answering in
 * time: the API answers `503` (ADR 0008), and a pipeline batch fails as a whole rather than job
 * by job. Looks at the error, TypeORM's `driverError` and a `cause`.
 */
export function isUnavailable(error: unknown): boolean {
  const candidates = [error, (error as { driverError?: unknown })?.driverError, (error as { cause?: unknown })?.cause];
  return candidates.some((candidate) => {
    if (!candidate || typeof candidate !== 'object') return false;
    const { code, message } = candidate as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
    return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
  });
}

// PostgreSQL: a deadlock or a serialization failure; the same statement succeeds when run again.
const CONFLICT_SQLSTATES = new Set(['40P01', '40001']);

/**
 * True when PostgreSQL gave up a statement because of a concurrent one (a deadlock, a
 * serialization failure): the API answers `503` with a short `Retry-After` rather than `500`. The
 * pipeline keeps treating it as one job's failure, retried on its own.
 */
export function isTransientConflict(error: unknown): boolean {
  const { code } = driverErrorOf(error);
  return typeof code === 'string' && CONFLICT_SQLSTATES.has(code);
}
