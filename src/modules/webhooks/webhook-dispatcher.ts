import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../../shared/infrastructure/periodic-task';
import { warnAtMostEvery } from '../../shared/infrastructure/warn-at-most-every';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';
import { subscribes } from '../events/event-types';
import { DELIVERY_BATCH, DeliveryJob, WebhookQueue } from './webhook-queue';

const INTERVAL_MS = 250;
const BATCH = 2_000;

interface DispatchEvent {
  id: string;
  seq: string;
  workspace_id: string;
  type: string;
}

/** Events one workspace contributes to a round at most, so that one busy workspace does not hold back the others. */
const PER_WORKSPACE = 500;

/**
 * The outbox relay: for every workspace with an enabled endpoint, follows its events by `seq`
 * (the feed's order, in which no event can appear behind one already passed) from the position
 * it keeps in `webhook_dispatch`, and queues deliveries for every enabled endpoint that subscribes
 * to them, in batches per endpoint. The positions are locked for the round (`SKIP LOCKED`):
 * processes running it side by side take different workspaces, or turns. Queuing and saving the
 * positions are not atomic, so a crash between them queues the same deliveries again, which their
 * job ids make a no-op: at least once, never twice.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly task = new PeriodicTask(
    INTERVAL_MS,
    () => this.drain(),
    // It runs four times a second: while PostgreSQL or Redis is away, one warning now and then.
    warnAtMostEvery(this.logger, 'Dispatching webhooks failed'),
  );
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: WebhookQueue,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onModuleDestroy(): Promise<void> {
    this.stopped = true;
    return this.task.stop();
  }

  /** Rounds while they find a full share of events (more are waiting). */
  async drain(): Promise<void> {
    while (!this.stopped && (await this.round()) >= PER_WORKSPACE);
  }

  /** One round: up to PER_WORKSPACE events past each position, BATCH in all; returns how many. */
  async round(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const { rows: events } = await preparedQuery<DispatchEvent>(
        manager,
        `WITH positions AS (
           SELECT d.workspace_id, d.seq FROM webhook_dispatch d
            WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.workspace_id = d.workspace_id AND w.enabled AND w.deleted_at IS NULL)
            FOR UPDATE OF d SKIP LOCKED)
         SELECT e.id, e.seq, e.workspace_id, e.type
           FROM positions p, LATERAL (SELECT * FROM events e WHERE e.workspace_id = p.workspace_id AND e.seq > p.seq ORDER BY e.seq LIMIT $1) e
          ORDER BY e.workspace_id, e.seq
          LIMIT $2`,
        [PER_WORKSPACE, BATCH],
      );
      if (events.length === 0) return 0;
      const workspaces = [...new Set(events.map((event) => event.workspace_id))];
      const { rows: endpoints } = await preparedQuery<{ id: string; workspace_id: string; enabled_events: string[] }>(
        manager,
        `SELECT id, workspace_id, enabled_events FROM webhook_endpoints
          WHERE workspace_id = ANY($1::bigint[]) AND enabled AND deleted_at IS NULL ORDER BY id`,
        [workspaces],
      );
      // Per endpoint, its events in feed order, DELIVERY_BATCH to a job.
      const jobs: DeliveryJob[] = [];
      for (const endpoint of endpoints) {
        const ids = events
          .filter((e) => e.workspace_id === endpoint.workspace_id && subscribes(endpoint.enabled_events, e.type))
          .map((e) => e.id);
        for (let k = 0; k < ids.length; k += DELIVERY_BATCH) {
          jobs.push({ workspaceId: endpoint.workspace_id, endpointId: endpoint.id, eventIds: ids.slice(k, k + DELIVERY_BATCH) });
        }
      }
      await this.queue.add(jobs);
      // Each workspace's position moves to its last event of the round.
      const last = new Map(events.map((event) => [event.workspace_id, event.seq]));
      await preparedQuery(
        manager,
        `UPDATE webhook_dispatch d SET seq = v.seq FROM unnest($1::bigint[], $2::bigint[]) AS v (workspace_id, seq) WHERE d.workspace_id = v.workspace_id`,
        [[...last.keys()], [...last.values()]],
      );
      return events.length;
    });
  }
}
