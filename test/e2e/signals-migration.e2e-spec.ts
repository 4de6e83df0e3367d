import { DataSource, QueryRunner } from 'typeorm';
import { SignalsByMonth1764633600000 } from '../../src/database/migrations/1764633600000-signals-by-month';
import { insertBuyers } from '../support/read-model-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { internalId } from '../support/worker-process';

jest.setTimeout(600_000);

const ROWS = 1_000_000;

let t: TestApp;
let ds: DataSource;

beforeAll(async () => {
  // The API's statements are bounded to seconds; these copy a million rows.
  t = await startTestApp({ DATABASE_QUERY_TIMEOUT_MS: '600000' });
  ds = t.app.get(DataSource);
});

afterAll(() => t?.close());

/** How many Signals, and a checksum of every column of every one. */
async function contents(runner: QueryRunner): Promise<{ count: string; checksum: string }> {
  const [row] = await runner.query(
    `SELECT count(*)::text AS count,
            sum(hashtextextended(row(id, workspace_id, buyer_id, type, trigger, data::text, captured_at, created_at, updated_at,
                                     activity_id, matched::text)::text, 0))::text AS checksum
       FROM signals`,
  );
  return row;
}

describe('the migration that partitions the Signals', () => {
  it('converts a million rows of the single table without losing or changing one, and goes back', async () => {
    const migration = new SignalsByMonth1764633600000();
    const runner = ds.createQueryRunner();
    try {
      await migration.down(runner);
      const [{ kind }] = await ds.query(`SELECT relkind AS kind FROM pg_class WHERE oid = 'signals'::regclass`);
      expect(kind).toBe('r');

      const ws = await t.newWorkspace();
      const buyers = await insertBuyers(
        ds,
        ws.workspace_id,
        Array.from({ length: 500 }, () => ({})),
      );
      // Five years back (older than the months the migration makes: those rows go to the
      // MINVALUE partition) to a year ahead (the MAXVALUE partition), some with an activity.
      await runner.query(
        `INSERT INTO signals (id, workspace_id, buyer_id, type, trigger, data, captured_at, created_at, updated_at, activity_id, matched)
         SELECT g, $1, ($2::bigint[])[1 + g % array_length($2::bigint[], 1)],
                (ARRAY['website', 'market', 'linkedin'])[1 + g % 3], 'visited_page',
                json_build_object('n', g, 'url', 'https://example.com/p/' || g),
                now() - interval '5 years' + (g * interval '1 minute') * (6 * 525600.0 / $3),
                now() - g * interval '1 second', now(), CASE WHEN g % 2 = 0 THEN g END,
                CASE WHEN g % 5 = 0 THEN json_build_object('id', g) END
           FROM generate_series(1, $3) g`,
        [internalId(ws.workspace_id), buyers.map((b) => b.id), ROWS],
      );
      const before = await contents(runner);
      expect(before.count).toBe(String(ROWS));

      await migration.up(runner);
      expect(await contents(runner)).toEqual(before);
      const spread = await runner.query(
        `SELECT tableoid::regclass::text AS partition, count(*)::int AS n FROM signals
          WHERE tableoid::regclass::text IN ('signals_min', 'signals_max') GROUP BY 1 ORDER BY 1`,
      );
      expect(spread).toEqual([
        { partition: 'signals_max', n: expect.any(Number) },
        { partition: 'signals_min', n: expect.any(Number) },
      ]);
      const [{ months }] = await runner.query(
        `SELECT count(DISTINCT tableoid)::int AS months FROM signals WHERE tableoid::regclass::text ~ '^signals_p[0-9]{6}$'`,
      );
      expect(months).toBeGreaterThanOrEqual(36);

      await migration.down(runner);
      expect(await contents(runner)).toEqual(before);
      await migration.up(runner);
      expect(await contents(runner)).toEqual(before);
    } finally {
      await runner.release();
    }
  });
});
