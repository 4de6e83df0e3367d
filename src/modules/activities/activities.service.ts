import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../shared/application/app-error';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { Clock } from '../../shared/domain/clock';
import { formatId, ID_PREFIXES, IdGenerator, parseId } from '../../shared/domain/ids';
import { warnAtMostEvery } from '../../shared/infrastructure/warn-at-most-every';
import { CLOCK, ID_GENERATOR } from '../../shared/shared.module';
import { PipelineProducer } from '../pipeline/pipeline.producer';
import { validateActivityBatch } from './activity-input';
import { ActivitiesRepository } from './activities.repository';
import type { ActivityStatus, DiscardReason } from './activity.entity';

export interface IntakeResult {
  data: Array<{ id: string; status: 'queued' | 'duplicate' }>;
}

export interface ActivityStatusView {
  id: string;
  status: ActivityStatus;
  signal_id: string | null;
  buyer_id: string | null;
  discard_reason: DiscardReason | null;
}

/** Activity intake (DESIGN §2): validate all, store durably, then queue for Resolve. */
@Injectable()
export class ActivitiesService {
  /** While Redis is away every intake fails to queue; one warning now and then. */
  private readonly warnNotQueued = warnAtMostEvery(
    new Logger(ActivitiesService.name),
    'Stored activities not queued; the sweeper will queue them',
  );

  constructor(
    private readonly activities: ActivitiesRepository,
    private readonly producer: PipelineProducer,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async intake(ctx: WorkspaceContext, body: unknown): Promise<IntakeResult> {
    const workspaceId = requireWorkspace(ctx);
    const inputs = validateActivityBatch(body, this.clock.now());
    // Redis being away passes (the sweeper queues the stored activities later, ADR 0012); Redis
    // that cannot take the jobs as configured (a cluster spoken to as one server) would leave them
    // unqueued until the configuration changes, so nothing is stored and claimed `queued` then.
    const misconfigured = await this.producer.misconfigured();
    if (misconfigured) {
      throw AppError.serviceUnavailable('Activities cannot be queued now: the queues are misconfigured (see /health/ready).', 30);
    }
    const batch = inputs.map((input) => ({ id: this.ids.next(), input }));
    const inserted = await this.activities.insertBatch(ctx, batch, this.clock.now());

    const skipped = batch.filter((a) => !inserted.has(a.id));
    const existing = await this.activities.idsByExternalId(
      ctx,
      skipped.map((a) => a.input.external_id!),
    );
    const data = batch.map((a) =>
      inserted.has(a.id)
        ? { id: formatId(ID_PREFIXES.activity, a.id), status: 'queued' as const }
        : { id: formatId(ID_PREFIXES.activity, existing.get(a.input.external_id!) ?? a.id), status: 'duplicate' as const },
    );

    // The activities are stored: from here on nothing is lost. If Redis does not take the jobs
    // within the bound, the answer is still 202 and the sweeper queues them later (ADR 0012).
    const jobs = batch.filter((a) => inserted.has(a.id)).map((a) => ({ workspaceId, activityId: a.id }));
    await this.producer.enqueueManyWithinBound('resolve', jobs).catch((error: Error) => this.warnNotQueued(error));
    return { data };
  }

  async status(ctx: WorkspaceContext, id: string): Promise<ActivityStatusView> {
    const parsed = parseId(ID_PREFIXES.activity, id);
    const row = parsed.kind === 'ok' ? await this.activities.find(ctx, parsed.value) : null;
    if (!row) throw AppError.notFound('activity');
    return {
      id: formatId(ID_PREFIXES.activity, row.id),
      status: row.status,
      signal_id: row.signal_id ? formatId(ID_PREFIXES.signal, row.signal_id) : null,
      buyer_id: row.buyer_id ? formatId(ID_PREFIXES.buyer, row.buyer_id) : null,
      discard_reason: row.discard_reason,
    };
  }
}
