import { DataSource } from 'typeorm';
import { ActivityUpdatesInPlace1764115200000 } from '../../src/database/migrations/1764115200000-activity-updates-in-place';
import { startTestApp, TestApp } from '../support/test-app';

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
    const runner = db.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await indexes(db)).toEqual(['activities_external_id', 'activities_pkey', 'activities_unfinished']);
      // What the migration's comment tells an operator of a large table to run first.
      await runner.query(`CREATE INDEX CONCURRENTLY activities_queued ON activities (created_at) WHERE status = 'queued'`);
      await migration.up(runner);
      expect(await indexes(db)).toEqual(['activities_external_id', 'activities_pkey', 'activities_queued']);
      const [{ options }] = await runner.query(`SELECT reloptions AS options FROM pg_class WHERE oid = 'activities'::regclass`);
      expect(options).toEqual(['fillfactor=50']);
    } finally {
      await runner.release();
    }
  });
});
