import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { poolOf } from '../../src/database/pg-pool';
import { transactionCommittingBehind } from '../../src/shared/infrastructure/commit-behind';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Reads `sql` on a connection of its own, in a psql process, while this process's event loop waits. */
function readBlocking(sql: string): string {
  return execFileSync('psql', [ADMIN_URL, '-Atc', sql], { encoding: 'utf8' }).trim();
}

describe('a transaction whose last statement goes out with its COMMIT (transactionCommittingBehind)', () => {
  const timeouts = { connectTimeoutMs: 5_000, queryTimeoutMs: 1_000, workerQueryTimeoutMs: 1_000 };
  let db: DataSource;
  let table: string;

  beforeEach(async () => {
    db = await new DataSource(dataSourceOptions(ADMIN_URL, timeouts)).initialize();
    table = `commit_behind_${randomBytes(4).toString('hex')}`;
    await db.query(`CREATE TABLE ${table} (id int PRIMARY KEY, v int NOT NULL)`);
    await db.query(`INSERT INTO ${table} VALUES (1, 0)`);
  });
  afterEach(async () => {
    await db.query(`DROP TABLE ${table}`);
    await db.destroy();
  });

  const values = async () =>
    (await db.query<Array<{ id: number; v: number }>>(`SELECT id, v FROM ${table} ORDER BY id`)).map(({ id, v }) => [id, v]);
  /** Every connection of the pool is back and idle: no transaction was left open on one. */
  const expectPoolIdle = () => expect(poolOf(db)!.idleCount).toBe(poolOf(db)!.totalCount);

  it("commits the work and the last statement together and answers the work's result", async () => {
    const result = await transactionCommittingBehind(db, async (manager) => {
      await manager.query(`INSERT INTO ${table} VALUES (2, 20)`);
      return { result: 'done', last: { sql: `UPDATE ${table} SET v = $1 WHERE id = 1`, params: [10] } };
    });
    expect(result).toBe('done');
    expect(await values()).toEqual([
      [1, 10],
      [2, 20],
    ]);
    expectPoolIdle();
  });

  it('commits without a last statement', async () => {
    await transactionCommittingBehind(db, async (manager) => {
      await manager.query(`INSERT INTO ${table} VALUES (2, 20)`);
      return { result: null, last: null };
    });
    expect(await values()).toEqual([
      [1, 0],
      [2, 20],
    ]);
  });

  it('commits in PostgreSQL before this process has read the statement’s answer', async () => {
    let seen = '';
    await transactionCommittingBehind(db, () => {
      // Runs after the statement and its COMMIT were sent and before their answers are read: the
      // event loop is held here, as a worker's is by other jobs. Another connection sees the
      // change while it is held, so the transaction's locks did not wait for this process.
      setImmediate(() => {
        const deadline = Date.now() + 5_000;
        while (seen !== '7' && Date.now() < deadline) seen = readBlocking(`SELECT v FROM ${table} WHERE id = 1`);
      });
      return Promise.resolve({ result: null, last: { sql: `UPDATE ${table} SET v = $1 WHERE id = 1`, params: [7] } });
    });
    expect(seen).toBe('7');
  });

  it('writes nothing when the last statement fails, throws its error, and leaves the connection usable', async () => {
    const error = await transactionCommittingBehind(db, async (manager) => {
      await manager.query(`INSERT INTO ${table} VALUES (2, 20)`);
      // The primary key refuses it.
      return { result: null, last: { sql: `INSERT INTO ${table} VALUES ($1, 0)`, params: [1] } };
    }).catch((failure: Error & { code?: string }) => failure);
    expect((error as { code?: string }).code).toBe('23505');
    expect(await values()).toEqual([[1, 0]]);
    expectPoolIdle();
    // The pool's connections work as before: the next transaction commits.
    await transactionCommittingBehind(db, () =>
      Promise.resolve({ result: null, last: { sql: `UPDATE ${table} SET v = $1`, params: [3] } }),
    );
    expect(await values()).toEqual([[1, 3]]);
  });

  it('rolls back when the work fails, before any last statement', async () => {
    const error = await transactionCommittingBehind(db, async (manager) => {
      await manager.query(`INSERT INTO ${table} VALUES (2, 20)`);
      throw new Error('the work failed');
    }).catch((failure: Error) => failure);
    expect(error).toEqual(new Error('the work failed'));
    expect(await values()).toEqual([[1, 0]]);
    expectPoolIdle();
  });

  it('fails within the query timeout when the last statement gets no answer; the connection is not used again and the transaction is whole or absent', async () => {
    let pid = 0;
    const started = Date.now();
    const error = await transactionCommittingBehind(db, async (manager) => {
      [{ pid }] = await manager.query<Array<{ pid: number }>>('SELECT pg_backend_pid() AS pid');
      await manager.query(`INSERT INTO ${table} VALUES (2, 20)`);
      await manager.query('SET LOCAL statement_timeout = 0');
      return { result: null, last: { sql: `UPDATE ${table} SET v = 1 WHERE id = 1 AND pg_sleep($1) IS NOT NULL`, params: [3] } };
    }).catch((failure: Error) => failure);
    expect(error?.message).toMatch(/Query read timeout/);
    expect(Date.now() - started).toBeLessThan(2_500);
    const [{ next }] = await db.query<Array<{ next: number }>>('SELECT pg_backend_pid() AS next');
    expect(next).not.toBe(pid);
    // The COMMIT was sent before the client gave up, so the server may still commit once the
    // statement ends (the caller's retry must find the work done, as Match's does), or it rolls
    // back on finding the connection gone: either the whole transaction or none of it.
    await waitFor(async () => (await db.query<unknown[]>('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).length === 0);
    expect([
      [[1, 0]],
      [
        [1, 1],
        [2, 20],
      ],
    ]).toContainEqual(await values());
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
