import { DataSource } from 'typeorm';
import { ActivityUpdatesInPlace1764115200000 } from '../../src/database/migrations/1764115200000-activity-updates-in-place';
import { ActivitiesByDay1764720000000 } from '../../src/database/migrations/1764720000000-activities-by-day';
import { CanonicalUrlsInAscii1765152000000 } from '../../src/database/migrations/1765152000000-canonical-urls-in-ascii';
import { addPeriods, periodStart } from '../../src/database/partitions';
import { IdGenerator } from '../../src/shared/domain/ids';
import { internalId } from '../support/worker-process';
import { startTestApp, TestApp } from '../support/test-app';

// Converting a table makes hundreds of day partitions: seconds on a quiet machine, far more on a busy one.
jest.setTimeout(180_000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const indexes = async (db: DataSource): Promise<string[]> =>
  (await db.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'activities' ORDER BY indexname`)).map(
    (row: { indexname: string }) => row.indexname,
  );

describe('the migration that moves the sweeper index', () => {
  it('goes down and up again, and keeps an index an operator built beforehand without locking writes', async () => {
    const db = t.app.get(DataSource);
    const migration = new ActivityUpdatesInPlace1764115200000();
    const byDay = new ActivitiesByDay1764720000000();
    const runner = db.createQueryRunner();
    try {
      // The table this migration changed was not yet partitioned (ADR 0053).
      await byDay.down(runner);
      await migration.down(runner);
      expect(await indexes(db)).toEqual(['activities_external_id', 'activities_pkey', 'activities_unfinished']);
      // What the migration's comment tells an operator of a large table to run first.
      await runner.query(`CREATE INDEX CONCURRENTLY activities_queued ON activities (created_at) WHERE status = 'queued'`);
      await migration.up(runner);
      expect(await indexes(db)).toEqual(['activities_external_id', 'activities_pkey', 'activities_queued']);
      const [{ options }] = await runner.query(`SELECT reloptions AS options FROM pg_class WHERE oid = 'activities'::regclass`);
      expect(options).toEqual(['fillfactor=50']);
      await byDay.up(runner);
    } finally {
      await runner.release();
    }
  });
});

/** The activities' rows: how many, and a checksum of them all. */
async function contents(db: DataSource, table: string): Promise<{ count: string; checksum: string }> {
  const [row] = await db.query(
    `SELECT count(*)::text AS count, coalesce(sum(hashtextextended(t::text, 0)), 0)::text AS checksum FROM ${table} t`,
  );
  return row;
}

describe('the migration that partitions activities by day', () => {
  it('converts the existing rows without losing one, and goes down again with them', async () => {
    const db = t.app.get(DataSource);
    const ws = await t.newWorkspace();
    const migration = new ActivitiesByDay1764720000000();
    const runner = db.createQueryRunner();
    const today = periodStart('day', new Date());
    try {
      await migration.down(runner);
      // Rows of today, of ten days ago, and of two years ago (older than the days made: into activities_min).
      const ages = [0, 0, 10, 10, 10, 730];
      const rows = ages.map((days, i) => ({
        id: new IdGenerator(() => today.getTime() - days * 86_400_000 + 3_600_000 + i).next(),
        external_id: i % 2 === 0 ? `ext-${i}` : null,
        status: i === 2 ? 'queued' : 'processed',
      }));
      for (const row of rows) {
        await runner.query(
          `INSERT INTO activities (id, workspace_id, external_id, type, trigger, occurred_at, payload, stage, status, created_at, updated_at)
           VALUES ($1, $2, $3, 'website', 'visited_page', now(), '{"a":1}', $4, $5, now(), now())`,
          [row.id, internalId(ws.workspace_id), row.external_id, row.status === 'queued' ? 'resolve' : 'done', row.status],
        );
      }
      const before = await contents(db, 'activities');
      await migration.up(runner);
      expect(await contents(db, 'activities')).toEqual(before);
      const [{ kind }] = await db.query(`SELECT relkind AS kind FROM pg_class WHERE oid = 'activities'::regclass`);
      expect(kind).toBe('p');
      // Days from the oldest row's (bounded) to three ahead; the two-year-old row is in activities_min.
      const names = (
        await db.query(
          `SELECT relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'activities'::regclass`,
        )
      ).map((row: { name: string }) => row.name);
      const day = (d: Date) => `activities_p${d.toISOString().slice(0, 10).replace(/-/g, '')}`;
      expect(names).toEqual(expect.arrayContaining([day(addPeriods('day', today, -10)), day(today), day(addPeriods('day', today, 3))]));
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM activities_min`);
      expect(n).toBe(1);
      const external = await db.query(
        `SELECT external_id, activity_id::text AS id FROM activity_external_ids WHERE workspace_id = $1 ORDER BY 1`,
        [internalId(ws.workspace_id)],
      );
      expect(external).toEqual(rows.filter((r) => r.external_id).map((r) => ({ external_id: r.external_id, id: r.id })));

      await migration.down(runner);
      expect(await contents(db, 'activities')).toEqual(before);
      await migration.up(runner);
      expect(await contents(db, 'activities')).toEqual(before);
    } finally {
      await runner.release();
    }
  });
});

describe('the migration that writes canonical URLs in ASCII', () => {
  it('rewrites a Target Page whose URL has characters outside ASCII, and no other', async () => {
    const db = t.app.get(DataSource);
    const ws = await t.newWorkspace();
    const create = async (short: string, url: string) =>
      (
        await t.http
          .post('/v1/kb/target-pages')
          .set('Authorization', ws.auth)
          .send({ name: short, short_name: short, url, description: 'd' })
          .expect(201)
      ).body.id as string;
    const pages = {
      accented: await create('accented', 'https://example.com/café'),
      plain: await create('plain', 'https://example.com/plain/'),
    };
    // As the earlier canonicaliser stored them.
    await db.query(`UPDATE target_pages SET canonical_url = 'example.com/café' WHERE id = $1`, [internalId(pages.accented)]);
    await new CanonicalUrlsInAscii1765152000000().up(db.createQueryRunner());
    const stored = await db.query(`SELECT id::text, canonical_url FROM target_pages WHERE workspace_id = $1 ORDER BY id`, [
      internalId(ws.workspace_id),
    ]);
    expect(stored).toEqual([
      { id: internalId(pages.accented), canonical_url: 'example.com/caf%C3%A9' },
      { id: internalId(pages.plain), canonical_url: 'example.com/plain' },
    ]);
  });
});
