/**
 * The outbox side of events: SQL that writes event rows in the statement that makes the change
 * (data-modifying CTEs), so the change and its events commit or roll back together. The rows'
 * `id` and `created_at` come from the table's defaults; their `seq` from the workspace's counter
 * (see the events migration).
 */

/** The columns an event insert gives. */
export const EVENT_COLUMNS = 'workspace_id, seq, type, object_type, data, previous';

/**
 * A CTE named `name` that takes `count` numbers from the workspace's event counter and returns
 * the last of them as `last` (so the taken ones are `last - count + 1` … `last`). Its row lock is
 * held until the transaction commits: the next writer of the workspace numbers after this one's
 * events are visible. Takes nothing when `count` is 0.
 */
export function eventNumbers(name: string, workspace: string, count: string): string {
  return `${name} AS (INSERT INTO event_sequences AS s (workspace_id, last)
      SELECT ${workspace}, ${count} WHERE ${count} > 0
      ON CONFLICT (workspace_id) DO UPDATE SET last = s.last + EXCLUDED.last RETURNING last)`;
}

/**
 * For a change made by one statement in its own transaction: a CTE (`name`) that, once read, makes
 * that transaction commit without waiting for the WAL flush, so the workspace's counter lock
 * (`eventNumbers`) is released as soon as the commit is written, not after the disk confirms it:
 * one workspace's writers no longer queue behind each other's flushes. The writer must then wait
 * for `DURABLE` before it acknowledges the change (ADR 0059).
 */
export function commitWithoutFlush(name: string): string {
  return `${name} AS (SELECT set_config('synchronous_commit', 'off', true) AS setting)`;
}

/**
 * Returns once every transaction committed before it started is flushed to the WAL: it takes a
 * transaction id, so its own commit writes a record and, committing synchronously, waits for the
 * WAL to be flushed up to that record, which lies after every earlier commit's. Any connection
 * will do.
 */
export const DURABLE = 'SELECT pg_current_xact_id()';

/**
 * A row of `alias` as the event's `data`, its bigint columns as text (JSON numbers would lose
 * digits in JavaScript). For tables whose nested objects' key order does not matter.
 */
export function rowJson(alias: string, bigints: readonly string[] = ['id', 'workspace_id']): string {
  const texts = bigints.map((column) => `'${column}', ${alias}.${column}::text`).join(', ');
  return `(to_jsonb(${alias}) || jsonb_build_object(${texts}))::json`;
}
