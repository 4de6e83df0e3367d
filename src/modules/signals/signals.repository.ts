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

/** Read-only, and read a few seconds stale at most: its statements go through `ReplicaReads` (ADR 0050). */
@Injectable()
export class SignalsRepository {
  constructor(private readonly reads: ReplicaReads) {}

  /**
   * One keyset page. Each filter is an equality or range on a leading column of one of the
   * signals indexes (workspace + buyer / type / trigger, then captured_at, id), so every shape
   * is an index range scan that stops after `limit + 1` rows, however deep the page.
   */
  async page(ctx: WorkspaceContext, filter: SignalFilter, after: KeysetPosition | null, limit: number): Promise<SignalRow[]> {
    const params: unknown[] = [requireWorkspace(ctx)];
    const conditions = ['s.workspace_id = $1'];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      conditions.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.buyerId !== undefined) add('s.buyer_id = ?', filter.buyerId);
    if (filter.trigger !== undefined) add('s.trigger = ?', filter.trigger);
    else if (filter.type !== undefined) add('s.type = ?', filter.type);
    if (filter.capturedAfter) add('s.captured_at >= ?', filter.capturedAfter);
    if (filter.capturedBefore) add('s.captured_at < ?', filter.capturedBefore);
    const keyset = keysetSql('s', 'captured_at', filter.order, after, limit, params);
    if (keyset.where) conditions.push(keyset.where);
    const { rows } = await this.reads.query<SignalRow>(
      `SELECT s.id, s.buyer_id, s.type, s.data, s.captured_at, s.created_at, s.updated_at
         FROM signals s WHERE ${conditions.join(' AND ')} ${keyset.tail}`,
      params,
    );
    return rows;
  }
}
