/**
 * What the default evaluator costs, in the benchmark's process (no I/O): reading a description
 * into criteria, and judging one Buyer against a workspace's ICPs and Personas once their
 * criteria are read (the evaluator keeps them, keyed by description). The descriptions and
 * Buyers are those of the labelled set in `eval/sets/`. Also the reading shown back by the
 * criteria routes (each criterion with its spans, `criteria-reading.ts`), uncached: for the set's
 * descriptions, for 1,000 and 10,000 characters of them, and for 10,000 hostile characters.
 *
 *   npm run bench:evaluator        alone; `npm run bench` runs it too (BENCH_SKIP_EVALUATOR=1 skips)
 */
import { performance } from 'node:perf_hooks';
import type { CompanyInfo, ContactInfo } from '../src/modules/buyers/buyer-shape';
import { parseCriteria } from '../src/modules/pipeline/domain/criteria';
import { DefaultEvaluator } from '../src/modules/pipeline/domain/default-evaluator';
import type { KbProfile } from '../src/modules/pipeline/domain/evaluator';
import { loadSets } from '../eval/eval-set';
import { readDescription } from '../src/modules/evaluation/criteria-reading';
import { readCriteria } from '../src/modules/pipeline/profile-reading';

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
  /** The criteria routes' reading with spans, uncached: mean over the set, then longer texts (ms). */
  reading_ms_per_description: number;
  reading_ms_1000_chars: number;
  reading_ms_10000_chars: number;
  reading_ms_10000_hostile_chars: number;
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

/** Mean ms of a slow call: three to warm, then at least five and at least `minMs`. */
function msPerCall(work: () => void, minMs = 400): number {
  for (let i = 0; i < 3; i++) work();
  let calls = 0;
  const started = performance.now();
  do {
    work();
    calls += 1;
  } while (calls < 5 || performance.now() - started < minMs);
  return (performance.now() - started) / calls;
}

/**
 * ICP descriptions of the set as one text, each ending a sentence, cut to `length`. The hostile
 * text is criteria words, negations and numbers in sentences of 50 words, the most the reading
 * narrows word by word.
 */
function readingTexts(descriptions: ReadonlyArray<{ subject: string; description: string }>) {
  const sentences = descriptions.filter((d) => d.subject === 'icp').map((d) => d.description.trim().replace(/([^.!?])$/, '$1.'));
  let prose = '';
  while (prose.length < 10_000) prose += `${sentences.join(' ')} `;
  const words = ['fintech', 'not', 'agencies', '50-500', 'employees', 'in', 'Germany', 'Texas', 'Series', 'B', 'mid-market', '$10M', 'CFO'];
  let hostile = '';
  for (let n = 1; hostile.length < 10_000; n++) hostile += `${words[(n * 7_919) % words.length]}${n % 50 === 0 ? '. ' : ' '}`;
  return { short: prose.slice(0, 1_000), long: prose.slice(0, 10_000), hostile: hostile.slice(0, 10_000) };
}

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

  let d = 0;
  const reading = timePerCall(() => {
    const one = descriptions[d++ % descriptions.length];
    readDescription(readCriteria, one.subject, one.description);
  });
  const texts = readingTexts(descriptions);

  return {
    descriptions: { icps: icps.length, personas: personas.length },
    buyers: buyers.length,
    parse_us_per_description: round(parse),
    company_us_per_buyer: round(company),
    company_us_per_buyer_and_icp: round(company / icps.length),
    person_us_per_buyer: round(person),
    person_us_per_buyer_and_persona: round(person / personas.length),
    reading_ms_per_description: round(reading / 1000),
    reading_ms_1000_chars: round(msPerCall(() => readDescription(readCriteria, 'icp', texts.short))),
    reading_ms_10000_chars: round(msPerCall(() => readDescription(readCriteria, 'icp', texts.long))),
    reading_ms_10000_hostile_chars: round(msPerCall(() => readDescription(readCriteria, 'icp', texts.hostile))),
  };
}

export function formatEvaluatorBench(r: EvaluatorBenchResult): string {
  return [
    `evaluator: ${r.descriptions.icps} ICPs, ${r.descriptions.personas} Personas, ${r.buyers} Buyers (eval/sets)`,
    `  reading a description: ${r.parse_us_per_description} µs`,
    `  one Buyer against all ${r.descriptions.icps} ICPs: ${r.company_us_per_buyer} µs (${r.company_us_per_buyer_and_icp} µs per ICP)`,
    `  one contact against all ${r.descriptions.personas} Personas: ${r.person_us_per_buyer} µs (${r.person_us_per_buyer_and_persona} µs per Persona)`,
    `  a reading with spans (criteria routes, uncached): ${r.reading_ms_per_description} ms per description of the set, ` +
      `${r.reading_ms_1000_chars} ms for 1,000 characters, ${r.reading_ms_10000_chars} ms for 10,000, ` +
      `${r.reading_ms_10000_hostile_chars} ms for 10,000 hostile`,
  ].join('\n');
}

if (require.main === module) {
  console.log(formatEvaluatorBench(runEvaluatorBench()));
}
