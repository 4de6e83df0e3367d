import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { CLOCK } from '../../shared/shared.module';
import type { Clock } from '../../shared/domain/clock';
import { RetentionPruner } from '../../shared/infrastructure/retention-pruner';
import { EventsRepository } from './events.repository';

const DAY_MS = 86_400_000;

/**
 * Retention of events: those older than `EVENTS_RETENTION_DAYS` are deleted every quarter of an
 * hour, in batches, so the feed never waits long behind them (RetentionPruner).
 */
@Injectable()
export class EventsPruner extends RetentionPruner {
  constructor(
    private readonly events: EventsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super('events');
  }

  protected deleteBatch(batch: number): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.eventsRetentionDays * DAY_MS);
    return this.events.pruneAcrossWorkspaces(before, batch);
  }

  protected retention(): string {
    return `${this.config.eventsRetentionDays} days`;
  }
}
