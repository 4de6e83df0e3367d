import { join } from 'node:path';
import { loadSets } from '../../../../eval/eval-set';
import { isLabel, linesOf, parseCriteria, sectionsOf } from './criteria';

/**
 * The same description pasted from another editor reads the same: every description of the
 * labelled, tuning and held-out sets, with Windows or old Mac line breaks, zero-width spaces,
 * Markdown or bold headings, bold labels, its labelled lines as a Markdown table or with an em
 * dash for the colon, gives the criteria its plain text gives.
 */
const EVAL = join(__dirname, '../../../../eval');
const descriptions = ['sets', 'tuning', 'holdout'].flatMap((dir) => loadSets(join(EVAL, dir)).flatMap((set) => set.descriptions));

/** The description with each line that heads a section rewritten by `heading`. */
function withHeadings(description: string, heading: (line: string) => string): string {
  const lines = linesOf(description).map((line) => line.text);
  const headings = new Set(sectionsOf(lines).map((section) => section.heading));
  return lines.map((line, k) => (headings.has(k) ? heading(line) : line)).join('\n');
}

/** "Industries: …" at a line's start (after a bullet) as "**Industries:** …". */
const boldLabels = (description: string) =>
  description.replace(/^([ \t]*(?:[-*•][ \t]+)?)([A-Za-z][A-Za-z ]{1,30}?):/gm, (whole, lead: string, words: string) =>
    isLabel(words) ? `${lead}**${words}:**` : whole,
  );

/** A line that is only a label and its value ("Industries: Fintech"), as label and value; else null. */
function labelled(line: string): [string, string] | null {
  const m = /^([A-Za-z][A-Za-z ]{1,30}?):[ \t]*(\S.*)$/.exec(line);
  return m && isLabel(m[1]) && !m[2].includes('|') ? [m[1], m[2]] : null;
}

/** Each run of labelled lines as a Markdown table under a header row and its rule. */
function markdownTables(description: string): string {
  const out: string[] = [];
  let inTable = false;
  for (const line of linesOf(description).map((l) => l.text)) {
    const cells = labelled(line);
    if (cells && !inTable) out.push('| Field | Value |', '| --- | --- |');
    inTable = cells !== null;
    out.push(cells ? `| ${cells[0]} | ${cells[1]} |` : line);
  }
  return out.join('\n');
}

/** Each labelled line with an em dash for its colon. */
const dashed = (description: string) =>
  linesOf(description)
    .map(({ text }) => {
      const cells = labelled(text);
      return cells ? `${cells[0]} — ${cells[1]}` : text;
    })
    .join('\n');

const LAYOUTS: Array<[string, (description: string) => string]> = [
  ['\\r\\n line breaks', (d) => d.replace(/\n/g, '\r\n')],
  ['\\r line breaks', (d) => d.replace(/\n/g, '\r')],
  ['a zero-width space at every line end', (d) => d.replace(/\n/g, '\u200b\n')],
  ['Markdown headings', (d) => withHeadings(d, (line) => `## ${line.trim()}`)],
  ['bold headings', (d) => withHeadings(d, (line) => `**${line.trim()}**`)],
  ['bold labels', boldLabels],
  ['labelled lines as a Markdown table', markdownTables],
  ['labelled lines with an em dash for the colon', dashed],
];

it('has descriptions with headings and labels to rewrite', () => {
  expect(descriptions.length).toBeGreaterThan(200);
  const rewritten = (layout: (description: string) => string) => descriptions.filter((d) => layout(d.description) !== d.description).length;
  expect(rewritten((d) => withHeadings(d, (line) => `## ${line}`))).toBeGreaterThanOrEqual(5);
  expect(rewritten(boldLabels)).toBeGreaterThan(50);
  expect(rewritten(markdownTables)).toBeGreaterThan(50);
});

it.each(LAYOUTS)('reads every description of the sets written with %s as the plain text', (_, layout) => {
  const differ = descriptions.filter((d) => {
    const pasted = layout(d.description.replace(/\r\n?/g, '\n'));
    return JSON.stringify(parseCriteria(pasted, d.subject)) !== JSON.stringify(parseCriteria(d.description, d.subject));
  });
  expect(differ.map((d) => d.id)).toEqual([]);
});
