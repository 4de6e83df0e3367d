import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { requireWorkspace, WorkspaceContext } from '../../../shared/application/workspace-context';
import { formatId, ID_PREFIXES } from '../../../shared/domain/ids';
import type { KbProfile } from '../domain/evaluator';
import type { CompanyInfo, ContactInfo } from '../../buyers/buyer-shape';
import { domainOf } from '../domain/identity';
import type { MatchedRecord } from '../domain/signal-data';

interface KbRow {
  id: string;
  name: string;
  short_name: string;
  description: string;
}

const RESOURCES = {
  target_page: { table: 'target_pages', prefix: ID_PREFIXES.targetPage },
  target_form: { table: 'target_forms', prefix: ID_PREFIXES.targetForm },
  topic: { table: 'topics', prefix: ID_PREFIXES.topic },
  product: { table: 'products', prefix: ID_PREFIXES.product },
  competitor: { table: 'competitors', prefix: ID_PREFIXES.competitor },
} as const;

/**
 * What the pipeline reads from the knowledge base: only active records of the activity's own
 * workspace, as they are at the moment of processing (so changes apply to later activities only).
 */
@Injectable()
export class KbLookupRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private async one(
    ctx: WorkspaceContext,
    resource: MatchedRecord['resource'],
    condition: string,
    values: unknown[],
    manager: EntityManager,
  ): Promise<MatchedRecord | null> {
    const { table, prefix } = RESOURCES[resource];
    const rows: KbRow[] = await manager.query(
      `SELECT id, name, short_name, description FROM ${table}
        WHERE workspace_id = $1 AND deleted_at IS NULL AND (${condition})
        ORDER BY created_at, id LIMIT 1`,
      [requireWorkspace(ctx), ...values],
    );
    const row = rows[0];
    return row ? { resource, id: formatId(prefix, row.id), name: row.name, short_name: row.short_name, description: row.description } : null;
  }

  targetByCanonicalUrl(ctx: WorkspaceContext, resource: 'target_page' | 'target_form', canonical: string, manager = this.dataSource.manager) {
    return this.one(ctx, resource, 'canonical_url = $2', [canonical], manager);
  }

  /** Topics and Products are named by their name or short name, case-insensitively. */
  byName(ctx: WorkspaceContext, resource: 'topic' | 'product', name: string, manager = this.dataSource.manager) {
    return this.one(ctx, resource, 'lower(name) = lower($2) OR lower(short_name) = lower($2)', [name], manager);
  }

  /** A Competitor whose domain is the given domain or a parent of it (`www.` ignored on both sides). */
  competitorByDomain(ctx: WorkspaceContext, domain: string, manager = this.dataSource.manager) {
    return this.one(
      ctx,
      'competitor',
      `$2 <> '' AND ($2 = regexp_replace(domain, '^www\.', '') OR $2 LIKE '%.' || regexp_replace(domain, '^www\.', ''))`,
      [domain],
      manager,
    );
  }

  /** A Competitor by its LinkedIn company page (`linkedin.com/company/<slug>`) or its name. */
  competitorByLinkedin(ctx: WorkspaceContext, companySlug: string, name: string, manager = this.dataSource.manager) {
    return this.one(
      ctx,
      'competitor',
      `($2 <> '' AND lower(substring(linkedin from 'linkedin\\.com/company/([^/?#]+)')) = $2) OR ($3 <> '' AND lower(name) = lower($3))`,
      [companySlug, name],
      manager,
    );
  }

  /** Domains of the workspace's active Exclusions, `www.` dropped as on the company side. */
  async exclusionDomains(ctx: WorkspaceContext, manager = this.dataSource.manager): Promise<string[]> {
    const rows: Array<{ domain: string }> = await manager.query(
      'SELECT domain FROM exclusions WHERE workspace_id = $1 AND deleted_at IS NULL',
      [requireWorkspace(ctx)],
    );
    return rows.map((row) => domainOf(row.domain));
  }

  /** What is known about the person so far: the Buyer's accumulated objects, if there is a Buyer. */
  async buyerProfile(
    ctx: WorkspaceContext,
    personKey: string,
  ): Promise<{ contact_info: ContactInfo; company_info: CompanyInfo } | null> {
    const rows = await this.dataSource.query(
      'SELECT contact_info, company_info FROM buyers WHERE workspace_id = $1 AND person_key = $2',
      [requireWorkspace(ctx), personKey],
    );
    return rows[0] ?? null;
  }

  /** Active ICPs or Personas, oldest first (the evaluator's tie-break order). */
  async profiles(ctx: WorkspaceContext, table: 'icps' | 'personas'): Promise<KbProfile[]> {
    const rows: Array<{ id: string; name: string; description: string; updated_at: Date }> = await this.dataSource.query(
      `SELECT id, name, description, updated_at FROM ${table} WHERE workspace_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [requireWorkspace(ctx)],
    );
    return rows.map((row) => ({ id: row.id, name: row.name, description: row.description, updatedAt: row.updated_at.toISOString() }));
  }
}
