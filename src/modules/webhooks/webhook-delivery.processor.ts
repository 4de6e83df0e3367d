import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, Provider } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import type { Clock } from '../../shared/domain/clock';
import { formatId, ID_PREFIXES, IdGenerator } from '../../shared/domain/ids';
import { warnAtMostEvery } from '../../shared/infrastructure/redis';
import { CLOCK, ID_GENERATOR } from '../../shared/shared.module';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { DeliveryJob, WEBHOOK_QUEUE } from './webhook-queue';
import { DELIVERY_ATTEMPTS, DISABLE_AFTER_MS, retryDelay } from './webhook-schedule';
import { signedHeaders } from './webhook-signature';
import { WebhookSender } from './webhook-sender';

/** Deliveries in flight at once per process. */
export const DELIVERY_CONCURRENCY = 100;
/** Per endpoint and process: a slow or hanging receiver holds at most this many of the slots. */
export const PER_ENDPOINT_IN_FLIGHT = 10;

/** A failed attempt, with the delay before the next that the attempt's record already shows. */
class DeliveryFailed extends Error {
  constructor(
    message: string,
    readonly retryInMs: number,
  ) {
    super(message);
  }
}

function isDeliveryJob(data: unknown): data is DeliveryJob {
  const job = data as DeliveryJob;
  return (
    typeof job === 'object' &&
    job !== null &&
    [job.workspaceId, job.endpointId, job.eventId].every((v) => typeof v === 'string' && /^[0-9]{1,19}$/.test(v))
  );
}

interface DeliveryProcessorDeps {
  endpoints: WebhookEndpointsRepository;
  service: WebhookEndpointsService;
  config: AppConfig;
  clock: Clock;
  ids: IdGenerator;
}

function DeliveryProcessorClass(config: AppConfig) {
  @Processor(WEBHOOK_QUEUE, {
    concurrency: DELIVERY_CONCURRENCY,
    settings: {
      backoffStrategy: (_attempts: number, _type?: string, error?: Error) =>
        error instanceof DeliveryFailed ? error.retryInMs : config.webhooks.retryBaseMs,
    },
  })
  class WebhookDeliveryProcessor extends WorkerHost {
    private readonly sender: WebhookSender;
    private readonly inFlight = new Map<string, number>();
    private readonly warnOfError = warnAtMostEvery(new Logger('WebhookWorker'), 'The webhook worker');

    constructor(private readonly deps: DeliveryProcessorDeps) {
      super();
      this.sender = new WebhookSender(deps.config.webhooks.allowInsecureUrls);
    }

    @OnWorkerEvent('error')
    onWorkerError(error: Error): void {
      this.warnOfError(error);
    }

    async process(job: Job, token?: string): Promise<void> {
      if (!isDeliveryJob(job.data)) throw new UnrecoverableError('Malformed webhook delivery job');
      const { endpointId } = job.data;
      const busy = this.inFlight.get(endpointId) ?? 0;
      if (busy >= PER_ENDPOINT_IN_FLIGHT) {
        // This receiver already has its share of the slots: wait a little without using an attempt.
        await job.moveToDelayed(Date.now() + 200 + Math.floor(Math.random() * 300), token);
        throw new DelayedError();
      }
      this.inFlight.set(endpointId, busy + 1);
      try {
        await this.deliver(job, job.data);
      } finally {
        const left = (this.inFlight.get(endpointId) ?? 1) - 1;
        if (left > 0) this.inFlight.set(endpointId, left);
        else this.inFlight.delete(endpointId);
      }
    }

    private async deliver(job: Job, data: DeliveryJob): Promise<void> {
      const { endpoints, service, clock, ids } = this.deps;
      const ctx = WorkspaceContext.forPipeline(data.workspaceId);
      const endpoint = await endpoints.find(ctx, data.endpointId);
      // Deleted or disabled since: nothing to send.
      if (!endpoint || !endpoint.enabled) return;
      const event = await service.eventBody(ctx, data.eventId);
      // Pruned by retention before it could be sent.
      if (!event) return;
      const now = clock.now();
      const messageId = formatId(ID_PREFIXES.event, data.eventId);
      const result = await this.sender.send(
        endpoint.url,
        signedHeaders(messageId, now, event.body, service.secretsOf(endpoint, now)),
        event.body,
      );
      const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      const attempt = job.attemptsMade + 1;
      const retryInMs = succeeded || attempt >= DELIVERY_ATTEMPTS ? null : retryDelay(attempt, this.deps.config.webhooks.retryBaseMs);
      await endpoints.insertDelivery(
        ctx,
        {
          id: ids.next(),
          endpoint_id: endpoint.id,
          event_id: data.eventId,
          message_id: messageId,
          event_type: event.type,
          attempt,
          status_code: result.statusCode,
          error: result.error,
          latency_ms: result.latencyMs,
          response_excerpt: result.excerpt.slice(0, 500),
          succeeded,
          next_retry_at: retryInMs === null ? null : new Date(now.getTime() + retryInMs),
        },
        now,
      );
      const outcome = await endpoints.recordOutcome(ctx, endpoint.id, succeeded, now);
      if (succeeded) return;
      const failingSince = outcome?.failing_since ?? endpoint.failing_since;
      if (failingSince && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS) {
        await endpoints.disableIfFailingSince(
          ctx,
          endpoint.id,
          new Date(now.getTime() - DISABLE_AFTER_MS),
          'every delivery failed for three days',
          now,
        );
        return;
      }
      const why = result.error ?? `status ${result.statusCode}`;
      if (retryInMs === null) throw new UnrecoverableError(`Delivery failed on its last attempt: ${why}`);
      throw new DeliveryFailed(`Delivery failed: ${why}`, retryInMs);
    }

    onModuleDestroy(): void {
      this.sender.close();
    }
  }
  return WebhookDeliveryProcessor;
}

/** The provider token of the delivery processor (`app.get(WEBHOOK_PROCESSOR).worker`). */
export const WEBHOOK_PROCESSOR = 'WebhookDeliveryProcessor';

/** The delivery processor, made with the configuration its retry schedule needs. */
export function webhookDeliveryProcessor(): Provider {
  return {
    provide: WEBHOOK_PROCESSOR,
    inject: [APP_CONFIG, WebhookEndpointsRepository, WebhookEndpointsService, CLOCK, ID_GENERATOR],
    useFactory: (
      config: AppConfig,
      endpoints: WebhookEndpointsRepository,
      service: WebhookEndpointsService,
      clock: Clock,
      ids: IdGenerator,
    ) => new (DeliveryProcessorClass(config))({ endpoints, service, config, clock, ids }),
  };
}
