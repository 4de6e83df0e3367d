/**
 * The outbox side of events: SQL that writes an event row in the statement that makes the change
 * (a data-modifying CTE), so the change and its event commit or roll back together. The row's
 * `txid`, `id` and `created_at` come from the table's defaults (see the events migration).
 */

/** The columns an event insert gives. */
export const EVENT_COLUMNS = 'workspace_id, type, object_type, data, previous';

/**
 * A row of `alias` as the event's `data`, its bigint columns as text (JSON numbers would lose
 * digits in JavaScript). For tables whose nested objects' key order does not matter.
 */
export function rowJson(alias: string, bigints: readonly string[] = ['id', 'workspace_id']): string {
  const texts = bigints.map((column) => `'${column}', ${alias}.${column}::text`).join(', ');
  return `(to_jsonb(${alias}) || jsonb_build_object(${texts}))::json`;
}
