import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PeriodicTask } from './periodic-task';

const INTERVAL_MS = 15 * 60_000;
const BATCH = 5_000;

/**
 * Retention on a timer: every quarter of an hour, while the application runs, rows past their
 * retention are deleted in batches (short statements, so nothing waits long behind them) until a
 * batch comes back short. Runs in the processes that run workers; several pruning at once only
 * share the work.
 */
export abstract class RetentionPruner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(this.constructor.name);
  private readonly task = new PeriodicTask(
    INTERVAL_MS,
    () => this.prune(),
    (error) => this.logger.warn(`Pruning ${this.what} failed: ${error.message}`),
  );

  /** `what`: the rows, for the log (`events`). */
  protected constructor(private readonly what: string) {}

  /** Deletes at most `batch` rows past retention; the number deleted. */
  protected abstract deleteBatch(batch: number): Promise<number>;

  /** The retention period, for the log (`30 days`). */
  protected abstract retention(): string;

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  /** Deletes every row past retention; returns how many. */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.deleteBatch(BATCH);
      total += deleted;
      if (deleted < BATCH) break;
    }
    if (total > 0) this.logger.log(`Deleted ${total} ${this.what} older than ${this.retention()}`);
    return total;
  }
}
