import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { poolOf } from '../../src/database/pg-pool';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe("the DataSource's pg pool (TypeORM's driver option)", () => {
  it('is unknown before the data source is initialised', () => {
    expect(poolOf(new DataSource(dataSourceOptions(ADMIN_URL)))).toBeUndefined();
  });

  it("is the pool the data source's queries run on, with its connection counts", async () => {
    const db = await new DataSource(dataSourceOptions(ADMIN_URL)).initialize();
    const other = await new DataSource(dataSourceOptions(ADMIN_URL)).initialize();
    try {
      const pool = poolOf(db);
      expect(pool).toBeInstanceOf(Pool);
      expect(poolOf(other)).not.toBe(pool);
      const runner = db.createQueryRunner();
      try {
        await runner.connect();
        // The query runner's connection is one of this pool's, and only this one's.
        expect(pool!.totalCount - pool!.idleCount).toBe(1);
        expect(poolOf(other)!.totalCount - poolOf(other)!.idleCount).toBe(0);
        expect(pool!.waitingCount).toBe(0);
      } finally {
        await runner.release();
      }
      expect(pool!.idleCount).toBe(pool!.totalCount);
      const { rows } = await pool!.query<{ one: number }>('SELECT 1 AS one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
      await other.destroy();
    }
  });
});
