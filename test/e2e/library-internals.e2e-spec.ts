/**
 * What the service reads of libraries' internals (src/database/library-internals.ts) still is
 * what it expects. A failure here after an upgrade means that place must be rewritten for the new
 * version, not that the test is wrong.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { postgresPoolOf, TYPEORM_POOL_CHECKED_AGAINST } from '../../src/database/library-internals';

const typeormVersion = (JSON.parse(readFileSync(join(dirname(require.resolve('typeorm')), 'package.json'), 'utf8')) as { version: string })
  .version;
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe(`TypeORM's pg Pool (checked against ${TYPEORM_POOL_CHECKED_AGAINST})`, () => {
  it('is undefined before the data source is initialised', () => {
    expect(postgresPoolOf(new DataSource(dataSourceOptions(ADMIN_URL)))).toBeUndefined();
  });

  it("is the pg Pool the data source's queries run on, with its connection counts", async () => {
    const db = await new DataSource(dataSourceOptions(ADMIN_URL)).initialize();
    try {
      const pool = postgresPoolOf(db);
      if (!(pool instanceof Pool)) {
        throw new Error(`TypeORM ${typeormVersion} no longer keeps its pg Pool where ${TYPEORM_POOL_CHECKED_AGAINST} did`);
      }
      const runner = db.createQueryRunner();
      try {
        await runner.connect();
        expect(pool.totalCount).toBeGreaterThanOrEqual(1);
        expect(pool.totalCount - pool.idleCount).toBeGreaterThanOrEqual(1);
        expect(pool.waitingCount).toBe(0);
      } finally {
        await runner.release();
      }
      expect(pool.idleCount).toBe(pool.totalCount);
    } finally {
      await db.destroy();
    }
  });
});
