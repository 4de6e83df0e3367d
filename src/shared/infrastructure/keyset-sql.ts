import type { KeysetPosition } from '../application/pagination';

export type SortOrder = 'asc' | 'desc';

/**
 * SQL pieces of a keyset page over `(timeColumn, id)`: `WHERE (ts, id) < ($a, $b) ORDER BY ts DESC,
 * id DESC LIMIT n + 1` (mirrored for ascending). Column names come from code, never from input;
 * values go into `params`.
 *
 * The limit is part of the text, not a parameter: with a parameter, PostgreSQL cannot cost a
 * generic plan and plans every run again, which on a partitioned table costs more than running it
 * (ADR 0052). `partitioned`: the row comparison never prunes partitions, so the time column is
 * also bounded on its own (`ts <= $a`), which does.
 */
export function keysetSql(
  alias: string,
  timeColumn: string,
  order: SortOrder,
  after: KeysetPosition | null,
  limit: number,
  params: unknown[],
  { partitioned = false }: { partitioned?: boolean } = {},
): { where: string; tail: string } {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`Not a page size: ${limit}`);
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  let where = '';
  if (after) {
    params.push(after.at, after.id);
    const [at, id] = [`$${params.length - 1}`, `$${params.length}`];
    where = `(${alias}.${timeColumn}, ${alias}.id) ${order === 'asc' ? '>' : '<'} (${at}, ${id})`;
    if (partitioned) where += ` AND ${alias}.${timeColumn} ${order === 'asc' ? '>=' : '<='} ${at}`;
  }
  return {
    where,
    tail: `ORDER BY ${alias}.${timeColumn} ${direction}, ${alias}.id ${direction} LIMIT ${limit + 1}`,
  };
}
