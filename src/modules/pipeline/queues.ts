import type { JobsOptions, WorkerOptions } from 'bullmq';
import { formatId, ID_PREFIXES } from '../../shared/domain/ids';
import type { ActivityEvaluation, ActivityStage } from '../activities/activity.entity';
import type { FieldSources } from '../buyers/buyer-evaluation';
import type { CompanyInfo, ContactInfo } from '../buyers/buyer-shape';
import type { ResolvedIdentity } from '../../shared/domain/identity';
import { isPlainObject } from '../../shared/domain/plain-object';

/** The pipeline's queues, one per step, in order (DESIGN §3). */
export const PIPELINE_QUEUES = ['resolve', 'enrich', 'evaluate', 'match'] as const satisfies readonly ActivityStage[];
export type PipelineQueue = (typeof PIPELINE_QUEUES)[number];

/**
 * A job names its activity, and carries what the steps before it found (`carried`): the activity's
 * row is written once, when the activity finishes, instead of at every step. A job without what
 * its step needs (queued by the sweeper, or by an earlier version) starts the activity again at
 * Resolve; the steps before Match only read, so running them again is always safe.
 */
export interface PipelineJob {
  workspaceId: string;
  activityId: string;
  carried?: Carried;
}

export interface Carried {
  identity: ResolvedIdentity;
  /** Resolve → Enrich: the activity's own contact and company hints, as given. */
  hints?: { contact: unknown; company: unknown };
  /** Enrich → Evaluate → Match. */
  contact_info?: ContactInfo;
  company_info?: CompanyInfo;
  /** Enrich → Evaluate → Match: where the fields an evaluation reads came from. */
  sources?: FieldSources;
  /** Evaluate → Match. */
  evaluation?: ActivityEvaluation;
}

export function isPipelineJob(data: unknown): data is PipelineJob {
  const job = data as PipelineJob;
  return (
    typeof job === 'object' &&
    job !== null &&
    typeof job.workspaceId === 'string' &&
    /^[0-9]{1,19}$/.test(job.workspaceId) &&
    typeof job.activityId === 'string' &&
    /^[0-9]{1,19}$/.test(job.activityId) &&
    (job.carried === undefined || isPlainObject(job.carried))
  );
}

/** What a job carries, if it carries at least the fields a step needs (each a plain object). */
export function carriedWith<K extends keyof Carried>(job: PipelineJob, ...fields: K[]): (Carried & Required<Pick<Carried, K>>) | null {
  const carried = job.carried;
  if (!isPlainObject(carried) || !isPlainObject(carried.identity) || typeof carried.identity.personKey !== 'string') return null;
  return fields.every((field) => isPlainObject(carried[field])) ? (carried as Carried & Required<Pick<Carried, K>>) : null;
}

/**
 * Deterministic job id: the public activity id (`act_…`), which neither contains `:` nor looks
 * like an integer (BullMQ rejects both). A job added twice with the same id is stored once. A pass
 * started again (by the sweeper, or a restart at Resolve) gets a suffix, `act_…-<pass>`, which the
 * jobs of its later steps keep: the ids of an earlier pass's finished jobs, kept for a while, would
 * otherwise swallow them.
 */
export function pipelineJobId(activityId: string, pass?: string): string {
  const id = formatId(ID_PREFIXES.activity, activityId);
  return pass ? `${id}-${pass}` : id;
}

/** The pass a job id names (see `pipelineJobId`), or undefined for the first one. */
export function passOf(jobId: string | undefined, activityId: string): string | undefined {
  const base = `${pipelineJobId(activityId)}-`;
  return jobId?.startsWith(base) ? jobId.slice(base.length) : undefined;
}

export const PIPELINE_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 500 },
  // Finished jobs carry their activity's findings, so fewer are kept than failed ones.
  removeOnComplete: { age: 3600, count: 1_000 },
  // Failed jobs stay a week for inspection.
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * Jobs a worker runs side by side. They share their statements (reads and Match go to PostgreSQL
 * in batches), so more of them means fewer round trips per activity.
 */
export const PIPELINE_CONCURRENCY = 64;

/**
 * The workers' options. Every worker of a queue must hold a job for the same time before another
 * may take it over (PIPELINE_LOCK_MS, validated with the rest of the configuration).
 */
export function pipelineWorkerOptions(lockMs: number): Partial<WorkerOptions> {
  return {
    concurrency: PIPELINE_CONCURRENCY,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: 5,
  };
}
