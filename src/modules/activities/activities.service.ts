import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../shared/application/app-error';
import { requireWorkspace, WorkspaceContext } from '../../shared/application/workspace-context';
import { Clock } from '../../shared/domain/clock';
import { bindingParams, keysetPage, Page } from '../../shared/application/pagination';
import { formatTimestamp } from '../../shared/domain/clock';
import { firstIdAt, formatId, ID_PREFIXES, IdGenerator, MAX_ID, mintedAt, parseId } from '../../shared/domain/ids';
import { CursorCodec } from '../../shared/infrastructure/cursor-codec';
import type { SignalTrigger, SignalType } from '../signals/signal-types';
import { warnAtMostEvery } from '../../shared/infrastructure/warn-at-most-every';
import { CLOCK, ID_GENERATOR } from '../../shared/shared.module';
import { PipelineProducer } from '../pipeline/pipeline.producer';
import { validateActivityBatch } from './activity-input';
import { ActivitiesRepository, ActivityListRow } from './activities.repository';
import type { ActivityStatus, DiscardReason, NearMiss } from './activity.entity';

export interface IntakeResult {
  data: Array<{ id: string; status: 'queued' | 'duplicate' }>;
}

/** An activity as both `GET /ingest/v1/activities/{id}` and the list show it. */
export interface ActivityStatusView {
  id: string;
  status: ActivityStatus;
  signal_id: string | null;
  buyer_id: string | null;
  discard_reason: DiscardReason | null;
  /** Set on a website activity discarded `no_target_match` when a Target Page or Form came close. */
  near_miss: NearMiss | null;
  type: SignalType;
  trigger: SignalTrigger;
  occurred_at: string;
  received_at: string;
}

export interface ActivityListQuery {
  limit: number;
  cursor?: string;
  status?: ActivityStatus;
  discard_reason?: DiscardReason;
  type?: SignalType;
  trigger?: SignalTrigger;
  received_after?: Date;
  received_before?: Date;
  sort_by: 'received_at';
  sort_order: 'asc' | 'desc';
}

/** The first id minted at `at`, as a bigint column can hold it (ids run out in 2093; a later instant bounds them all). */
function idBound(at: Date): string {
  const id = firstIdAt(at);
  return (id > MAX_ID ? MAX_ID : id).toString();
}

function presentActivity(row: ActivityListRow): ActivityStatusView {
  return {
    id: formatId(ID_PREFIXES.activity, row.id),
    status: row.status,
    signal_id: row.signal_id ? formatId(ID_PREFIXES.signal, row.signal_id) : null,
    buyer_id: row.buyer_id ? formatId(ID_PREFIXES.buyer, row.buyer_id) : null,
    discard_reason: row.discard_reason,
    near_miss: row.near_miss ?? null,
    type: row.type,
    trigger: row.trigger,
    occurred_at: formatTimestamp(row.occurred_at),
    // The id's minting time: what the order and `received_after`/`received_before` go by.
    received_at: formatTimestamp(mintedAt(row.id)),
  };
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
    @Inject(CursorCodec) private readonly cursors: CursorCodec,
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
    return presentActivity(row);
  }

  /**
   * The workspace's activities in arrival order, newest first by default. Arrival is the id's
   * minting time (ADR 0053), so `received_after`/`received_before` become id bounds and the pages
   * are keyed on the id alone (ADR 0056).
   */
  async list(ctx: WorkspaceContext, query: ActivityListQuery): Promise<Page<ActivityStatusView>> {
    const filter = {
      status: query.status,
      discardReason: query.discard_reason,
      type: query.type,
      trigger: query.trigger,
      fromId: query.received_after && idBound(query.received_after),
      toId: query.received_before && idBound(query.received_before),
      order: query.sort_order,
    };
    return keysetPage({
      cursors: this.cursors,
      binding: {
        workspaceId: requireWorkspace(ctx),
        endpoint: 'activities',
        params: bindingParams(query, [
          'status',
          'discard_reason',
          'type',
          'trigger',
          'received_after',
          'received_before',
          'sort_by',
          'sort_order',
        ]),
      },
      cursor: query.cursor,
      limit: query.limit,
      fetch: (after, limit) => this.activities.page(ctx, filter, after?.id ?? null, limit),
      positionOf: (row) => ({ at: mintedAt(row.id), id: String(row.id) }),
      present: presentActivity,
    });
  }
}
