import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { CLOCK } from '../../shared/shared.module';
import type { Clock } from '../../shared/domain/clock';
import { PeriodicTask } from '../../shared/infrastructure/periodic-task';
import { EventsRepository } from './events.repository';

const INTERVAL_MS = 15 * 60_000;
const BATCH = 5_000;
const DAY_MS = 86_400_000;

/**
 * Retention: every quarter of an hour, events older than `EVENTS_RETENTION_DAYS` are deleted in
 * batches (short transactions, so the feed never waits long behind them). Runs in the worker
 * processes; several pruning at once only share the work.
 */
@Injectable()
export class EventsPruner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventsPruner.name);
  private readonly task = new PeriodicTask(
    INTERVAL_MS,
    () => this.prune(),
    (error) => this.logger.warn(`Pruning events failed: ${error.message}`),
  );

  constructor(
    private readonly events: EventsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  /** Deletes every event past retention; returns how many. */
  async prune(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.eventsRetentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const deleted = await this.events.pruneAcrossWorkspaces(before, BATCH);
      total += deleted;
      if (deleted < BATCH) break;
    }
    if (total > 0) this.logger.log(`Deleted ${total} events older than ${this.config.eventsRetentionDays} days`);
    return total;
  }
}
