/**
 * What the default evaluator costs, in the benchmark's process (no I/O): reading a description
 * into criteria, and judging one Buyer against a workspace's ICPs and Personas once their
 * criteria are read (the evaluator keeps them, keyed by description). The descriptions and
 * Buyers are those of the labelled set in `eval/sets/`.
 *
 *   npm run bench:evaluator        alone; `npm run bench` runs it too (BENCH_SKIP_EVALUATOR=1 skips)
 */
import { performance } from 'node:perf_hooks';
import type { CompanyInfo, ContactInfo } from '../src/modules/buyers/buyer-shape';
import { parseCriteria } from '../src/modules/pipeline/domain/criteria';
import { DefaultEvaluator } from '../src/modules/pipeline/domain/default-evaluator';
import type { KbProfile } from '../src/modules/pipeline/domain/evaluator';
import { loadSets } from '../eval/eval-set';

export interface EvaluatorBenchResult {
  descriptions: { icps: number; personas: number };
  buyers: number;
  /** Reading one description into criteria, mean over the set's descriptions. */
  parse_us_per_description: number;
  /** One Buyer judged against every ICP of the set (criteria already read), and per ICP. */
  company_us_per_buyer: number;
  company_us_per_buyer_and_icp: number;
  /** One contact judged against every Persona of the set, and per Persona. */
  person_us_per_buyer: number;
  person_us_per_buyer_and_persona: number;
}

/** Runs `work` for at least `minMs` (and at least once), returning the mean µs per call. */
function timePerCall(work: () => void, minMs = 400): number {
  for (let i = 0; i < 50; i++) work(); // warm
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 20; i++) work();
    calls += 20;
    elapsed = performance.now() - started;
  } while (elapsed < minMs);
  return (elapsed * 1000) / calls;
}

const round = (us: number): number => Math.round(us * 100) / 100;

export function runEvaluatorBench(): EvaluatorBenchResult {
  const descriptions = loadSets().flatMap((set) => set.descriptions);
  const profile = (d: (typeof descriptions)[number]): KbProfile => ({ id: d.id, name: d.id, description: d.description });
  const icps = descriptions.filter((d) => d.subject === 'icp').map(profile);
  const personas = descriptions.filter((d) => d.subject === 'persona').map(profile);
  const buyers = descriptions
    .flatMap((d) => d.cases)
    .map((c) => ({ company: c.company as CompanyInfo, contact: (c.contact ?? {}) as ContactInfo }));

  let next = 0;
  const parse = timePerCall(() => {
    const d = descriptions[next++ % descriptions.length];
    parseCriteria(d.description, d.subject);
  });

  const evaluator = new DefaultEvaluator();
  let b = 0;
  const company = timePerCall(() => {
    evaluator.evaluateCompany(buyers[b++ % buyers.length].company, icps);
  });
  const person = timePerCall(() => {
    const buyer = buyers[b++ % buyers.length];
    evaluator.evaluatePerson(buyer.contact, buyer.company, personas);
  });

  return {
    descriptions: { icps: icps.length, personas: personas.length },
    buyers: buyers.length,
    parse_us_per_description: round(parse),
    company_us_per_buyer: round(company),
    company_us_per_buyer_and_icp: round(company / icps.length),
    person_us_per_buyer: round(person),
    person_us_per_buyer_and_persona: round(person / personas.length),
  };
}

export function formatEvaluatorBench(r: EvaluatorBenchResult): string {
  return [
    `evaluator: ${r.descriptions.icps} ICPs, ${r.descriptions.personas} Personas, ${r.buyers} Buyers (eval/sets)`,
    `  reading a description: ${r.parse_us_per_description} µs`,
    `  one Buyer against all ${r.descriptions.icps} ICPs: ${r.company_us_per_buyer} µs (${r.company_us_per_buyer_and_icp} µs per ICP)`,
    `  one contact against all ${r.descriptions.personas} Personas: ${r.person_us_per_buyer} µs (${r.person_us_per_buyer_and_persona} µs per Persona)`,
  ].join('\n');
}

if (require.main === module) {
  console.log(formatEvaluatorBench(runEvaluatorBench()));
}
