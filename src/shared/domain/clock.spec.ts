import { seededRandom } from '../../../test/support/list-walk';
import { formatTimestamp } from './clock';

/** What the API has always answered: `toISOString()` without its milliseconds. */
const reference = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

describe('formatTimestamp', () => {
  it('writes YYYY-MM-DDTHH:mm:ssZ in UTC, milliseconds dropped, not rounded', () => {
    expect(formatTimestamp(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 999)))).toBe('2026-01-02T03:04:05Z');
    expect(formatTimestamp(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31T23:59:59Z');
    expect(formatTimestamp(new Date('2024-02-29T00:00:00+05:30'))).toBe('2024-02-28T18:30:00Z');
  });

  it('agrees with toISOString on the edges of each field and of the four-digit years', () => {
    const edges = [
      '1000-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '1999-09-09T09:09:09.009Z',
      '2000-10-10T10:10:10.010Z',
      '2038-01-19T03:14:08.000Z',
      '9999-12-31T23:59:59.999Z',
    ];
    for (const text of edges) expect(formatTimestamp(new Date(text))).toBe(reference(new Date(text)));
  });

  it('agrees with toISOString on 20,000 instants spread over the four-digit years', () => {
    const min = Date.UTC(1000, 0, 1);
    const span = Date.UTC(9999, 11, 31, 23, 59, 59, 999) - min;
    // A fixed sequence, so a failure can be reproduced.
    const next = seededRandom(12345);
    for (let i = 0; i < 20_000; i++) {
      const date = new Date(min + Math.floor(next() * span));
      expect(formatTimestamp(date)).toBe(reference(date));
    }
  });

  it("leaves years outside 1000-9999 in toISOString's own form", () => {
    const early = new Date(Date.UTC(999, 5, 1, 12, 0, 0));
    const late = new Date(Date.UTC(10000, 0, 1));
    const negative = new Date(Date.UTC(-1, 0, 1));
    expect(formatTimestamp(early)).toBe('0999-06-01T12:00:00Z');
    expect(formatTimestamp(late)).toBe(reference(late));
    expect(formatTimestamp(negative)).toBe(reference(negative));
  });

  it('throws on an invalid date, as toISOString does', () => {
    expect(() => formatTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
