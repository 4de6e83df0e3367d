import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import { warnAtMostEvery } from '../../shared/infrastructure/redis';
import { DELIVERY_ATTEMPTS } from './webhook-schedule';

export const WEBHOOK_QUEUE = 'webhooks';

/** One message to one endpoint: an event (its id is the message id on every attempt). */
export interface DeliveryJob {
  workspaceId: string;
  endpointId: string;
  eventId: string;
}

export const DELIVERY_JOB_OPTIONS: JobsOptions = {
  attempts: DELIVERY_ATTEMPTS,
  backoff: { type: 'webhook' },
  removeOnComplete: { age: 3_600, count: 10_000 },
  removeOnFail: { age: 7 * 86_400 },
};

/**
 * Puts deliveries on the webhook queue. A delivery's job id names its event and endpoint, so the
 * dispatcher queuing the same events again (after a crash before it saved its position) adds
 * nothing; a redelivery asked for by a client gets an id of its own.
 */
@Injectable()
export class WebhookQueue {
  constructor(@InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue) {
    // While Redis is away the connection fails again and again; one warning now and then.
    queue.on('error', warnAtMostEvery(new Logger('WebhookQueue'), 'Redis for the webhook queue'));
  }

  async add(jobs: readonly DeliveryJob[], redelivery?: string): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue.addBulk(
      jobs.map((job) => ({
        name: 'deliver',
        data: job,
        opts: { ...DELIVERY_JOB_OPTIONS, jobId: `d-${job.eventId}-${job.endpointId}${redelivery ? `-${redelivery}` : ''}` },
      })),
    );
  }
}

/** Whether an endpoint's `enabled_events` (types and wildcards) take an event of `type`. */
export function subscribes(patterns: readonly string[], type: string): boolean {
  return patterns.some(
    (pattern) => pattern === type || pattern === '*' || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))),
  );
}
