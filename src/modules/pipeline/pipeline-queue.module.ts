import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PipelineProducer } from './pipeline.producer';
import { PipelineQueues } from './pipeline-queues';
import { QueueConnection, QueueConnectionModule } from './queue-connection';

/**
 * The Redis connection, the pipeline's queues (one per step in each queue group) and the producer; no workers
 * (see PipelineModule). BullMQ's root configuration here (the connection and the undivided
 * prefix) is the webhook queue's.
 */
@Module({
  imports: [
    QueueConnectionModule,
    BullModule.forRootAsync({
      imports: [QueueConnectionModule],
      inject: [APP_CONFIG, QueueConnection],
      useFactory: (config: AppConfig, connection: QueueConnection) => ({ connection: connection.options, prefix: config.queuePrefix }),
    }),
  ],
  providers: [
    {
      provide: PipelineQueues,
      inject: [APP_CONFIG, QueueConnection],
      useFactory: (config: AppConfig, connection: QueueConnection) => new PipelineQueues(config, connection.options),
    },
    PipelineProducer,
  ],
  exports: [PipelineProducer, PipelineQueues],
})
export class PipelineQueueModule {}
