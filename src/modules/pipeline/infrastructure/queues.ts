import type { JobsOptions, WorkerOptions } from 'bullmq';
import { formatId, ID_PREFIXES } from '../../../shared/domain/ids';

/** The four pipeline queues, in order (DESIGN §3). */
export const PIPELINE_QUEUES = ['resolve', 'enrich', 'evaluate', 'match'] as const;
export type PipelineQueue = (typeof PIPELINE_QUEUES)[number];
export type PipelineStage = PipelineQueue | 'done';

/** A job carries ids only; everything else is read from the database by the step. */
export interface PipelineJob {
  workspaceId: string;
  activityId: string;
}

export function isPipelineJob(data: unknown): data is PipelineJob {
  const job = data as PipelineJob;
  return (
    typeof job === 'object' && job !== null &&
    typeof job.workspaceId === 'string' && /^[0-9]{1,19}$/.test(job.workspaceId) &&
    typeof job.activityId === 'string' && /^[0-9]{1,19}$/.test(job.activityId)
  );
}

/**
 * Deterministic job id: the public activity id (`act_…`), which neither contains `:` nor looks
 * like an integer (BullMQ rejects both). A job added twice with the same id is stored once.
 */
export function pipelineJobId(activityId: string, attempt?: string): string {
  const id = formatId(ID_PREFIXES.activity, activityId);
  return attempt ? `${id}-${attempt}` : id;
}

export const PIPELINE_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: { age: 3600, count: 10_000 },
  // Failed jobs stay a week for inspection.
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * How long a worker holds a job before another may take it over (a crashed worker's jobs come
 * back after this). Every worker of a queue must use the same value, so it is read from the
 * environment once, at start-up, by every process: PIPELINE_LOCK_MS (default 30 s).
 */
function lockMs(): number {
  const raw = process.env.PIPELINE_LOCK_MS;
  const value = raw && /^[0-9]+$/.test(raw) ? Number(raw) : 30_000;
  return Math.min(Math.max(value, 1_000), 600_000);
}

export const PIPELINE_WORKER_OPTIONS: Partial<WorkerOptions> = {
  // The jobs a worker runs side by side share their statements (reads, stage moves and Match go
  // to PostgreSQL in batches), so more of them means fewer round trips per activity.
  concurrency: 64,
  lockDuration: lockMs(),
  stalledInterval: lockMs(),
  maxStalledCount: 5,
};
