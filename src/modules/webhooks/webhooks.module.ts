import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { SecretBox } from '../../shared/infrastructure/secret-box';
import { EventsModule } from '../events/events.module';
import { PipelineQueueModule } from '../pipeline/pipeline-queue.module';
import { webhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WEBHOOK_QUEUE, WebhookQueue } from './webhook-queue';
import { WebhookSender } from './webhook-sender';

const queue = BullModule.registerQueue({ name: WEBHOOK_QUEUE });

/** Webhook endpoints (`/v1/webhook-endpoints`) and redelivery; the API side. */
@Module({
  // The pipeline's queue module brings the Redis connection every queue of the service shares.
  imports: [EventsModule, PipelineQueueModule, queue],
  controllers: [WebhookEndpointsController],
  providers: [
    WebhookEndpointsRepository,
    WebhookEndpointsService,
    WebhookQueue,
    { provide: SecretBox, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new SecretBox(config.secretsKey) },
    // One per process: the test pings and the delivery workers share its kept-alive connections.
    {
      provide: WebhookSender,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new WebhookSender(config.webhooks.allowInsecureUrls),
    },
  ],
  exports: [WebhookEndpointsService, WebhookEndpointsRepository, WebhookQueue, WebhookSender],
})
export class WebhooksModule {}

/** The dispatcher and the delivery workers, run by the processes that run workers. */
@Module({
  imports: [WebhooksModule, EventsModule],
  providers: [WebhookDispatcher, webhookDeliveryProcessor()],
  exports: [WebhookDispatcher],
})
export class WebhookWorkersModule {}
