/**
 * `npm run eval`: the default evaluator against the labelled set in `eval/sets/`. Prints agreement
 * overall, by group, difficulty and subject, then every disagreement with the evaluator's
 * reasoning.
 *
 *   npm run eval                       the report
 *   npm run eval -- --min 0.98         and exit 1 below that agreement or on a clear false positive
 *   npm run eval -- --group negation   only that group's cases
 *   npm run eval -- --dir eval/holdout  another set in the same format
 */
import { resolve } from 'node:path';
import { DefaultEvaluator } from '../src/modules/pipeline/domain/default-evaluator';
import { formatTable } from '../bench/report';
import { agreement, EvalReport, loadSets, score, Tally } from './eval-set';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function percent(t: Tally): string {
  return `${(agreement(t) * 100).toFixed(1)} %`;
}

function rows(tallies: Record<string, Tally>): string[][] {
  return Object.entries(tallies)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, t]) => [key, String(t.cases), String(t.cases - t.agreed), percent(t)]);
}

function print(report: EvalReport): void {
  const header = ['', 'cases', 'disagreements', 'agreement'];
  console.log(
    formatTable(header, [
      ['all', String(report.overall.cases), String(report.overall.cases - report.overall.agreed), percent(report.overall)],
    ]),
  );
  for (const [title, tallies] of [
    ['by group', report.byGroup],
    ['by difficulty', report.byDifficulty],
    ['by subject', report.bySubject],
  ] as const) {
    console.log(`\n${title}`);
    console.log(formatTable(header, rows(tallies)));
  }
  const wrong = report.results.filter((r) => !r.agrees);
  console.log(`\ndisagreements: ${wrong.length} (clear false positives: ${report.clearFalsePositives.length})`);
  for (const r of wrong) {
    const who = r.case.contact?.role?.title
      ? `${r.case.contact.role.title} at ${r.case.company.name ?? '?'}`
      : (r.case.company.name ?? '?');
    console.log(
      `\n${r.case.id} [${r.case.group}, ${r.case.difficulty}] expected ${r.case.expected ? 'match' : 'no match'}, got ${r.matched ? 'match' : 'no match'}: ${who}`,
    );
    console.log(`  ${r.description.subject.toUpperCase()}: ${r.description.description.replace(/\s+/g, ' ')}`);
    console.log(`  Buyer: ${JSON.stringify({ ...r.case.company, ...(r.case.contact ? { role: r.case.contact.role } : {}) })}`);
    if (r.case.note) console.log(`  label: ${r.case.note}`);
    console.log(`  reasoning: ${r.reasoning}`);
  }
}

function main(): void {
  const group = option('--group');
  const min = option('--min');
  const dir = option('--dir');
  const sets = loadSets(dir ? resolve(dir) : undefined).map(({ file, descriptions }) => ({
    file,
    descriptions: descriptions
      .map((d) => ({ ...d, cases: d.cases.filter((c) => !group || c.group === group) }))
      .filter((d) => d.cases.length > 0),
  }));
  const report = score(new DefaultEvaluator(), sets);
  print(report);
  if (min !== undefined) {
    const floor = Number(min);
    const ok = agreement(report.overall) >= floor && report.clearFalsePositives.length === 0;
    if (!ok) {
      console.error(`\nbelow ${(floor * 100).toFixed(1)} % or with a clear false positive`);
      process.exitCode = 1;
    }
  }
}

main();
