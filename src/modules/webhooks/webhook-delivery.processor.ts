import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, Provider } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import type { Clock } from '../../shared/domain/clock';
import { formatId, ID_PREFIXES, IdGenerator } from '../../shared/domain/ids';
import { warnAtMostEvery } from '../../shared/infrastructure/warn-at-most-every';
import { CLOCK, ID_GENERATOR } from '../../shared/shared.module';
import { EventsRepository } from '../events/events.repository';
import { DeliveryLoads } from './delivery-loads';
import { sendInWindows, WindowOutcome } from './delivery-windows';
import { EndpointSlots } from './endpoint-slots';
import { DeliveryRow, EndpointRow, WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { DeliveryJob, WEBHOOK_QUEUE, WebhookQueue } from './webhook-queue';
import { DELIVERY_ATTEMPTS, DISABLE_AFTER_MS, retryDelay } from './webhook-schedule';
import { signedHeaders } from './webhook-signature';
import { WebhookSender } from './webhook-sender';

/** Deliveries in flight at once per process. */
export const DELIVERY_CONCURRENCY = 64;
/** Per endpoint and process: a slow or hanging receiver holds at most half the slots. */
export const PER_ENDPOINT_IN_FLIGHT = 32;
/** Events of one batch job in flight at once: a receiver woken once takes several. */
export const DELIVERY_WINDOW = 16;
/** How long a delivery over its endpoint's share waits for a slot before it is put back on the queue. */
const SLOT_WAIT_MS = 1_000;

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
  const id = (v: unknown) => typeof v === 'string' && /^[0-9]{1,19}$/.test(v);
  return (
    typeof job === 'object' &&
    job !== null &&
    id(job.workspaceId) &&
    id(job.endpointId) &&
    Array.isArray(job.eventIds) &&
    job.eventIds.length > 0 &&
    job.eventIds.every(id) &&
    (job.attempt === undefined || (Number.isInteger(job.attempt) && job.attempt >= 1 && job.attempt <= DELIVERY_ATTEMPTS))
  );
}

/** What the events of one batch job share: their endpoint as read once, and their attempts until written. */
interface BatchState {
  endpoint: EndpointRow | null;
  /** The endpoint's signing secrets, decrypted once for the batch. */
  secrets: string[];
  attempts: DeliveryRow[];
}

/** How one attempt went: sent (or not), and whether to try that event again and when. */
interface Attempt extends WindowOutcome {
  succeeded: boolean;
  why: string;
}

/** Nothing was sent, now or later: the endpoint is gone or was disabled. */
const ENDPOINT_GONE: Attempt = { succeeded: false, retryInMs: null, endpointGone: true, why: '' };

interface DeliveryProcessorDeps {
  endpoints: WebhookEndpointsRepository;
  events: EventsRepository;
  queue: WebhookQueue;
  service: WebhookEndpointsService;
  config: AppConfig;
  clock: Clock;
  ids: IdGenerator;
  sender: WebhookSender;
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
    private readonly loads: DeliveryLoads;
    private readonly slots = new EndpointSlots(PER_ENDPOINT_IN_FLIGHT);
    private readonly warnOfError = warnAtMostEvery(new Logger('WebhookWorker'), 'The webhook worker');

    constructor(private readonly deps: DeliveryProcessorDeps) {
      super();
      this.loads = new DeliveryLoads(deps.endpoints, deps.events);
    }

    /**
     * Stops taking jobs and waits for the ones in hand, before the sender closes (at the
     * application's shutdown): a delivery in flight at SIGTERM gets its answer and its record.
     */
    async beforeApplicationShutdown(): Promise<void> {
      await this.worker.close();
    }

    @OnWorkerEvent('error')
    onWorkerError(error: Error): void {
      this.warnOfError(error);
    }

    async process(job: Job, token?: string): Promise<void> {
      if (!isDeliveryJob(job.data)) throw new UnrecoverableError('Malformed webhook delivery job');
      const data = job.data;
      if (!(await this.slots.acquire(data.endpointId, SLOT_WAIT_MS))) {
        // This receiver keeps its share of the slots busy: try again shortly, without using an attempt.
        await job.moveToDelayed(Date.now() + 200 + Math.floor(Math.random() * 300), token);
        throw new DelayedError();
      }
      try {
        if (data.eventIds.length === 1) await this.deliverOne(job, data);
        else await this.deliverBatch(job, data);
      } finally {
        this.slots.release(data.endpointId);
      }
    }

    /** One event; a failure is thrown, so the queue retries it after the delay its record shows. */
    private async deliverOne(job: Job, data: DeliveryJob): Promise<void> {
      const attempt = (data.attempt ?? 1) + job.attemptsMade;
      const outcome = await this.attempt(data, data.eventIds[0], attempt);
      if (outcome.succeeded || outcome.retryInMs === null) {
        if (!outcome.succeeded && !outcome.endpointGone) throw new UnrecoverableError(`Delivery failed for good: ${outcome.why}`);
        return;
      }
      throw new DeliveryFailed(`Delivery failed: ${outcome.why}`, outcome.retryInMs);
    }

    /**
     * The events in feed order, DELIVERY_WINDOW of them in flight at once (delivery does not
     * promise order between events; the feed does). At a failure no further window is sent: each
     * failed event goes to a one-event job of its own (its next attempt) and the ones not yet
     * sent to a batch, all after the retry delay, so a failing receiver is not sent the rest at once.
     */
    private async deliverBatch(job: Job, data: DeliveryJob): Promise<void> {
      const attempt = data.attempt ?? 1;
      // The batch's events in one read, its endpoint once, its attempts recorded in one write.
      this.loads.readAhead(data.workspaceId, data.eventIds);
      const attempts: DeliveryRow[] = [];
      try {
        const endpoint = await this.loads.endpoint(data.workspaceId, data.endpointId);
        const secrets = endpoint ? this.deps.service.secretsOf(endpoint, this.deps.clock.now()) : [];
        await this.sendInWindows(job, data, attempt, { endpoint, secrets, attempts });
      } finally {
        this.loads.forget(data.workspaceId, data.eventIds);
        if (attempts.length > 0) await this.deps.endpoints.insertDeliveries(WorkspaceContext.forPipeline(data.workspaceId), attempts);
      }
    }

    private async sendInWindows(job: Job, data: DeliveryJob, attempt: number, batch: BatchState): Promise<void> {
      const { failed, unsent } = await sendInWindows(data.eventIds, DELIVERY_WINDOW, (eventId) =>
        this.attempt(data, eventId, attempt, batch),
      );
      if (failed.length === 0) return;
      // Each failed event becomes a one-event job (its next attempt) after the delay its record
      // shows; the unsent rest a batch after the longest of them; all queued in one call.
      const base = { workspaceId: data.workspaceId, endpointId: data.endpointId };
      const retries = failed.map(({ id, retryInMs }) => ({ job: { ...base, eventIds: [id], attempt: attempt + 1 }, delayMs: retryInMs }));
      const rest =
        unsent.length > 0
          ? [{ job: { ...base, eventIds: unsent, attempt }, delayMs: Math.max(...failed.map((event) => event.retryInMs)) }]
          : [];
      await this.deps.queue.addEach([...retries, ...rest], `after${job.id ?? ''}`);
    }

    /** Sends one event, records the attempt and what it means for the endpoint. */
    private async attempt(data: DeliveryJob, eventId: string, attempt: number, batch?: BatchState): Promise<Attempt> {
      const { endpoints, service, clock, ids } = this.deps;
      const ctx = WorkspaceContext.forPipeline(data.workspaceId);
      const [endpoint, stored] = await Promise.all([
        batch ? batch.endpoint : this.loads.endpoint(data.workspaceId, data.endpointId),
        this.loads.event(data.workspaceId, eventId),
      ]);
      // Deleted or disabled since: nothing to send, now or later.
      if (!endpoint || !endpoint.enabled) return ENDPOINT_GONE;
      // Pruned by retention before it could be sent.
      if (!stored) return { succeeded: true, retryInMs: null, endpointGone: false, why: '' };
      const event = service.eventBody(stored);
      const now = clock.now();
      const messageId = formatId(ID_PREFIXES.event, eventId);
      const result = await this.deps.sender.send(
        endpoint.url,
        signedHeaders(messageId, now, event.body, batch ? batch.secrets : service.secretsOf(endpoint, now)),
        event.body,
      );
      const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      const retryInMs = succeeded || attempt >= DELIVERY_ATTEMPTS ? null : retryDelay(attempt, this.deps.config.webhooks.retryBaseMs);
      const row: DeliveryRow = {
        id: ids.next(),
        endpoint_id: endpoint.id,
        event_id: eventId,
        message_id: messageId,
        event_type: event.type,
        attempt,
        status_code: result.statusCode,
        error: result.error,
        latency_ms: result.latencyMs,
        response_excerpt: result.excerpt.slice(0, 500),
        succeeded,
        next_retry_at: retryInMs === null ? null : new Date(now.getTime() + retryInMs),
        created_at: now,
      };
      if (batch) batch.attempts.push(row);
      else await this.loads.record(data.workspaceId, row);
      const why = result.error ?? `status ${result.statusCode}`;
      // A success of an endpoint with no failing streak changes nothing.
      if (succeeded && endpoint.failing_since === null) return { succeeded, retryInMs, endpointGone: false, why };
      const outcome = await endpoints.recordOutcome(ctx, endpoint.id, succeeded, now);
      if (succeeded) return { succeeded, retryInMs, endpointGone: false, why };
      const failingSince = outcome?.failing_since ?? endpoint.failing_since;
      if (failingSince && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS) {
        await endpoints.disableIfFailingSince(
          ctx,
          endpoint.id,
          new Date(now.getTime() - DISABLE_AFTER_MS),
          'every delivery failed for three days',
          now,
        );
        return ENDPOINT_GONE;
      }
      return { succeeded, retryInMs, endpointGone: false, why };
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
    inject: [
      APP_CONFIG,
      WebhookEndpointsRepository,
      EventsRepository,
      WebhookQueue,
      WebhookEndpointsService,
      CLOCK,
      ID_GENERATOR,
      WebhookSender,
    ],
    useFactory: (
      config: AppConfig,
      endpoints: WebhookEndpointsRepository,
      events: EventsRepository,
      queue: WebhookQueue,
      service: WebhookEndpointsService,
      clock: Clock,
      ids: IdGenerator,
      sender: WebhookSender,
    ) => new (DeliveryProcessorClass(config))({ endpoints, events, queue, service, config, clock, ids, sender }),
  };
}
