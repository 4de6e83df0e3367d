import { Pool } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { poolOf } from '../../src/database/pg-pool';
import { preparedQuery } from '../../src/shared/infrastructure/prepared-query';

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

  describe('preparedQuery and DATABASE_PREPARED_STATEMENTS', () => {
    /** The statements `preparedQuery` left prepared in the session of a transaction that ran `text` there. */
    async function preparedIn(db: DataSource, text: string): Promise<string[]> {
      return db.transaction(async (manager) => {
        const { rows } = await preparedQuery<{ answer: number }>(manager, text, [41]);
        expect(rows).toEqual([{ answer: 42 }]);
        const prepared = await manager.query<Array<{ statement: string }>>('SELECT statement FROM pg_prepared_statements');
        return prepared.map((row) => row.statement);
      });
    }

    it('prepares a named statement per connection by default, and none when switched off', async () => {
      const text = `SELECT $1::int + 1 AS answer -- ${Date.now()}`;
      const named = await new DataSource(dataSourceOptions(ADMIN_URL)).initialize();
      const unnamed = await new DataSource(dataSourceOptions(ADMIN_URL, undefined, 'api', { preparedStatements: false })).initialize();
      try {
        expect(await preparedIn(named, text)).toEqual([text]);
        // Still parameterised, but nothing outlives the statement on the server connection: a
        // pooler in transaction mode may hand the next statement another one.
        expect(await preparedIn(unnamed, text)).toEqual([]);
        expect((await preparedQuery<{ answer: number }>(unnamed.manager, text, [1])).rows).toEqual([{ answer: 2 }]);
      } finally {
        await named.destroy();
        await unnamed.destroy();
      }
    });
  });

  describe('a statement the server does not answer within the query timeout', () => {
    // The client gives up after 1 s. The statements sleep with the server's statement timeout
    // lifted, so only the client's bound can end them (as when the server is frozen).
    const timeouts = { connectTimeoutMs: 5_000, queryTimeoutMs: 1_000, workerQueryTimeoutMs: 1_000 };
    let db: DataSource;
    beforeEach(async () => {
      db = await new DataSource(dataSourceOptions(ADMIN_URL, timeouts)).initialize();
    });
    afterEach(async () => {
      await db.destroy();
    });

    /** Sleeps in a transaction on one connection; answers its pid and how the transaction ended. */
    async function sleepInTransaction(sleep: (manager: EntityManager) => Promise<unknown>) {
      let pid = 0;
      const started = Date.now();
      const error = await db
        .transaction(async (manager) => {
          [{ pid }] = await manager.query<Array<{ pid: number }>>('SELECT pg_backend_pid() AS pid');
          await manager.query('SET LOCAL statement_timeout = 0');
          await sleep(manager);
        })
        .then(
          () => null,
          (failure: unknown) => failure as Error,
        );
      return { pid, error, ms: Date.now() - started };
    }

    /** The next statement on the pool answers at once, on another connection than `pid`. */
    async function expectFreshConnection(pid: number) {
      const started = Date.now();
      const [{ next }] = await db.query<Array<{ next: number }>>('SELECT pg_backend_pid() AS next');
      expect(Date.now() - started).toBeLessThan(500);
      expect(next).not.toBe(pid);
    }

    it('fails its transaction within the bound, and the connection is not handed out again', async () => {
      const { pid, error, ms } = await sleepInTransaction((manager) => manager.query('SELECT pg_sleep(3)'));
      expect(error?.message).toMatch(/Query read timeout/);
      // The ROLLBACK did not wait behind the unanswered statement for another full timeout.
      expect(ms).toBeLessThan(1_800);
      await expectFreshConnection(pid);
    });

    it("does the same for a prepared statement on the transaction's connection", async () => {
      const { pid, error, ms } = await sleepInTransaction((manager) => preparedQuery(manager, 'SELECT pg_sleep($1)', [3]));
      expect(error?.message).toMatch(/Query read timeout/);
      expect(ms).toBeLessThan(1_800);
      await expectFreshConnection(pid);
    });
  });
});
