import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { requireWorkspace, WorkspaceContext } from '../../../shared/application/workspace-context';
import { canonicalizeUrl } from '../../../shared/domain/canonical-url';
import { Clock } from '../../../shared/domain/clock';
import { IdGenerator } from '../../../shared/domain/ids';
import { CLOCK, ID_GENERATOR } from '../../../shared/shared.module';
import { ActivitiesRepository, advanceSql } from '../../activities/activities.repository';
import type { ActivityEntity, DiscardReason } from '../../activities/activity.entity';
import { domainOf, isSameOrSubdomain } from '../domain/identity';
import { buildSignalData, MatchedRecord } from '../domain/signal-data';
import { BuyerWriter } from '../infrastructure/buyer-writer';
import { KbLookupRepository } from '../infrastructure/kb-lookup.repository';
import type { PipelineJob, PipelineQueue } from '../infrastructure/queues';
import { PipelineStep, queueFor } from './pipeline-step';
import { preparedQuery } from '../../../shared/infrastructure/prepared-query';

const LINKEDIN_COMPANY = /linkedin\.com\/company\/([^/?#\s]+)/i;

/**
 * Match: exclusions first, then the trigger's target. A match writes one Signal and folds it into
 * the Buyer; either way the activity ends here. The whole step is one transaction holding the
 * activity's row lock, so it takes effect exactly once however often the job runs.
 */
@Injectable()
export class MatchStep extends PipelineStep {
  readonly stage = 'match' as const;

  constructor(
    activities: ActivitiesRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly kb: KbLookupRepository,
    private readonly buyers: BuyerWriter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {
    super(activities);
  }

  override async run(job: PipelineJob): Promise<PipelineQueue | null> {
    const ctx = WorkspaceContext.forPipeline(job.workspaceId);
    return this.dataSource.transaction(async (manager) => {
      const activity = await this.activities.lock<{ exclusion_domains: string[] }>(
        ctx, job.activityId, manager, KbLookupRepository.columns.exclusionDomains,
      );
      if (!activity) return null;
      if (activity.stage !== 'match') return queueFor(activity.stage);
      await this.matchLocked(ctx, activity, manager);
      return null;
    });
  }

  protected process(): Promise<PipelineQueue | null> {
    throw new Error('MatchStep runs through run()');
  }

  private async matchLocked(
    ctx: WorkspaceContext,
    activity: ActivityEntity & { exclusion_domains: string[] },
    manager: EntityManager,
  ): Promise<void> {
    const now = this.clock.now();
    const discard = (reason: DiscardReason) =>
      this.activities.advance(ctx, activity.id, 'match', { stage: 'done', status: 'discarded', discard_reason: reason }, now, manager);

    const company = activity.company_info!;
    const companyDomain = domainOf(company.website) || domainOf(activity.identity?.email.split('@')[1]);
    const exclusions = KbLookupRepository.exclusionDomains(activity.exclusion_domains);
    if (exclusions.some((domain) => isSameOrSubdomain(companyDomain, domain))) return void (await discard('excluded_company'));

    const matched = await this.findTarget(ctx, activity, manager);
    if (!matched) return void (await discard('no_target_match'));

    // Lock (or create) the Buyer, then write it, the Signal and the activity's outcome together.
    const buyer = await this.buyers.lockOrCreate(ctx, manager, activity, this.ids.next(), now);
    const signal = { id: this.ids.next(), data: buildSignalData(activity.payload, matched), matched };
    const fold = this.buyers.foldCtes(ctx, buyer, activity, signal, now);
    const outcome = advanceSql(
      requireWorkspace(ctx), activity.id, 'match',
      { stage: 'done', status: 'processed', buyer_id: buyer.id, signal_id: signal.id }, now, fold.params.length + 1,
    );
    await preparedQuery(manager, `WITH ${fold.ctes} ${outcome.sql}`, [...fold.params, ...outcome.params]);
  }

  private findTarget(ctx: WorkspaceContext, activity: ActivityEntity, manager: EntityManager): Promise<MatchedRecord | null> {
    const { payload } = activity;
    switch (activity.trigger) {
      case 'visited_page':
      case 'filled_form':
      case 'abandoned_form': {
        const canonical = canonicalizeUrl(payload.website!.url)!.canonical;
        const resource = activity.trigger === 'visited_page' ? 'target_page' : 'target_form';
        return this.kb.targetByCanonicalUrl(ctx, resource, canonical, manager);
      }
      case 'researched_topic':
        return this.kb.byName(ctx, 'topic', payload.market!.topic, manager);
      case 'explored_product':
        return this.kb.byName(ctx, 'product', payload.market!.topic, manager);
      case 'evaluated_competitor':
        return this.kb.competitorByDomain(ctx, domainOf(payload.market!.company_website), manager);
      case 'followed_page':
      case 'commented_post':
      case 'reacted_post': {
        const linkedin = payload.linkedin ?? {};
        const slug = (LINKEDIN_COMPANY.exec(linkedin.url ?? '')?.[1] ?? '').toLowerCase();
        return this.kb.competitorByLinkedin(ctx, slug, linkedin.company_name ?? '', manager);
      }
    }
  }
}
