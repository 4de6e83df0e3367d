import { loadSets } from '../../../eval/eval-set';
import type { Subject } from '../pipeline/profile-judge';
import { readCriteria } from '../pipeline/profile-reading';
import { CriteriaReading, readDescription, segmentsOf, Span } from './criteria-reading';

const read = (description: string, subject: Subject = 'icp') => readDescription(readCriteria, subject, description);

/** The one criterion of `kind`. */
function criterion(reading: CriteriaReading, kind: string) {
  const found = reading.criteria.filter((c) => c.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

const texts = (spans: readonly Span[]) => spans.map((s) => s.text);
const spansOf = (reading: CriteriaReading, kind: string) => texts(criterion(reading, kind).spans);

/** Every span slices the description to its text; `span` is the first of `spans`; ignored phrases are in no span. */
function expectConsistent(reading: CriteriaReading): void {
  const { description } = reading;
  const all = [...reading.criteria.flatMap((c) => c.spans), ...reading.ignored];
  for (const s of all) {
    expect(s.start).toBeGreaterThanOrEqual(0);
    expect(s.end).toBeGreaterThan(s.start);
    expect(s.end).toBeLessThanOrEqual(description.length);
    expect(description.slice(s.start, s.end)).toBe(s.text);
  }
  for (const c of reading.criteria) expect(c.span).toEqual(c.spans[0] ?? null);
  const spans = reading.criteria.flatMap((c) => c.spans);
  for (const i of reading.ignored) expect(spans.filter((s) => i.start < s.end && s.start < i.end)).toEqual([]);
}

describe('readDescription: spans', () => {
  it('spans a labelled line from its label to its last value', () => {
    const reading = read('Industries: Fintech, Insurtech\nEmployees: 50-1000\nCountries: Germany, Austria');
    expect(spansOf(reading, 'industry')).toEqual(['Industries: Fintech, Insurtech']);
    expect(spansOf(reading, 'employees')).toEqual(['Employees: 50-1000']);
    expect(spansOf(reading, 'country')).toEqual(['Countries: Germany, Austria']);
    expect(criterion(reading, 'country').span).toEqual({ start: 50, end: 77, text: 'Countries: Germany, Austria' });
    expect(reading.ignored).toEqual([]);
    expectConsistent(reading);
  });

  it('spans only the words of each criterion in prose', () => {
    const reading = read('B2B software companies with 100 to 2,000 employees in the UK or Ireland');
    expect(spansOf(reading, 'industry')).toEqual(['software']);
    expect(spansOf(reading, 'employees')).toEqual(['100 to 2,000 employees']);
    expect(spansOf(reading, 'country')).toEqual(['UK or Ireland']);
    expect(texts(reading.ignored)).toEqual(['B2B']);
    expectConsistent(reading);
  });

  it('gives a list written in two places a span in each', () => {
    const reading = read('Fintech and insurtech companies in Germany. Industries: Banking, Insurtech');
    expect(criterion(reading, 'industry').values).toEqual(['Banking', 'Insurance', 'Fintech']);
    expect(spansOf(reading, 'industry')).toEqual(['Fintech and insurtech', 'Industries: Banking, Insurtech']);
    expect(criterion(reading, 'industry').span?.text).toBe('Fintech and insurtech');
    expectConsistent(reading);
  });

  it('finds an exclusion in prose, negated, with the words that say it', () => {
    const reading = read("Fintech in Germany. We don't sell to the public sector.");
    const exclusion = criterion(reading, 'exclusion');
    expect(exclusion).toMatchObject({
      negated: true,
      values: [{ kind: 'company_type', value: 'government' }],
      expected: 'not public sector',
    });
    expect(spansOf(reading, 'exclusion')).toEqual(["don't sell to the public sector"]);
    expect(criterion(reading, 'industry').negated).toBe(false);
    expectConsistent(reading);
  });

  it('spans the lines under a heading that the parser reads under it', () => {
    const reading = read('Target\nConstruction firms\n\nAvoid\nBrazil\nPublicly listed companies');
    expect(spansOf(reading, 'exclusion')).toEqual(['Brazil', 'Publicly listed companies']);
    expect(spansOf(reading, 'industry')).toEqual(['Construction']);
    expectConsistent(reading);
  });

  it('spans the lines under a numbered heading, a Markdown one, or one written with \\r\\n, as the parser reads them', () => {
    for (const description of [
      'Construction firms\n1. Avoid\n2. Brazil\n3. Publicly listed companies',
      'Target\r\nConstruction firms\r\n\r\nAvoid\r\nBrazil\r\nPublicly listed companies',
      '## Target\nConstruction firms\n\n## Avoid\nBrazil\nPublicly listed companies',
      '**Red flags**\n- Brazil\n- Publicly listed companies',
    ]) {
      const reading = read(description);
      expect(spansOf(reading, 'exclusion')).toEqual(['Brazil', 'Publicly listed companies']);
      expect(texts(reading.ignored)).not.toContain('Brazil');
      expectConsistent(reading);
    }
  });

  it('keeps a negation out of the span of what it leaves wanted', () => {
    const reading = read('Fintech and banks, not agencies');
    expect(spansOf(reading, 'industry')).toEqual(['Fintech and banks']);
    expect(spansOf(reading, 'exclusion')).toEqual(['not agencies']);
  });

  it('joins the exclusions of several sentences, each with its span', () => {
    const reading = read('Exclude: agencies. No consultancies either.');
    expect(criterion(reading, 'exclusion').values).toEqual([
      { kind: 'industry', value: 'Marketing and advertising' },
      { kind: 'industry', value: 'Consulting' },
    ]);
    expect(spansOf(reading, 'exclusion')).toEqual(['Exclude: agencies', 'No consultancies']);
  });

  it('spans a size word and states the range it was read as', () => {
    const reading = read('Mid-market fintech in DACH or Europe');
    expect(criterion(reading, 'employees')).toMatchObject({
      values: ['100–999'],
      ranges: [{ min: 100, max: 999 }],
      assumed: 'mid-market, read as 100–999',
      expected: 'mid-market, read as 100–999',
    });
    expect(spansOf(reading, 'employees')).toEqual(['Mid-market']);
    // "DACH" changes only the words of the expectation, Europe holding all its countries: it is read all the same.
    expect(spansOf(reading, 'country')).toEqual(['DACH or Europe']);
    expect(reading.assumptions).toEqual(['mid-market read as 100–999 employees']);
    expect(criterion(reading, 'industry').assumed).toBeNull();
  });

  it('reports phrases read as context, trimmed of filler words, and no phrase of filler words alone', () => {
    const reading = read('Innovative, fast-growing B2B SaaS companies in the U.S. with 50-500 employees. Series A to C.');
    expect(texts(reading.ignored)).toEqual(['Innovative', 'fast-growing B2B']);
    expect(spansOf(reading, 'country')).toEqual(['U.S.']);
    expect(spansOf(reading, 'funding_stage')).toEqual(['Series A to C']);
    expectConsistent(reading);
  });

  it('reads a Persona: titles, a seniority label and range, and excluded roles', () => {
    const reading = read('CFOs, VPs of Finance and finance directors. Seniority: Director+. Never interns or students.', 'persona');
    expect(criterion(reading, 'title').values).toEqual(['CFOs', 'VPs of Finance', 'finance directors']);
    expect(spansOf(reading, 'title')).toEqual(['CFOs, VPs of Finance and finance directors']);
    expect(spansOf(reading, 'seniority')).toEqual(['Seniority: Director+']);
    expect(spansOf(reading, 'exclusion')).toEqual(['Never interns or students']);

    const range = read('Heads of Sales from manager up to VP, in SaaS', 'persona');
    expect(criterion(range, 'seniority').values).toEqual(['VP', 'Head/Director', 'Manager']);
    expect(spansOf(range, 'seniority')).toEqual(['manager up to VP']);
    // Company words in a Persona's prose are context.
    expect(texts(range.ignored)).toEqual(['SaaS']);
  });

  it('counts offsets in UTF-16 code units, past accents and emoji', () => {
    const description = '😀 Ünïcødé café 🚀 owners: Fintech in Österreich with 10-50 employees';
    const reading = read(description);
    const country = criterion(reading, 'country');
    expect(country.span).toEqual({
      start: description.indexOf('Österreich'),
      end: description.indexOf('Österreich') + 10,
      text: 'Österreich',
    });
    expect(spansOf(reading, 'industry')).toEqual(['Fintech']);
    expect(spansOf(reading, 'employees')).toEqual(['10-50 employees']);
    expect(texts(reading.ignored)).toEqual(['Ünïcødé café', 'owners']);
    expectConsistent(reading);
  });

  it('names an industry of unknown words a keyword criterion', () => {
    const reading = read('Keywords: widgets, gadgets');
    expect(reading.criteria).toEqual([
      expect.objectContaining({
        kind: 'keyword',
        label: 'industry',
        values: ['widgets', 'gadgets'],
        span: expect.objectContaining({ start: 0, end: 26 }),
      }),
    ]);
  });

  it('has no criteria, and all of its words ignored, for a description without any', () => {
    const reading = read('We help teams close their books faster.');
    expect(reading).toEqual({
      object: 'criteria',
      subject: 'icp',
      description: 'We help teams close their books faster.',
      criteria: [],
      ignored: [{ start: 3, end: 38, text: 'help teams close their books faster' }],
      assumptions: [],
    });
  });

  it('keeps every span consistent on the whole labelled set', () => {
    for (const { descriptions } of loadSets()) {
      for (const d of descriptions) {
        const reading = read(d.description, d.subject);
        expect(reading.criteria.map((c) => c.expected)).toEqual(readCriteria(d.subject, d.description).map((c) => c.expected));
        expectConsistent(reading);
      }
    }
  });

  it('reads 10,000 characters of hostile text to the end', () => {
    const words = [
      'fintech',
      'not',
      'agencies',
      '50-500',
      'employees',
      'in',
      'Germany',
      'Texas',
      'Series',
      'B',
      'CFO',
      'VP+',
      'mid-market',
      '🚀',
      'ünïcødé',
      '$10M',
      ',',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 16_807) % 2_147_483_647);
    let text = '';
    for (let n = 1; text.length < 10_000; n++) text += `${words[next() % words.length]}${n % 50 === 0 ? '. ' : ' '}`;
    text = text.slice(0, 10_000);
    for (const subject of ['icp', 'persona'] as const) {
      // Finishing at all is the test (a catastrophic pattern would not, within the timeout); its
      // speed is measured by the evaluator benchmark.
      const reading = read(text, subject);
      expect(reading.criteria.length).toBeGreaterThan(0);
      expectConsistent(reading);
    }
    expectConsistent(read('UK. '.repeat(2_500)));
    expectConsistent(read('x'.repeat(10_000)));
    expectConsistent(read('.,;:!?'.repeat(1_666)));
  });
});

describe('segmentsOf', () => {
  const cut = (text: string) => segmentsOf(text).map((s) => text.slice(s.start, s.end));

  it('cuts at lines and sentence ends, keeping initials and abbreviations inside a sentence', () => {
    expect(cut('Fintech in the U.S. and e.g. banks. Series A!\nMid-market; 50-200 employees? Yes')).toEqual([
      'Fintech in the U.S. and e.g. banks.',
      'Series A!',
      'Mid-market;',
      '50-200 employees?',
      'Yes',
    ]);
  });

  it('keeps a labelled value whole across semicolons, as the evaluator reads it', () => {
    expect(cut('Exclude: agencies; consultancies. Fintech; banks')).toEqual(['Exclude: agencies; consultancies.', 'Fintech;', 'banks']);
  });

  it('skips blank lines and space', () => {
    expect(cut('  \n\n  Fintech  \r\n\t')).toEqual(['Fintech']);
  });
});
