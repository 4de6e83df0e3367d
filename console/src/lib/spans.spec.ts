import { segmentText } from './spans';

describe('segmentText', () => {
  const text = 'SaaS companies in Germany with 50-200 employees';

  it('returns the whole text unmarked when there are no spans', () => {
    expect(segmentText(text, [])).toEqual([{ text, start: 0, marks: [] }]);
  });

  it('marks each criterion’s spans and keeps the text whole', () => {
    const segments = segmentText(text, [[{ start: 0, end: 4 }], [{ start: 18, end: 25 }]]);
    expect(segments.map((segment) => segment.text).join('')).toBe(text);
    expect(segments.filter((segment) => segment.marks.length)).toEqual([
      { text: 'SaaS', start: 0, marks: [0] },
      { text: 'Germany', start: 18, marks: [1] },
    ]);
  });

  it('splits overlapping spans and lists every criterion covering a piece', () => {
    const segments = segmentText('abcdef', [[{ start: 0, end: 4 }], [{ start: 2, end: 6 }]]);
    expect(segments).toEqual([
      { text: 'ab', start: 0, marks: [0] },
      { text: 'cd', start: 2, marks: [0, 1] },
      { text: 'ef', start: 4, marks: [1] },
    ]);
  });

  it('clamps out-of-range spans and ignores empty ones', () => {
    expect(
      segmentText('abc', [
        [
          { start: -5, end: 1 },
          { start: 2, end: 99 },
          { start: 1, end: 1 },
        ],
      ]),
    ).toEqual([
      { text: 'a', start: 0, marks: [0] },
      { text: 'b', start: 1, marks: [] },
      { text: 'c', start: 2, marks: [0] },
    ]);
  });

  it('merges neighbouring pieces with the same marks', () => {
    expect(
      segmentText('abcd', [
        [
          { start: 0, end: 2 },
          { start: 2, end: 4 },
        ],
      ]),
    ).toEqual([{ text: 'abcd', start: 0, marks: [0] }]);
  });
});
