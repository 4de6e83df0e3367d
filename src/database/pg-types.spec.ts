import { types } from 'pg';
import { seededRandom } from '../../test/support/list-walk';
import { parseTimestamptz, PG_TYPES } from './pg-types';

const TIMESTAMPTZ = 1184;
/** pg's own parser (`postgres-date`). */
const parseDate = types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;
const time = (value: Date | number | null) => (value instanceof Date ? value.getTime() : value);

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('parseTimestamptz', () => {
  it('reads the ISO text PostgreSQL writes, with or without a fraction and offset minutes', () => {
    expect(parseTimestamptz('2026-11-24 10:11:12+00')).toEqual(new Date('2026-11-24T10:11:12.000Z'));
    expect(parseTimestamptz('2026-11-24 10:11:12.345678+00')).toEqual(new Date('2026-11-24T10:11:12.345Z'));
    expect(parseTimestamptz('2026-11-24 10:11:12.9+00')).toEqual(new Date('2026-11-24T10:11:12.900Z'));
    expect(parseTimestamptz('2026-11-24 10:11:12.05-08')).toEqual(new Date('2026-11-24T18:11:12.050Z'));
    expect(parseTimestamptz('2026-11-24 10:11:12+05:30')).toEqual(new Date('2026-11-24T04:41:12.000Z'));
    expect(parseTimestamptz('2026-01-01 00:30:00-03:30')).toEqual(new Date('2026-01-01T04:00:00.000Z'));
  });

  it("gives the same instant as pg's own parser for 20,000 texts of every shape PostgreSQL writes", () => {
    // A fixed sequence, so a failure can be reproduced.
    const next = seededRandom(2026);
    const offsets = ['+00', '-08', '+05:30', '+05:45', '-03:30', '+14', '-12', '+01'];
    for (let i = 0; i < 20_000; i++) {
      const fractionDigits = Math.floor(next() * 7);
      const fraction = fractionDigits === 0 ? '' : `.${pad(Math.floor(next() * 10 ** fractionDigits), fractionDigits)}`;
      const text =
        `${pad(1000 + Math.floor(next() * 9000), 4)}-${pad(1 + Math.floor(next() * 12), 2)}-${pad(1 + Math.floor(next() * 28), 2)} ` +
        `${pad(Math.floor(next() * 24), 2)}:${pad(Math.floor(next() * 60), 2)}:${pad(Math.floor(next() * 60), 2)}` +
        `${fraction}${offsets[Math.floor(next() * offsets.length)]}`;
      expect([text, time(parseTimestamptz(text))]).toEqual([text, time(parseDate(text))]);
    }
  });

  it("leaves every other form to pg's parser, with the same result", () => {
    const others = [
      'infinity',
      '-infinity',
      '0099-01-01 00:00:00+00',
      '0999-06-01 12:00:00.5+00',
      '2020-01-01 00:00:00+00 BC',
      '12345-01-01 00:00:00+00',
      '1890-01-01 00:00:00+00:19:32',
      '2026-11-24 10:11:12.5+0530',
      '2026-11-24T10:11:12+00',
    ];
    for (const text of others) expect([text, time(parseTimestamptz(text))]).toEqual([text, time(parseDate(text))]);
  });

  it('is what every pool of the service uses for timestamptz text, and only for it', () => {
    expect(PG_TYPES.getTypeParser(TIMESTAMPTZ, 'text')).toBe(parseTimestamptz);
    expect(PG_TYPES.getTypeParser(TIMESTAMPTZ)).toBe(parseTimestamptz);
    expect(PG_TYPES.getTypeParser(TIMESTAMPTZ, 'binary')).not.toBe(parseTimestamptz);
    expect((PG_TYPES.getTypeParser(23, 'text') as (text: string) => unknown)('42')).toBe(42);
  });
});
