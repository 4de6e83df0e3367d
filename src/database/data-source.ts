import { DataSourceOptions } from 'typeorm';
import { DATABASE_TIMEOUT_DEFAULTS, DatabaseTimeouts } from '../config/config';
import { entities } from './entities';
import { migrations } from './migrations';
import { poolRecordingPg } from './pg-pool';
import { PG_TYPES } from './pg-types';
import { DiscardTimedOutConnections } from './timed-out-connections';
import { DatabaseWorkload, pgTimeouts } from './timeouts';

/** Connections per pool: the primary's, and each replica's in the API process. */
export const POOL_SIZE = 20;

/**
 * The one DataSource configuration: the app, the CLI, the tests and ormconfig.ts all use it.
 * `preparedStatements: false` (`DATABASE_PREPARED_STATEMENTS`) keeps `preparedQuery` from naming
 * its statements, for a pooler in transaction mode.
 */
export function dataSourceOptions(
  databaseUrl: string,
  timeouts: DatabaseTimeouts = DATABASE_TIMEOUT_DEFAULTS,
  workload: DatabaseWorkload = 'api',
  { preparedStatements = true }: { preparedStatements?: boolean } = {},
): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities,
    migrations,
    subscribers: [DiscardTimedOutConnections],
    // The schema only ever changes through migrations.
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // pg, recording the pool TypeORM makes with it (see poolOf).
    driver: poolRecordingPg({ preparedStatements }),
    // Pipeline mode (pg's documented opt-in) lets a transaction's last statement and its COMMIT
    // go out together (`transactionCommittingBehind`); statements awaited one by one run as before.
    extra: { max: POOL_SIZE, ...pgTimeouts(timeouts, workload), types: PG_TYPES, pipeline: true },
  };
}
