import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './config/config';
import { loggingModule } from './config/logging';
import { CoreModule } from './core.module';
import { EventsRetentionModule } from './modules/events/events.module';
import { PipelineModule } from './modules/pipeline/pipeline.module';
import { WebhookWorkersModule } from './modules/webhooks/webhooks.module';

/** The worker process: the pipeline's processors, events retention, webhook dispatch and delivery, and nothing that serves HTTP. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [CoreModule.forRoot(config, 'worker'), loggingModule(), PipelineModule, EventsRetentionModule, WebhookWorkersModule],
    };
  }
}
