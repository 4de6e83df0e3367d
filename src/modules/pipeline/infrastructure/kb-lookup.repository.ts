import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import DataLoader from 'dataloader';
import { DataSource, EntityManager } from 'typeorm';
import type { KbResource } from '../../../shared/application/kb-resource';
import { requireWorkspace, WorkspaceContext } from '../../../shared/application/workspace-context';
import { formatId } from '../../../shared/domain/ids';
import { domainOf } from '../../../shared/domain/identity';
import type { MatchedRecord } from '../domain/signal-data';
import { preparedQuery } from '../../../shared/infrastructure/prepared-query';
import type { SqlParams } from '../../../shared/infrastructure/sql-params';
import { groupBy, turnBatching } from '../../../shared/infrastructure/turn-batching';
import type { FieldSources } from '../../buyers/buyer-evaluation';
import type { CompanyInfo, ContactInfo } from '../../buyers/buyer-shape';
import type { KbProfile } from '../domain/evaluator';
import { competitorResource } from '../../kb/competitors/competitor.resource';
import { exclusionResource } from '../../kb/exclusions/exclusion.resource';
import { icpResource } from '../../kb/icps/icp.resource';
import { personaResource } from '../../kb/personas/persona.resource';
import { productResource } from '../../kb/products/product.resource';
import { targetFormResource } from '../../kb/target-forms/target-form.resource';
import { targetPageResource } from '../../kb/target-pages/target-page.resource';
import { topicResource } from '../../kb/topics/topic.resource';

interface KbRow {
  id: string;
  name: string;
  short_name: string;
  description: string;
}

/** The resources a Signal can match, by the name it records them under (`matched.resource`). */
const RESOURCES = {
  target_page: targetPageResource,
  target_form: targetFormResource,
  topic: topicResource,
  product: productResource,
  competitor: competitorResource,
} as const satisfies Record<MatchedRecord['resource'], KbResource>;

/** Target records of one site compared with a discarded activity, at most (a bound on the work, not a rule). */
export const NEAR_MISS_CANDIDATES = 500;

/** A resource's table, as its entity maps it. */
type TableOf = (resource: KbResource) => string;

/**
 * How an activity names its target: `kind` picks the table and the condition, `a` and `b` are the
 * values it compares (unused ones are '').
 */
export interface TargetKey {
  kind: keyof typeof TARGET_KINDS;
  a: string;
  b?: string;
}

/** Per kind: the resource it finds, and its condition on the table's columns and `k.a`, `k.b`. */
const TARGET_KINDS = {
  target_page: { resource: 'target_page', condition: 'canonical_url = k.a' },
  target_form: { resource: 'target_form', condition: 'canonical_url = k.a' },
  /** Topics and Products are named by their name or short name, case-insensitively. */
  topic: { resource: 'topic', condition: 'lower(name) = lower(k.a) OR lower(short_name) = lower(k.a)' },
  product: { resource: 'product', condition: 'lower(name) = lower(k.a) OR lower(short_name) = lower(k.a)' },
  /** A Competitor whose domain is the given domain or a parent of it (`www.` ignored on both sides). */
  competitor_domain: {
    resource: 'competitor',
    condition: `k.a <> '' AND (k.a = regexp_replace(domain, '^www\\.', '') OR k.a LIKE '%.' || regexp_replace(domain, '^www\\.', ''))`,
  },
  /** A Competitor by its LinkedIn company page (`linkedin.com/company/<slug>`, slug in `a`) or its name (`b`). */
  competitor_linkedin: {
    resource: 'competitor',
    condition: `(k.a <> '' AND lower(substring(linkedin from 'linkedin\\.com/company/([^/?#]+)')) = k.a) OR (k.b <> '' AND lower(name) = lower(k.b))`,
  },
} as const satisfies Record<string, { resource: MatchedRecord['resource']; condition: string }>;

/**
 * All lookups in one statement: each key, by its position, joined to the oldest active record of
 * its kind that meets its condition (the one branch whose kind matches runs; the others are cut
 * off by their constant test).
 */
const targetsSql = (tableOf: TableOf) => `SELECT k.n::int AS n, t.resource, t.id::text AS id, t.name, t.short_name, t.description
  FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS k (kind, a, b, n)
  CROSS JOIN LATERAL (${Object.entries(TARGET_KINDS)
    .map(
      ([kind, { resource, condition }]) =>
        `(SELECT '${resource}' AS resource, id, name, short_name, description FROM ${tableOf(RESOURCES[resource])}
           WHERE k.kind = '${kind}' AND workspace_id = $1 AND deleted_at IS NULL AND (${condition})
           ORDER BY created_at, id LIMIT 1)`,
    )
    .join(' UNION ALL ')}) AS t`;

/**
 * What the pipeline reads from the knowledge base: only active records of the activity's own
 * workspace, as they are at the moment of processing (so changes apply to later activities only).
 */
@Injectable()
export class KbLookupRepository {
  /** The statements, with table names from the entities' metadata; built once. */
  private statements?: { targets: string; evaluationInputs: string };

  private get sql(): { targets: string; evaluationInputs: string } {
    if (!this.statements) {
      const tableOf: TableOf = (resource) => this.dataSource.getMetadata(resource.entity).tableName;
      this.statements = { targets: targetsSql(tableOf), evaluationInputs: evaluationInputsSql(tableOf) };
    }
    return this.statements;
  }

  /** The record each key names, or null; answers follow `keys`. */
  async targets(ctx: WorkspaceContext, keys: readonly TargetKey[], manager: EntityManager): Promise<Array<MatchedRecord | null>> {
    if (keys.length === 0) return [];
    const { rows } = await preparedQuery<KbRow & { n: number; resource: MatchedRecord['resource'] }>(manager, this.sql.targets, [
      requireWorkspace(ctx),
      keys.map((key) => key.kind),
      keys.map((key) => key.a),
      keys.map((key) => key.b ?? ''),
    ]);
    const found: Array<MatchedRecord | null> = keys.map(() => null);
    for (const { n, resource, id, name, short_name, description } of rows) {
      found[n - 1] = { resource, id: formatId(RESOURCES[resource].idPrefix, id), name, short_name, description };
    }
    return found;
  }

  /**
   * The workspace's active Target Pages or Target Forms on any of these registered domains (their
   * canonical URL's host is the domain or under it), oldest first, at most `NEAR_MISS_CANDIDATES`:
   * what a `no_target_match` is compared with to name the closest one (`nearestTarget`).
   */
  async nearMissCandidates(
    ctx: WorkspaceContext,
    kind: 'target_page' | 'target_form',
    domains: readonly string[],
    manager: EntityManager,
  ): Promise<Array<{ id: string; url: string }>> {
    if (domains.length === 0) return [];
    const resource = RESOURCES[kind];
    const host = `split_part(split_part(split_part(canonical_url, '/', 1), '?', 1), ':', 1)`;
    const { rows } = await preparedQuery<{ id: string; url: string }>(
      manager,
      `SELECT id::text AS id, canonical_url AS url FROM ${this.dataSource.getMetadata(resource.entity).tableName}
        WHERE workspace_id = $1 AND deleted_at IS NULL
          AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS d (domain) WHERE ${host} = d.domain OR ${host} LIKE '%.' || d.domain)
        ORDER BY created_at, id LIMIT ${NEAR_MISS_CANDIDATES}`,
      [requireWorkspace(ctx), [...new Set(domains)]],
    );
    return rows.map((row) => ({ id: formatId(resource.idPrefix, row.id), url: row.url }));
  }

  /** Domains of the workspace's active Exclusions, `www.` dropped as on the company side. */
  static exclusionDomains(raw: readonly string[]): string[] {
    return raw.map((domain) => domainOf(domain));
  }

  /**
   * What Evaluate judges a person by: the workspace's active ICPs and Personas, and what is known
   * about the person so far, if they have a Buyer. The lookups of one turn of the event loop are
   * made in one statement per workspace.
   */
  evaluationInputs(ctx: WorkspaceContext, personKey: string): Promise<EvaluationInputs> {
    return this.evaluationLoads.load({ workspaceId: requireWorkspace(ctx), personKey });
  }

  private readonly evaluationLoads = new DataLoader<{ workspaceId: string; personKey: string }, EvaluationInputs>(
    (keys) => this.evaluationBatch(keys),
    turnBatching(),
  );

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The same inputs for many people at once, read with `manager`: Match reads them in its
   * transaction, holding the Buyers' locks, to judge each Buyer as folded and to check the
   * Exclusions against the company a Buyer knows.
   */
  async evaluationInputsOf(
    ctx: WorkspaceContext,
    personKeys: readonly string[],
    manager: EntityManager,
  ): Promise<{ icps: KbProfile[]; personas: KbProfile[]; known: Record<string, KnownBuyer> }> {
    const { rows } = await preparedQuery<{ icps: KbProfile[]; personas: KbProfile[]; known: Record<string, KnownBuyer> }>(
      manager,
      this.sql.evaluationInputs,
      [requireWorkspace(ctx), [...new Set(personKeys)]],
    );
    return rows[0];
  }

  private async evaluationBatch(keys: ReadonlyArray<{ workspaceId: string; personKey: string }>): Promise<EvaluationInputs[]> {
    const answers = new Map<string, EvaluationInputs>();
    for (const [workspaceId, group] of groupBy(keys, (key) => key.workspaceId)) {
      const personKeys = group.map((key) => key.personKey);
      const { icps, personas, known } = await this.evaluationInputsOf(
        WorkspaceContext.forPipeline(workspaceId),
        personKeys,
        this.dataSource.manager,
      );
      for (const personKey of personKeys) {
        answers.set(`${workspaceId}\u0000${personKey}`, { icps, personas, known: known[personKey] ?? null });
      }
    }
    // Shared between the callers of a batch: Evaluate only reads what it gets.
    return keys.map((key) => answers.get(`${key.workspaceId}\u0000${key.personKey}`)!);
  }

  /**
   * The column `exclusion_domains`, the active Exclusions' domains as stored, read alongside the
   * activities Match locks, in the statement that locks them (of the statement's `workspace`).
   */
  exclusionDomainsColumn(params: SqlParams): string {
    return `(SELECT coalesce(json_agg(x.domain), '[]') FROM ${this.dataSource.getMetadata(exclusionResource.entity).tableName} x
                         WHERE x.workspace_id = ${params.ref('workspace')} AND x.deleted_at IS NULL) AS exclusion_domains`;
  }
}

/** Active profiles, oldest first (the evaluator's tie-break order), as the column `name`. */
const profiles = (table: string, name: 'icps' | 'personas') =>
  `(SELECT coalesce(json_agg(json_build_object('id', p.id::text, 'name', p.name, 'description', p.description)
                    ORDER BY p.created_at, p.id), '[]')
      FROM ${table} p WHERE p.workspace_id = $1 AND p.deleted_at IS NULL) AS ${name}`;

/** The profiles, and per person key (`$2`) their Buyer's contact and company (a person has one Buyer). */
const evaluationInputsSql = (
  tableOf: TableOf,
) => `SELECT ${profiles(tableOf(icpResource), 'icps')}, ${profiles(tableOf(personaResource), 'personas')},
  (SELECT coalesce(json_object_agg(b.person_key, json_build_object('contact_info', b.contact_info, 'company_info', b.company_info, 'sources', b.sources)), '{}')
     FROM buyers b WHERE b.workspace_id = $1 AND b.person_key = ANY($2::text[])) AS known`;

interface KnownBuyer {
  contact_info: ContactInfo;
  company_info: CompanyInfo;
  sources: FieldSources;
}

export interface EvaluationInputs {
  icps: KbProfile[];
  personas: KbProfile[];
  known: KnownBuyer | null;
}
