import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '../../database/replica-reads';
import type { KeysetPosition } from '../../shared/application/pagination';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { keysetSql, SortOrder } from '../../shared/infrastructure/keyset-sql';
import type { StoredBuyerEvaluation } from './buyer-evaluation';
import { BUYER_EVALUATION_SELECT, BUYER_SELECT } from './buyers.sql';

/** A Buyer row with its ICP/Persona association already resolved against the live records. */
export interface BuyerRow {
  id: string;
  workspace_id: string;
  contact_info: Record<string, unknown>;
  company_info: Record<string, unknown>;
  hems: unknown[];
  attribution: Record<string, unknown>;
  icp_id: string | null;
  icp_name: string;
  icp_reasoning: string;
  persona_id: string | null;
  persona_name: string;
  persona_reasoning: string;
  signal_count_total: number;
  signal_count_website: number;
  signal_count_market: number;
  signal_count_linkedin: number;
  first_signal_id: string | null;
  first_signal_type: string;
  first_signal_trigger: string;
  last_signal_id: string | null;
  last_signal_type: string;
  last_signal_trigger: string;
  created_at: Date;
  updated_at: Date;
}

/** A Buyer's stored evaluation, and its association as the public Buyer shows it. */
export type BuyerEvaluationRow = Pick<
  BuyerRow,
  'id' | 'icp_id' | 'icp_name' | 'icp_reasoning' | 'persona_id' | 'persona_name' | 'persona_reasoning'
> & { evaluation: StoredBuyerEvaluation | null };

export interface BuyerFilter {
  createdAfter?: Date;
  createdBefore?: Date;
  order: SortOrder;
}

/** Built once: a statement's text is looked up by value for its prepared name on every run. */
const BUYER_BY_ID = `${BUYER_SELECT} WHERE b.workspace_id = $1 AND b.id = $2`;

/** Read-only, and read a few seconds stale at most: every statement goes through `ReplicaReads` (ADR 0050). */
@Injectable()
export class BuyersRepository {
  constructor(private readonly reads: ReplicaReads) {}

  async page(ctx: WorkspaceContext, filter: BuyerFilter, after: KeysetPosition | null, limit: number): Promise<BuyerRow[]> {
    const params: unknown[] = [requireWorkspace(ctx)];
    const conditions = ['b.workspace_id = $1'];
    if (filter.createdAfter) {
      params.push(filter.createdAfter);
      conditions.push(`b.created_at >= $${params.length}`);
    }
    if (filter.createdBefore) {
      params.push(filter.createdBefore);
      conditions.push(`b.created_at < $${params.length}`);
    }
    const keyset = keysetSql('b', 'created_at', filter.order, after, limit, params);
    if (keyset.where) conditions.push(keyset.where);
    return (await this.reads.query<BuyerRow>(`${BUYER_SELECT} WHERE ${conditions.join(' AND ')} ${keyset.tail}`, params)).rows;
  }

  async findOne(ctx: WorkspaceContext, id: string): Promise<BuyerRow | null> {
    const { rows } = await this.reads.query<BuyerRow>(BUYER_BY_ID, [requireWorkspace(ctx), id]);
    return rows[0] ?? null;
  }

  async findEvaluation(ctx: WorkspaceContext, id: string): Promise<BuyerEvaluationRow | null> {
    const { rows } = await this.reads.query<BuyerEvaluationRow>(BUYER_EVALUATION_SELECT, [requireWorkspace(ctx), id]);
    return rows[0] ?? null;
  }
}
