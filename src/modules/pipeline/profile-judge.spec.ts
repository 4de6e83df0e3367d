import { loadSets } from '../../../eval/eval-set';
import type { CompanyInfo, ContactInfo } from '../buyers/buyer-shape';
import { DefaultEvaluator } from './domain/default-evaluator';
import { ProfileJudge, publicKind } from './profile-judge';

describe('ProfileJudge', () => {
  it("agrees with the evaluator's match on every case of the labelled set, ICPs and Personas", () => {
    const judge = new ProfileJudge();
    const evaluator = new DefaultEvaluator();
    let compared = 0;
    for (const { descriptions } of loadSets()) {
      for (const d of descriptions) {
        const profile = { id: d.id, name: d.id, description: d.description };
        for (const c of d.cases) {
          const company = c.company as CompanyInfo;
          const contact = (c.contact ?? {}) as ContactInfo;
          const expected =
            d.subject === 'icp' ? evaluator.evaluateCompany(company, [profile]) : evaluator.evaluatePerson(contact, company, [profile]);
          expect({ id: c.id, matched: judge.judge(d.subject, d.id, d.description, judge.facts(company, contact)).matched }).toEqual({
            id: c.id,
            matched: expected.matched,
          });
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(400);
  });

  it('gives each criterion its verdict, the Buyer value and what the profile asks for', () => {
    const judge = new ProfileJudge();
    const facts = judge.facts(
      { name: 'Wien Soft', industries: ['Computer Software'], employee_count: 300, location: { country: 'Austria' } },
      {},
    );
    const verdict = judge.judge('icp', 'x', 'Employees: 50-1000\nCountries: Germany', facts);
    expect(verdict.matched).toBe(false);
    expect(verdict.checks).toEqual([
      expect.objectContaining({ kind: 'employees', status: 'passed', actual: '300' }),
      expect.objectContaining({ kind: 'country', status: 'failed', actual: 'Austria', expected: 'Germany' }),
    ]);
  });

  it('names funding criteria funding_stage, and every other kind as it is', () => {
    expect(publicKind('funding')).toBe('funding_stage');
    expect(publicKind('company_type')).toBe('company_type');
  });
});
