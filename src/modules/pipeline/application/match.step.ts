import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import DataLoader from 'dataloader';
import { DataSource, EntityManager } from 'typeorm';
import { WorkspaceContext } from '../../../shared/application/workspace-context';
import { canonicalizeUrl } from '../../../shared/domain/canonical-url';
import { Clock } from '../../../shared/domain/clock';
import { IdGenerator } from '../../../shared/domain/ids';
import { CLOCK, ID_GENERATOR } from '../../../shared/shared.module';
import { ActivitiesRepository, ActivityChanges } from '../../activities/activities.repository';
import type { ActivityEntity } from '../../activities/activity.entity';
import type { FieldSources } from '../../buyers/buyer-evaluation';
import { domainOf, isSameOrSubdomain } from '../../../shared/domain/identity';
import { EVALUATOR, Evaluator } from '../domain/evaluator';
import { nearestTarget, registeredDomain, urlParts } from '../domain/near-miss';
import { buildSignalData } from '../domain/signal-data';
import { attributionOf, BuyerFold, BuyerToLock, BuyerWriter, NewSignal } from '../infrastructure/buyer-writer';
import { KbLookupRepository, TargetKey } from '../infrastructure/kb-lookup.repository';
import { MatchWriter } from '../infrastructure/match-writer';
import { carriedWith, PipelineJob, PipelineQueue } from '../queues';
import { judge } from './evaluate.step';
import { PipelineStep, restart } from './pipeline-step';
import { groupBy, turnBatching } from '../../../shared/infrastructure/turn-batching';
import { isUnavailable } from '../../../shared/infrastructure/postgres-errors';
import { Statement, transactionCommittingBehind } from '../../../shared/infrastructure/commit-behind';

const LINKEDIN_COMPANY = /linkedin\.com\/company\/([^/?#\s]+)/i;

type LockedActivity = ActivityEntity & { exclusion_domains: string[]; sources?: FieldSources };

/**
 * Match: exclusions first, then the trigger's target. A match writes one Signal and folds it into
 * the Buyer; either way the activity ends here, and its row gets what the steps found. The jobs of
 * one turn of the event loop are matched together, per workspace, in one transaction holding their
 * activities' row locks and their Buyers' (each taken in key order), so each activity takes effect
 * exactly once however often its job runs, and the batch costs the round trips one activity used
 * to.
 */
@Injectable()
export class MatchStep extends PipelineStep {
  private readonly batches = new DataLoader<PipelineJob, PipelineQueue | null>((jobs) => this.runBatch(jobs), turnBatching());

  constructor(
    private readonly activities: ActivitiesRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly kb: KbLookupRepository,
    private readonly buyers: BuyerWriter,
    private readonly writer: MatchWriter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(EVALUATOR) private readonly evaluator: Evaluator,
  ) {
    super();
  }

  run(job: PipelineJob): Promise<PipelineQueue | null> {
    return this.batches.load(job);
  }

  /**
   * One transaction per workspace. If a batch fails, its jobs are matched again one by one, so
   * that a failure (a deadlock, one bad activity) fails only the job it belongs to. When PostgreSQL
   * is unavailable (refusing, or not answering within the query timeout) every job of the batch
   * fails at once and BullMQ retries each with backoff: one by one, a batch of 64 would wait out
   * the timeout 64 times.
   */
  private async runBatch(jobs: readonly PipelineJob[]): Promise<Array<PipelineQueue | null | Error>> {
    const answers: Array<PipelineQueue | null | Error> = jobs.map(() => null);
    const indexed = jobs.map((job, index) => ({ job, index }));
    await Promise.all(
      [...groupBy(indexed, ({ job }) => job.workspaceId).values()].map(async (members) => {
        const ctx = WorkspaceContext.forPipeline(members[0].job.workspaceId);
        const attempt = async (group: typeof members) => {
          const results = await this.matchAll(
            ctx,
            group.map(({ job }) => job),
          );
          group.forEach(({ index }, k) => (answers[index] = results[k]));
        };
        try {
          await attempt(members);
        } catch (error) {
          if (members.length === 1 || isUnavailable(error)) {
            for (const { index } of members) answers[index] = asError(error);
            return;
          }
          for (const member of members) await attempt([member]).catch((alone) => (answers[member.index] = asError(alone)));
        }
      }),
    );
    return answers;
  }

  /**
   * Matches the jobs' activities that are not finished yet, with what each job carries (the first
   * job of an activity, if it has several); answers, per job, where it goes next.
   */
  private matchAll(ctx: WorkspaceContext, jobs: readonly PipelineJob[]): Promise<Array<PipelineQueue | null>> {
    // The write is the transaction's last statement and goes out with its COMMIT, so the
    // workspace's event counter, which it locks, is held only while it runs (ADR 0068).
    return transactionCommittingBehind(this.dataSource, async (manager) => {
      // The workspace's event counter stays locked until commit (ADR 0043); not waiting for the WAL
      // flush shortens that. A PostgreSQL crash within its window (≤ 3 × wal_writer_delay) loses
      // the whole batch, which the sweeper then runs again: nothing acknowledged to a client is in it.
      await manager.query(`SET LOCAL synchronous_commit = off`);
      const locked = await this.activities.lockMany<{ exclusion_domains: string[] }>(
        ctx,
        jobs.map((job) => job.activityId),
        manager,
        (params) => this.kb.exclusionDomainsColumn(params),
      );
      const pending = new Set<LockedActivity>();
      const next = jobs.map((job, k) => {
        const activity = locked[k];
        if (!activity || activity.stage === 'done' || pending.has(activity)) return null;
        const carried = carriedWith(job, 'contact_info', 'company_info', 'evaluation');
        if (!carried) return restart(job);
        const { identity, contact_info, company_info, evaluation, sources } = carried;
        pending.add(Object.assign(activity, { person_key: identity.personKey, identity, contact_info, company_info, evaluation, sources }));
        return null;
      });
      const last = pending.size > 0 ? await this.matchLocked(ctx, [...pending], manager) : null;
      return { result: next, last };
    });
  }

  /** Reads and decides under the activities' locks; answers the write that ends the transaction. */
  private async matchLocked(ctx: WorkspaceContext, activities: LockedActivity[], manager: EntityManager): Promise<Statement> {
    const now = this.clock.now();
    const outcomes = new Map<LockedActivity, ActivityChanges>();
    // The profiles, and what each person's Buyer knows: one statement, in the transaction.
    const inputs = await this.kb.evaluationInputsOf(
      ctx,
      activities.map((activity) => activity.person_key!),
      manager,
    );
    const candidates = activities.filter((activity) => {
      // An activity that names no company is checked against the company its person's Buyer knows.
      if (!this.excluded(activity, inputs.known[activity.person_key!]?.company_info.website)) return true;
      outcomes.set(activity, { stage: 'done', status: 'discarded', discard_reason: 'excluded_company' });
      return false;
    });
    const keys = candidates.map(targetKey);
    const targets = await this.kb.targets(ctx, keys, manager);
    const missed: Array<{ key: TargetKey; outcome: ActivityChanges }> = [];
    // Signals in captured_at order: each Buyer folds them in that order.
    const matched = candidates
      .map((activity, k) => ({ activity, target: targets[k], key: keys[k] }))
      .filter(({ activity, target, key }) => {
        if (target) return true;
        const outcome: ActivityChanges = { stage: 'done', status: 'discarded', discard_reason: 'no_target_match' };
        outcomes.set(activity, outcome);
        missed.push({ key, outcome });
        return false;
      })
      .sort((a, b) => a.activity.occurred_at.getTime() - b.activity.occurred_at.getTime() || compareIds(a.activity.id, b.activity.id));

    await this.explainMisses(ctx, missed, manager);

    const signals: NewSignal[] = [];
    const folds: BuyerFold[] = [];
    if (matched.length > 0) {
      // Lock (or create) the Buyers, then write them, the Signals and the outcomes together.
      const people = new Map<string, BuyerToLock>();
      for (const { activity } of matched) {
        const personKey = activity.person_key!;
        if (!people.has(personKey)) people.set(personKey, { personKey, newBuyerId: this.ids.next(), attribution: attributionOf(activity) });
      }
      const buyers = await this.buyers.lockOrCreate(ctx, manager, [...people.values()]);
      const foldOf = new Map<string, BuyerFold>();
      for (const { activity, target } of matched) {
        const personKey = activity.person_key!;
        let fold = foldOf.get(personKey);
        if (!fold) foldOf.set(personKey, (fold = BuyerWriter.startFold(buyers.get(personKey)!)));
        const signal = {
          id: this.ids.next(),
          buyerId: fold.buyer.id,
          activity,
          data: buildSignalData(activity.payload, target!),
          matched: target!,
          sources: activity.sources,
        };
        BuyerWriter.fold(fold, signal);
        signals.push(signal);
        outcomes.set(activity, { stage: 'done', status: 'processed', buyer_id: fold.buyer.id, signal_id: signal.id });
      }
      folds.push(...foldOf.values());
      // Each Buyer is judged as it now is, with every Signal folded in. An activity's own evaluation
      // saw the Buyer as it was when Evaluate ran, without the activities matched beside it or
      // just before it; what one of them told (the company's industry, say) counts here.
      for (const fold of folds) fold.evaluation = judge(this.evaluator, fold.buyer, inputs);
    }

    const rows = [...outcomes].map(([activity, outcome]) => {
      const { person_key, identity, contact_info, company_info, evaluation } = activity;
      return { id: String(activity.id), changes: { person_key, identity, contact_info, company_info, evaluation, ...outcome } };
    });
    return this.writer.statementFor(ctx, { folds, signals, outcomes: rows }, now);
  }

  /**
   * A website activity that matched no Target Page (a visit) or Target Form (a submission) keeps
   * the closest one and how its URL differed (`nearestTarget`), read from the records of the
   * visited site only; the other outcomes' `near_miss` stays null.
   */
  private async explainMisses(
    ctx: WorkspaceContext,
    missed: ReadonlyArray<{ key: TargetKey; outcome: ActivityChanges }>,
    manager: EntityManager,
  ): Promise<void> {
    for (const kind of ['target_page', 'target_form'] as const) {
      const group = missed.filter(({ key }) => key.kind === kind);
      if (group.length === 0) continue;
      const domains = group.map(({ key }) => registeredDomain(urlParts(key.a).name));
      const candidates = await this.kb.nearMissCandidates(ctx, kind, domains, manager);
      for (const { key, outcome } of group) {
        const nearest = nearestTarget(key.a, candidates);
        if (!nearest) continue;
        const id = kind === 'target_page' ? { target_page_id: nearest.id } : { target_form_id: nearest.id };
        outcome.near_miss = { ...id, url: nearest.url, differences: nearest.differences };
      }
    }
  }

  /** The activity's company, else the one its Buyer knows (`knownWebsite`), else the email's domain, against the Exclusions. */
  private excluded(activity: LockedActivity, knownWebsite: string | undefined): boolean {
    const companyDomain =
      domainOf(activity.company_info!.website) || domainOf(knownWebsite) || domainOf(activity.identity?.email.split('@')[1]);
    const exclusions = KbLookupRepository.exclusionDomains(activity.exclusion_domains);
    return exclusions.some((domain) => isSameOrSubdomain(companyDomain, domain));
  }
}

function compareIds(a: string, b: string): number {
  return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** How the activity names its target, by trigger. */
function targetKey(activity: ActivityEntity): TargetKey {
  const { payload } = activity;
  switch (activity.trigger) {
    case 'visited_page':
    case 'filled_form':
    case 'abandoned_form':
      return {
        kind: activity.trigger === 'visited_page' ? 'target_page' : 'target_form',
        a: canonicalizeUrl(payload.website!.url)!.canonical,
      };
    case 'researched_topic':
      return { kind: 'topic', a: payload.market!.topic };
    case 'explored_product':
      return { kind: 'product', a: payload.market!.topic };
    case 'evaluated_competitor':
      return { kind: 'competitor_domain', a: domainOf(payload.market!.company_website) };
    case 'followed_page':
    case 'commented_post':
    case 'reacted_post': {
      const linkedin = payload.linkedin ?? {};
      const slug = (LINKEDIN_COMPANY.exec(linkedin.url ?? '')?.[1] ?? '').toLowerCase();
      return { kind: 'competitor_linkedin', a: slug, b: linkedin.company_name ?? '' };
    }
  }
}
