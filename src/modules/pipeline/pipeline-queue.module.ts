import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { redisOptionsFromUrl } from '../../shared/infrastructure/redis';
import { PipelineProducer } from './pipeline.producer';
import { PIPELINE_QUEUES } from './queues';

const queues = BullModule.registerQueue(...PIPELINE_QUEUES.map((name) => ({ name })));

/** The Redis connection, the four queues and the producer; no workers (see WorkerModule). */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ connection: redisOptionsFromUrl(config.redisUrl), prefix: config.queuePrefix }),
    }),
    queues,
  ],
  providers: [PipelineProducer],
  exports: [PipelineProducer, queues],
})
export class PipelineQueueModule {}
