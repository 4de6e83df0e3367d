import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PipelineProducer } from './pipeline.producer';
import { QueueConnection, QueueConnectionModule } from './queue-connection';
import { PIPELINE_QUEUES } from './queues';

const queues = BullModule.registerQueue(...PIPELINE_QUEUES.map((name) => ({ name })));

/** The Redis connection, the four queues and the producer; no workers (see WorkerModule). */
@Module({
  imports: [
    BullModule.forRootAsync({
      imports: [QueueConnectionModule],
      inject: [APP_CONFIG, QueueConnection],
      useFactory: (config: AppConfig, connection: QueueConnection) => ({ connection: connection.options, prefix: config.queuePrefix }),
    }),
    queues,
  ],
  providers: [PipelineProducer],
  exports: [PipelineProducer, queues],
})
export class PipelineQueueModule {}
