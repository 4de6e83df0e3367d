import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../../shared/infrastructure/periodic-task';
import { preparedQuery } from '../../shared/infrastructure/prepared-query';
import { DELIVERY_BATCH, DeliveryJob, subscribes, WebhookQueue } from './webhook-queue';

const INTERVAL_MS = 100;
const BATCH = 2_000;

interface DispatchEvent {
  id: string;
  txid: string;
  workspace_id: string;
  type: string;
}

/**
 * The outbox relay: follows the events of every workspace in feed order (the same rule as
 * `GET /v1/events`, so no event is passed over while a transaction that wrote it is still open)
 * and queues deliveries for every enabled endpoint that subscribes to them, in batches per endpoint. Its position is one
 * row, locked for the round: processes running it side by side take turns. Queuing and saving
 * the position are not atomic, so a crash between them queues the same deliveries again, which
 * their job ids make a no-op: at least once, never twice.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly task = new PeriodicTask(
    INTERVAL_MS,
    () => this.drain(),
    (error) => this.logger.warn(`Dispatching webhooks failed: ${error.message}`),
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

  /** Rounds until the events are all dispatched (or another process holds the turn). */
  async drain(): Promise<void> {
    while (!this.stopped && (await this.round()) === BATCH);
  }

  /** One round: up to BATCH events past the position; returns how many. */
  async round(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const { rows: positions } = await preparedQuery<{ txid: string; event_id: string }>(
        manager,
        'SELECT txid::text AS txid, event_id FROM webhook_dispatch FOR UPDATE SKIP LOCKED',
        [],
      );
      if (positions.length === 0) return 0;
      const [position] = positions;
      const { rows: events } = await preparedQuery<DispatchEvent>(
        manager,
        `SELECT e.id, e.txid::text AS txid, e.workspace_id, e.type FROM events e
          WHERE (e.txid, e.id) > ($1::xid8, $2::bigint) AND e.txid < pg_snapshot_xmin(pg_current_snapshot())
          ORDER BY e.txid, e.id LIMIT $3`,
        [position.txid, position.event_id, BATCH],
      );
      if (events.length === 0) return 0;
      const workspaces = [...new Set(events.map((event) => event.workspace_id))];
      const { rows: endpoints } = await preparedQuery<{ id: string; workspace_id: string; enabled_events: string[] }>(
        manager,
        `SELECT id, workspace_id, enabled_events FROM webhook_endpoints
          WHERE workspace_id = ANY($1::bigint[]) AND enabled AND deleted_at IS NULL`,
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
      const last = events[events.length - 1];
      await preparedQuery(manager, 'UPDATE webhook_dispatch SET txid = $1::xid8, event_id = $2', [last.txid, last.id]);
      return events.length;
    });
  }
}
