import { DefaultEvaluator } from '../src/modules/pipeline/domain/default-evaluator';
import { agreement, loadSets, score } from './eval-set';

/**
 * The default evaluator on the labelled set, as `npm run eval` scores it. A change that lowers
 * agreement below the floor, or matches a Buyer that clearly does not fit, fails here; raise the
 * floor when the evaluator improves.
 */
const FLOOR = 0.98;

describe('the default evaluator on the labelled set', () => {
  const report = score(new DefaultEvaluator(), loadSets());

  it(`agrees with at least ${FLOOR * 100} % of the labels`, () => {
    expect(agreement(report.overall)).toBeGreaterThanOrEqual(FLOOR);
  });

  it('matches no Buyer that clearly does not fit', () => {
    expect(report.clearFalsePositives.map((r) => `${r.case.id}: ${r.reasoning}`)).toEqual([]);
  });

  it.each(Object.keys(report.byGroup))('agrees with at least 95 %% of the %s cases', (group) => {
    expect(agreement(report.byGroup[group])).toBeGreaterThanOrEqual(0.95);
  });
});
