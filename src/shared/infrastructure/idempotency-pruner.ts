import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { IdempotencyRepository } from './idempotency.repository';
import { RetentionPruner } from './retention-pruner';

/**
 * Retention of `Idempotency-Key` records: those older than `IDEMPOTENCY_TTL_HOURS` are deleted
 * every quarter of an hour, in batches (RetentionPruner). An expired record already counts as
 * absent before then; pruning only keeps the table small.
 */
@Injectable()
export class IdempotencyPruner extends RetentionPruner {
  constructor(
    private readonly keys: IdempotencyRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super('idempotency keys');
  }

  protected deleteBatch(batch: number): Promise<number> {
    return this.keys.pruneExpiredAcrossWorkspaces(batch);
  }

  protected retention(): string {
    return `${this.config.idempotencyTtlHours} hours`;
  }
}
