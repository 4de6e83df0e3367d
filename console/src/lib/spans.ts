/**
 * Highlighting the parts of a description the evaluator read as criteria: the text is cut at every
 * span's start and end, and each piece lists the criteria (by index) whose spans cover it. Spans are
 * UTF-16 offsets, `end` exclusive, as the API gives them; out-of-range ones are clamped.
 */

export interface SpanLike {
  start: number;
  end: number;
}

export interface Segment {
  text: string;
  start: number;
  /** The indexes of the criteria covering this piece; empty for plain text. */
  marks: number[];
}

export function segmentText(text: string, spansByCriterion: readonly (readonly SpanLike[])[]): Segment[] {
  const length = text.length;
  const clamp = (n: number) => Math.min(Math.max(Math.trunc(n), 0), length);
  const ranges = spansByCriterion.flatMap((spans, index) =>
    spans.map((span) => ({ start: clamp(span.start), end: clamp(span.end), index })).filter((range) => range.end > range.start),
  );
  const cuts = [...new Set([0, length, ...ranges.flatMap((range) => [range.start, range.end])])].sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const start = cuts[i];
    const end = cuts[i + 1];
    const marks = [...new Set(ranges.filter((range) => range.start <= start && range.end >= end).map((range) => range.index))].sort(
      (a, b) => a - b,
    );
    const previous = segments[segments.length - 1];
    if (previous && sameMarks(previous.marks, marks)) previous.text += text.slice(start, end);
    else segments.push({ text: text.slice(start, end), start, marks });
  }
  return segments;
}

function sameMarks(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
