import type { PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { namedStatementsOn } from '../../database/pg-pool';
import { queryOnTransaction, statementConfig } from './prepared-query';

/** A parameterised statement, run as `preparedQuery` runs it. */
export interface Statement {
  sql: string;
  params: readonly unknown[];
}

/**
 * Runs `work` in a transaction on one connection, like `DataSource.transaction`, except for its
 * last statement: `work` returns it instead of running it, and it is sent with the `COMMIT` right
 * behind it, on a connection in pg's pipeline mode (`pipeline: true`, see `dataSourceOptions`). So
 * PostgreSQL commits the moment the statement ends, without a round trip to this process in
 * between — which, in a worker whose event loop is busy with other jobs, can take milliseconds.
 * Row locks the statement takes (the workspace's event counter, ADR 0043) are held only while it
 * runs and commits.
 *
 * If the statement fails, PostgreSQL answers the `COMMIT` of the failed transaction by rolling it
 * back, and the statement's error is thrown: nothing of the transaction is written.
 */
export async function transactionCommittingBehind<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<{ result: T; last: Statement | null }>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    const { result, last } = await work(runner.manager);
    if (!last) {
      await runner.commitTransaction();
      return result;
    }
    const client = (await runner.connect()) as PoolClient;
    // Both are queued on the client in this order before either answer is read.
    const written = queryOnTransaction(client, statementConfig(last.sql, last.params, namedStatementsOn(dataSource)));
    const committed = runner.commitTransaction();
    const [write, commit] = await Promise.allSettled([written, committed]);
    if (write.status === 'rejected') throw write.reason;
    if (commit.status === 'rejected') throw commit.reason;
    return result;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}
