import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import { withinRedisBound } from '../../shared/infrastructure/redis';
import { warnAtMostEvery } from '../../shared/infrastructure/warn-at-most-every';
import { DELIVERY_ATTEMPTS } from './webhook-schedule';

export const WEBHOOK_QUEUE = 'webhooks';

/**
 * Events for one endpoint, in feed order: the dispatcher's first attempts go in batches (one job
 * sends them in windows, ADR 0069), a retry or a redelivery is one event. `attempt` is the number
 * of the job's first attempt (1 unless it is a retry split out of a batch).
 */
export interface DeliveryJob {
  workspaceId: string;
  endpointId: string;
  eventIds: string[];
  attempt?: number;
}

/** Events one job sends at most. */
export const DELIVERY_BATCH = 50;

const KEEP = { removeOnComplete: { age: 3_600, count: 10_000 }, removeOnFail: { age: 7 * 86_400 } };

/**
 * A one-event job is retried by the queue, with the remaining attempts; a batch is not (the
 * processor splits a failed event out into a one-event job, and the rest into a batch of its own).
 */
export function deliveryJobOptions(job: DeliveryJob): JobsOptions {
  const attempt = job.attempt ?? 1;
  return job.eventIds.length === 1
    ? { ...KEEP, attempts: DELIVERY_ATTEMPTS - attempt + 1, backoff: { type: 'webhook' } }
    : { ...KEEP, attempts: 1 };
}

/**
 * Puts deliveries on the webhook queue. A job's id names its endpoint, first event, size and
 * attempt, so the dispatcher queuing the same events again (after a crash before it saved its
 * position) adds nothing; a redelivery asked for by a client gets an id of its own.
 */
@Injectable()
export class WebhookQueue {
  constructor(@InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue) {
    // While Redis is away the connection fails again and again; one warning now and then.
    queue.on('error', warnAtMostEvery(new Logger('WebhookQueue'), 'Redis for the webhook queue'));
  }

  /** `add` for a request path: refused or given up within the bound while Redis is away (503). */
  async addWithinBound(jobs: readonly DeliveryJob[], options: { suffix?: string } = {}): Promise<void> {
    await withinRedisBound(this.queue, () => this.add(jobs, options));
  }

  async add(jobs: readonly DeliveryJob[], options: { suffix?: string } = {}): Promise<void> {
    await this.addEach(
      jobs.map((job) => ({ job })),
      options.suffix,
    );
  }

  /** Jobs each with a delay of its own, queued in one call. */
  async addEach(entries: ReadonlyArray<{ job: DeliveryJob; delayMs?: number }>, suffix?: string): Promise<void> {
    if (entries.length === 0) return;
    await this.queue.addBulk(
      entries.map(({ job, delayMs }) => ({
        name: 'deliver',
        data: job,
        opts: {
          ...deliveryJobOptions(job),
          ...(delayMs ? { delay: delayMs } : {}),
          jobId: [
            'd',
            job.endpointId,
            job.eventIds[0],
            ...(job.eventIds.length > 1 ? [`n${job.eventIds.length}`] : []),
            ...((job.attempt ?? 1) > 1 ? [`a${job.attempt}`] : []),
            ...(suffix ? [suffix] : []),
          ].join('-'),
        },
      })),
    );
  }
}
