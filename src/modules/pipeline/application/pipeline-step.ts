import type { PipelineJob, PipelineQueue } from '../queues';

/**
 * One pipeline step. `run` does the step for the job's activity and answers the queue that should
 * get it next (null once it is finished); what the step found is then in `job.carried`, for the
 * next step. Steps before Match write nothing, so a repeated, retried or re-delivered job just does
 * the work again, and Match, which writes the outcome, takes effect once per activity.
 */
export abstract class PipelineStep {
  abstract run(job: PipelineJob): Promise<PipelineQueue | null>;
}

/**
 * For a job that lacks what its step needs (queued by the sweeper, or by an earlier version):
 * the activity starts again at Resolve, from its stored raw activity.
 */
export function restart(job: PipelineJob): 'resolve' {
  delete job.carried;
  return 'resolve';
}
