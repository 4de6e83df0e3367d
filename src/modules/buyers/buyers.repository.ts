import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KeysetPosition } from '../../shared/application/pagination';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { keysetSql, SortOrder } from '../../shared/infrastructure/keyset-sql';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';

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

export interface BuyerFilter {
  createdAfter?: Date;
  createdBefore?: Date;
  order: SortOrder;
}

/*
 * The association columns come back only while the matched ICP/Persona is active in the same
 * workspace: deleting it removes the association on read, without rewriting any Buyer. The
 * reasoning of a non-match (why no profile fitted) is shown as it was written.
 */
const SELECT = `
  SELECT b.id, b.workspace_id, b.contact_info, b.company_info, b.hems, b.attribution,
         i.id AS icp_id, CASE WHEN i.id IS NULL THEN '' ELSE b.icp_name END AS icp_name,
         CASE WHEN b.is_icp AND i.id IS NULL THEN '' ELSE b.icp_reasoning END AS icp_reasoning,
         p.id AS persona_id, CASE WHEN p.id IS NULL THEN '' ELSE b.persona_name END AS persona_name,
         CASE WHEN b.is_persona AND p.id IS NULL THEN '' ELSE b.persona_reasoning END AS persona_reasoning,
         b.signal_count_total, b.signal_count_website, b.signal_count_market, b.signal_count_linkedin,
         b.first_signal_id, b.first_signal_type, b.first_signal_trigger,
         b.last_signal_id, b.last_signal_type, b.last_signal_trigger,
         b.created_at, b.updated_at
    FROM buyers b
    LEFT JOIN icps i ON b.is_icp AND i.id = b.icp_id AND i.workspace_id = b.workspace_id AND i.deleted_at IS NULL
    LEFT JOIN personas p ON b.is_persona AND p.id = b.persona_id AND p.workspace_id = b.workspace_id AND p.deleted_at IS NULL`;

@Injectable()
export class BuyersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
    return (await preparedQuery<BuyerRow>(this.dataSource.manager, `${SELECT} WHERE ${conditions.join(' AND ')} ${keyset.tail}`, params)).rows;
  }

  async findOne(ctx: WorkspaceContext, id: string): Promise<BuyerRow | null> {
    const { rows } = await preparedQuery<BuyerRow>(this.dataSource.manager, `${SELECT} WHERE b.workspace_id = $1 AND b.id = $2`, [
      requireWorkspace(ctx),
      id,
    ]);
    return rows[0] ?? null;
  }
}
