/**
 * The pipeline's evaluator, for code that writes Buyers without running the pipeline (the bulk
 * seed), so its Buyers carry the same matches and reasoning as any others.
 */
export { DefaultEvaluator } from './domain/default-evaluator';
export type { EvaluationResult, KbProfile } from './domain/evaluator';
