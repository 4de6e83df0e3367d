import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { requireWorkspace, WorkspaceContext } from '../../../shared/application/workspace-context';
import { formatId, ID_PREFIXES } from '../../../shared/domain/ids';
import { domainOf } from '../domain/identity';
import type { MatchedRecord } from '../domain/signal-data';
import { preparedQuery } from '../../../shared/infrastructure/prepared-query';

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
    const { rows } = await preparedQuery<KbRow>(
      manager,
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
  static exclusionDomains(raw: readonly string[]): string[] {
    return raw.map((domain) => domainOf(domain));
  }

  /**
   * Read alongside the activity, in the same statement (`$1` is the activity's workspace): what a
   * step needs from the knowledge base and the Buyer, without a round trip of its own.
   */
  static readonly columns = {
    /** `exclusion_domains`: the active Exclusions' domains as stored. */
    exclusionDomains: `(SELECT coalesce(json_agg(x.domain), '[]') FROM exclusions x
                         WHERE x.workspace_id = $1 AND x.deleted_at IS NULL) AS exclusion_domains`,
    /** `icps` / `personas`: active profiles, oldest first (the evaluator's tie-break order). */
    profiles: (table: 'icps' | 'personas') =>
      `(SELECT coalesce(json_agg(json_build_object('id', p.id::text, 'name', p.name, 'description', p.description)
                        ORDER BY p.created_at, p.id), '[]')
          FROM ${table} p WHERE p.workspace_id = $1 AND p.deleted_at IS NULL) AS ${table}`,
    /** `known`: what is known about the person so far, if there is a Buyer. */
    known: `(SELECT json_build_object('contact_info', b.contact_info, 'company_info', b.company_info)
               FROM buyers b WHERE b.workspace_id = $1 AND b.person_key = activities.person_key) AS known`,
  };
}
