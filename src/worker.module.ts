import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/config';
import { loggingModule } from './shared/infrastructure/logging';
import { CoreModule } from './core.module';
import { EventsRetentionModule } from './modules/events/events.module';
import { PipelineModule } from './modules/pipeline/pipeline.module';
import { WebhookWorkersModule } from './modules/webhooks/webhooks.module';
import { IdempotencyRetentionModule } from './shared/shared.module';
import { PartitionMaintenanceModule } from './database/partition-maintenance';

/**
 * The worker process: the pipeline's processors, events and idempotency-key retention, partition
 * maintenance, webhook dispatch and delivery, and nothing that serves HTTP.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(config, 'worker'),
        loggingModule(),
        PipelineModule,
        EventsRetentionModule,
        IdempotencyRetentionModule,
        PartitionMaintenanceModule,
        WebhookWorkersModule,
      ],
    };
  }
}
