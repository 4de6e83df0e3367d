import { Pool, types } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { poolOf } from '../../src/database/pg-pool';
import { PG_TYPES } from '../../src/database/pg-types';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pgParse = types.getTypeParser(1184, 'text') as (text: string) => Date | number | null;

// Only SELECTs of literals: the administration database serves, nothing is written.
let db: DataSource;
beforeAll(async () => {
  db = await new DataSource(dataSourceOptions(ADMIN_URL)).initialize();
});
afterAll(() => db?.destroy());

describe("timestamptz values read through the service's pool", () => {
  it('uses the service type parsers', () => {
    expect((poolOf(db) as Pool).options).toMatchObject({ types: PG_TYPES });
  });

  it.each(['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns', 'Europe/Amsterdam'])(
    "are the instants pg's own parser reads from the same text, in session time zone %s",
    async (zone) => {
      const instants = [
        '2026-11-24 10:11:12.345678+00',
        '2026-03-29 01:30:00+00',
        '2026-07-01 00:00:00.5+00',
        '1999-12-31 23:59:59.999999+00',
        '1970-01-01 00:00:00+00',
        '1890-06-01 12:00:00+00',
        '0099-01-01 00:00:00+00',
        '2020-01-01 00:00:00+00 BC',
        'infinity',
        '-infinity',
      ];
      const runner = db.createQueryRunner();
      try {
        await runner.query(`SET TIME ZONE '${zone}'`);
        const rows: { at: Date | number; text: string }[] = await runner.query(
          `SELECT t::timestamptz AS at, t::timestamptz::text AS text FROM unnest($1::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n`,
          [instants],
        );
        expect(rows).toHaveLength(instants.length);
        for (const { at, text } of rows) {
          const expected = pgParse(text);
          expect([text, at instanceof Date ? at.getTime() : at]).toEqual([text, expected instanceof Date ? expected.getTime() : expected]);
        }
      } finally {
        await runner.release();
      }
    },
  );
});
