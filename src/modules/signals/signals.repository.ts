import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '../../database/replica-reads';
import type { KeysetPosition } from '../../shared/application/pagination';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { keysetSql, SortOrder } from '../../shared/infrastructure/keyset-sql';
import type { SignalTrigger, SignalType } from './signal-types';

export interface SignalRow {
  id: string;
  buyer_id: string;
  type: SignalType;
  data: Record<string, unknown>;
  captured_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A Signal row of `alias` as JSON in the shape of `SignalRow` (what an event keeps of a Signal); bigints as text. */
export function signalRowJson(alias: string): string {
  return `json_build_object('id', ${alias}.id::text, 'workspace_id', ${alias}.workspace_id::text, 'buyer_id', ${alias}.buyer_id::text,
    'type', ${alias}.type, 'trigger', ${alias}.trigger, 'data', ${alias}.data, 'captured_at', ${alias}.captured_at,
    'created_at', ${alias}.created_at, 'updated_at', ${alias}.updated_at)`;
}

export interface SignalFilter {
  buyerId?: string;
  type?: SignalType;
  trigger?: SignalTrigger;
  capturedAfter?: Date;
  capturedBefore?: Date;
  order: SortOrder;
}

/**
 * One keyset page's statement. Each filter is an equality or range on a leading column of one of
 * the signals indexes (workspace + buyer / type / trigger, then captured_at, id), so every shape
 * is an index range scan that stops after `limit + 1` rows, however deep the page. The table is
 * partitioned by month of `captured_at` (ADR 0052): a cursor also bounds `captured_at` on its own,
 * and a Buyer's Signals lie between its first and last Signal's times, so each page reads only the
 * months it can find rows in.
 */
export function signalsPageSql(
  workspaceId: string,
  filter: SignalFilter,
  after: KeysetPosition | null,
  limit: number,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [workspaceId];
  const conditions = ['s.workspace_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (filter.buyerId !== undefined) {
    add('s.buyer_id = ?', filter.buyerId);
    const buyer = (column: string) => `(SELECT b.${column} FROM buyers b WHERE b.workspace_id = $1 AND b.id = $${params.length})`;
    conditions.push(`s.captured_at >= ${buyer('first_signal_at')}`, `s.captured_at <= ${buyer('last_signal_at')}`);
  }
  if (filter.trigger !== undefined) add('s.trigger = ?', filter.trigger);
  else if (filter.type !== undefined) add('s.type = ?', filter.type);
  if (filter.capturedAfter) add('s.captured_at >= ?', filter.capturedAfter);
  if (filter.capturedBefore) add('s.captured_at < ?', filter.capturedBefore);
  const keyset = keysetSql('s', 'captured_at', filter.order, after, limit, params, { partitioned: true });
  if (keyset.where) conditions.push(keyset.where);
  return {
    sql: `SELECT s.id, s.buyer_id, s.type, s.data, s.captured_at, s.created_at, s.updated_at
         FROM signals s WHERE ${conditions.join(' AND ')} ${keyset.tail}`,
    params,
  };
}

/** Read-only, and read a few seconds stale at most: its statements go through `ReplicaReads` (ADR 0050). */
@Injectable()
export class SignalsRepository {
  constructor(private readonly reads: ReplicaReads) {}

  /** One keyset page (`signalsPageSql`). */
  async page(ctx: WorkspaceContext, filter: SignalFilter, after: KeysetPosition | null, limit: number): Promise<SignalRow[]> {
    const { sql, params } = signalsPageSql(requireWorkspace(ctx), filter, after, limit);
    const { rows } = await this.reads.query<SignalRow>(sql, params);
    return rows;
  }
}
