import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { poolOf } from '../../database/pg-pool';
import { ReplicaReads, ReplicaStatus } from '../../database/replica-reads';
import { withinRedisBound } from '../../shared/infrastructure/redis';
import { PipelineProducer } from '../pipeline/pipeline.producer';
import { PIPELINE_QUEUES, PipelineQueue } from '../pipeline/queues';

/** A scrape must stay fast when Redis is away; queue counts are skipped past this. */
const QUEUE_COUNT_TIMEOUT_MS = 500;
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

interface QueueCounts {
  queue: PipelineQueue;
  group: number;
  byState: Record<string, number> | null;
}

export type PipelineJobOutcome = 'completed' | 'failed';

/** Label used for requests no route handled: the raw URL would make the series unbounded. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The service's own metrics, on the application's registry. Queue and pool gauges are read when
 * scraped rather than kept up to date, so they cost nothing between scrapes.
 */
@Injectable()
export class MetricsService {
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly pipelineJobs: Counter<'queue' | 'outcome'>;
  /** The queue counts being read for the scrape in progress. */
  private queueCounts: Promise<QueueCounts[]> | null = null;

  constructor(
    private readonly registry: Registry,
    private readonly producer: PipelineProducer,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly replicaReads: ReplicaReads,
  ) {
    const registers = [registry];
    this.httpRequests = new Counter({
      name: 'bi_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'bi_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to finishing its response, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.pipelineJobs = new Counter({
      name: 'bi_pipeline_jobs_total',
      help: 'Pipeline jobs run by the workers of this process, by queue and outcome (failed counts every failed attempt)',
      labelNames: ['queue', 'outcome'],
      registers,
    });
    // One read per queue and group serves both gauges; the per-group one is registered only when
    // there are groups to tell apart (QUEUE_GROUPS > 1), so one group scrapes as before.
    const groupJobs: Gauge<'group' | 'queue' | 'state'> | null =
      producer.groups > 1
        ? new Gauge({
            name: 'bi_queue_group_jobs',
            help: 'Jobs per queue group, pipeline queue and state, read from Redis at scrape time (absent for a group that does not answer)',
            labelNames: ['group', 'queue', 'state'],
            registers,
            collect: () => this.collectGroupJobs(groupJobs!),
          })
        : null;
    const queueJobs: Gauge<'queue' | 'state'> = new Gauge({
      name: 'bi_queue_jobs',
      help: 'Jobs per pipeline queue and state over every queue group, read from Redis at scrape time (absent unless every group answers)',
      labelNames: ['queue', 'state'],
      registers,
      collect: () => this.collectQueueJobs(queueJobs),
    });
    const poolConnections: Gauge<'state'> = new Gauge({
      name: 'bi_db_pool_connections',
      help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
      labelNames: ['state'],
      registers,
      collect: () => this.collectPool(poolConnections),
    });
    const replicaLag: Gauge<'replica'> = new Gauge({
      name: 'bi_db_replica_lag_seconds',
      help: 'How far each read replica was behind the primary at its last measurement, every second (absent while it does not answer)',
      labelNames: ['replica'],
      registers,
      collect: () => this.collectReplicas(replicaLag, (status) => status.lag_seconds),
    });
    const replicaServing: Gauge<'replica'> = new Gauge({
      name: 'bi_db_replica_serving',
      help: 'Whether each read replica serves reads (1) or is skipped for lag or for not answering (0)',
      labelNames: ['replica'],
      registers,
      collect: () => this.collectReplicas(replicaServing, (status) => (status.state === 'up' ? 1 : 0)),
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  recordRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  recordPipelineJob(queue: PipelineQueue, outcome: PipelineJobOutcome): void {
    this.pipelineJobs.inc({ queue, outcome });
  }

  /**
   * Every group's counts of every queue, read in parallel, each within the bound (null for one that
   * did not answer). Both queue gauges are collected in the same scrape and share one read.
   */
  private readQueueCounts(): Promise<QueueCounts[]> {
    this.queueCounts ??= Promise.all(
      PIPELINE_QUEUES.flatMap((queue) =>
        Array.from({ length: this.producer.groups }, (_, group) => {
          const target = this.producer.queue(queue, group);
          return withinRedisBound(target, () => target.getJobCounts(...QUEUE_STATES), QUEUE_COUNT_TIMEOUT_MS).then(
            (byState) => ({ queue, group, byState }),
            () => ({ queue, group, byState: null }),
          );
        }),
      ),
    ).finally(() => (this.queueCounts = null));
    return this.queueCounts;
  }

  /**
   * The counts per queue, summed over the groups. A queue of which a group did not answer has no
   * series: a partial sum would look current and complete.
   */
  private async collectQueueJobs(gauge: Gauge<'queue' | 'state'>): Promise<void> {
    const counts = await this.readQueueCounts();
    // Stale counts from an earlier scrape would look current; a queue that does not answer has none.
    gauge.reset();
    for (const queue of PIPELINE_QUEUES) {
      const ofQueue = counts.filter((entry) => entry.queue === queue);
      if (ofQueue.some((entry) => !entry.byState)) continue;
      for (const state of QUEUE_STATES) {
        gauge.set(
          { queue, state },
          ofQueue.reduce((sum, entry) => sum + (entry.byState?.[state] ?? 0), 0),
        );
      }
    }
  }

  private async collectGroupJobs(gauge: Gauge<'group' | 'queue' | 'state'>): Promise<void> {
    const counts = await this.readQueueCounts();
    gauge.reset();
    for (const { queue, group, byState } of counts) {
      if (!byState) continue;
      for (const state of QUEUE_STATES) gauge.set({ group: String(group), queue, state }, byState[state] ?? 0);
    }
  }

  private collectReplicas(gauge: Gauge<'replica'>, value: (status: ReplicaStatus) => number | null): void {
    gauge.reset();
    for (const status of this.replicaReads.status()) {
      const measured = value(status);
      if (measured !== null) gauge.set({ replica: status.replica }, measured);
    }
  }

  private collectPool(gauge: Gauge<'state'>): void {
    gauge.reset();
    const pool = poolOf(this.dataSource);
    if (!pool) return;
    gauge.set({ state: 'total' }, pool.totalCount);
    gauge.set({ state: 'idle' }, pool.idleCount);
    gauge.set({ state: 'waiting' }, pool.waitingCount);
  }
}
