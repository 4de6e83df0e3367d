import { PIPELINE_QUEUES } from '../queues';
import { checkSteps, PIPELINE_STEPS } from './processors';

describe('the pipeline steps table', () => {
  it('gives every queue of PIPELINE_QUEUES its step, in order', () => {
    expect(PIPELINE_STEPS.map(([queue]) => queue)).toEqual([...PIPELINE_QUEUES]);
    expect(() => checkSteps(PIPELINE_STEPS)).not.toThrow();
  });

  it('refuses a queue without a step, a step without a queue and a step out of order', () => {
    const steps = [
      ['resolve', 1],
      ['enrich', 2],
      ['evaluate', 3],
      ['match', 4],
    ] as const;
    expect(() => checkSteps(steps, ['resolve', 'enrich', 'evaluate', 'extra', 'match'])).toThrow(/not PIPELINE_QUEUES/);
    expect(() => checkSteps(steps, ['resolve', 'enrich', 'match'])).toThrow(/not PIPELINE_QUEUES/);
    expect(() => checkSteps([steps[0], steps[2], steps[1], steps[3]])).toThrow(/evaluate, enrich/);
  });
});
