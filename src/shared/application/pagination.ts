import { CursorBinding, CursorCodec } from '../infrastructure/cursor-codec';
import { AppError } from './app-error';
import { RowBudget } from './row-budget';

/**
 * Rows that the list pages of this process hold at once: three pages of 1,000 and some small
 * ones. A burst of large pages is served a few at a time instead of all together, so it cannot
 * push the process towards its memory limit (docs/performance.md).
 */
export const LIST_ROWS_IN_FLIGHT = new RowBudget(4_000);

/** Where a keyset page starts: after the row with this timestamp and id (in the list's order). */
export interface KeysetPosition {
  at: Date;
  id: string;
}

export interface Page<T> {
  data: T[];
  pagination: { next_cursor: string | null };
}

export interface KeysetPageRequest<Row, View> {
  cursors: CursorCodec;
  binding: CursorBinding;
  cursor?: string;
  limit: number;
  /** Fetches up to `limit + 1` rows after `after` in list order. */
  fetch: (after: KeysetPosition | null, limit: number) => Promise<Row[]>;
  positionOf: (row: Row) => KeysetPosition;
  present: (row: Row) => View;
}

/**
 * A list query's parameters as its cursors are bound to them: each named one as text, a time as
 * its ISO string, an absent one as `''` (so that a cursor made without a filter is refused with one).
 */
export function bindingParams<Q extends object>(query: Q, names: ReadonlyArray<keyof Q & string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of names) {
    const value = query[name] as Date | string | number | undefined | null;
    params[name] = value instanceof Date ? value.toISOString() : value === undefined || value === null ? '' : String(value);
  }
  return params;
}

function decodePosition(values: unknown[]): KeysetPosition {
  const [at, id] = values;
  if (values.length !== 2 || typeof at !== 'string' || typeof id !== 'string' || !/^[0-9]{1,19}$/.test(id)) {
    throw AppError.invalidCursor();
  }
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) throw AppError.invalidCursor();
  return { at: date, id };
}

/**
 * The one keyset pager: decode the cursor (bound to workspace, endpoint and parameters), fetch
 * one row more than the page — the extra row only says whether another page exists, so
 * `next_cursor` is null exactly at the end — and sign the position of the page's last row.
 */
export async function keysetPage<Row, View>(request: KeysetPageRequest<Row, View>): Promise<Page<View>> {
  const { cursors, binding, limit } = request;
  const after = request.cursor === undefined ? null : decodePosition(cursors.decode(binding, request.cursor));
  return LIST_ROWS_IN_FLIGHT.run(limit + 1, async () => {
    const rows = await request.fetch(after, limit);
    const page = rows.length > limit ? rows.slice(0, limit) : rows;
    let nextCursor: string | null = null;
    if (rows.length > limit) {
      const last = request.positionOf(page[page.length - 1]);
      nextCursor = cursors.encode(binding, [last.at.toISOString(), last.id]);
    }
    return { data: page.map(request.present), pagination: { next_cursor: nextCursor } };
  });
}
