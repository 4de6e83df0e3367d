import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvaluationResult, Evaluator } from '../src/modules/pipeline/domain/evaluator';
import { agreement, EvalDescription, loadSets, score } from './eval-set';

function setDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-set-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(content));
  return dir;
}

const description = (id: string, cases: Array<Partial<EvalDescription['cases'][number]>>): Partial<EvalDescription> => ({
  id,
  subject: 'icp',
  style: 'prose',
  description: 'Banks in Germany',
  cases: cases.map((c, i) => ({ id: `${id}-${i}`, group: 'general', difficulty: 'clear', expected: true, company: {}, ...c })),
});

/** Matches exactly the companies named "yes". */
const byName: Evaluator = {
  evaluateCompany: (company): EvaluationResult => ({
    matched: company.name === 'yes',
    id: null,
    name: '',
    reasoning: `saw ${company.name}`,
  }),
  evaluatePerson: (contact): EvaluationResult => ({ matched: contact.role.title === 'yes', id: null, name: '', reasoning: '' }),
};

describe('the evaluation set', () => {
  it('is well formed and large enough to measure: 60 descriptions, 400 cases, near misses and both labels', () => {
    const sets = loadSets();
    const descriptions = sets.flatMap((s) => s.descriptions);
    const cases = descriptions.flatMap((d) => d.cases);
    expect(descriptions.length).toBeGreaterThanOrEqual(60);
    expect(cases.length).toBeGreaterThanOrEqual(400);
    expect(cases.filter((c) => c.difficulty === 'near_miss').length).toBeGreaterThanOrEqual(cases.length * 0.4);
    expect(cases.filter((c) => c.expected).length).toBeGreaterThanOrEqual(cases.length * 0.35);
    expect(cases.filter((c) => !c.expected).length).toBeGreaterThanOrEqual(cases.length * 0.35);
    expect(new Set(descriptions.map((d) => d.subject))).toEqual(new Set(['icp', 'persona']));
  });

  it('the held-out and tuning sets are well formed too', () => {
    for (const dir of ['holdout', 'tuning']) {
      const cases = loadSets(join(__dirname, dir)).flatMap((s) => s.descriptions.flatMap((d) => d.cases));
      expect(cases.length).toBeGreaterThan(100);
    }
  });

  it('refuses a repeated id, an unknown group and a Persona case without a title, naming the file', () => {
    expect(() => loadSets(setDir({ 'a.json': [description('d1', [{ id: 'x' }, { id: 'x' }])] }))).toThrow(/a\.json x/);
    expect(() => loadSets(setDir({ 'a.json': [description('d1', [{ group: 'colour' as never }])] }))).toThrow(/unknown group/);
    const persona = { ...description('p1', [{ contact: { role: {} } as never }]), subject: 'persona' };
    expect(() => loadSets(setDir({ 'b.json': [persona] }))).toThrow(/b\.json p1-0: a Persona case needs contact.role.title/);
  });
});

describe('score', () => {
  it('counts agreement overall and by group, difficulty and subject, and singles out clear false positives', () => {
    const sets = loadSets(
      setDir({
        'a.json': [
          description('d1', [
            { company: { name: 'yes' }, expected: true },
            { company: { name: 'yes' }, expected: false, group: 'negation' },
            { company: { name: 'yes' }, expected: false, group: 'negation', difficulty: 'near_miss' },
            { company: { name: 'no' }, expected: true, difficulty: 'near_miss' },
          ]),
        ],
      }),
    );
    const report = score(byName, sets);
    expect(report.overall).toEqual({ cases: 4, agreed: 1 });
    expect(report.byGroup).toEqual({ general: { cases: 2, agreed: 1 }, negation: { cases: 2, agreed: 0 } });
    expect(report.byDifficulty).toEqual({ clear: { cases: 2, agreed: 1 }, near_miss: { cases: 2, agreed: 0 } });
    expect(report.bySubject).toEqual({ icp: { cases: 4, agreed: 1 } });
    expect(report.clearFalsePositives.map((r) => r.case.id)).toEqual(['d1-1']);
    expect(report.results[3]).toMatchObject({ matched: false, agrees: false, reasoning: 'saw no' });
    expect(agreement(report.overall)).toBe(0.25);
  });
});
