import type { KeysetPosition } from '../application/pagination';

export type SortOrder = 'asc' | 'desc';

/**
 * SQL pieces of a keyset page over `(timeColumn, id)`: `WHERE (ts, id) < ($a, $b) ORDER BY ts DESC,
 * id DESC LIMIT n + 1` (mirrored for ascending). Column names come from code, never from input;
 * values go into `params`.
 */
export function keysetSql(
  alias: string,
  timeColumn: string,
  order: SortOrder,
  after: KeysetPosition | null,
  limit: number,
  params: unknown[],
): { where: string; tail: string } {
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  let where = '';
  if (after) {
    params.push(after.at, after.id);
    where = `(${alias}.${timeColumn}, ${alias}.id) ${order === 'asc' ? '>' : '<'} ($${params.length - 1}, $${params.length})`;
  }
  params.push(limit + 1);
  return {
    where,
    tail: `ORDER BY ${alias}.${timeColumn} ${direction}, ${alias}.id ${direction} LIMIT $${params.length}`,
  };
}
