import { DataSourceOptions } from 'typeorm';
import { DATABASE_TIMEOUT_DEFAULTS, DatabaseTimeouts } from '../config/config';
import { entities } from './entities';
import { migrations } from './migrations';
import { poolRecordingPg } from './pg-pool';
import { PG_TYPES } from './pg-types';
import { DiscardTimedOutConnections } from './timed-out-connections';
import { DatabaseWorkload, pgTimeouts } from './timeouts';

/** The one DataSource configuration: the app, the CLI, the tests and ormconfig.ts all use it. */
export function dataSourceOptions(
  databaseUrl: string,
  timeouts: DatabaseTimeouts = DATABASE_TIMEOUT_DEFAULTS,
  workload: DatabaseWorkload = 'api',
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
    driver: poolRecordingPg(),
    extra: { max: 20, ...pgTimeouts(timeouts, workload), types: PG_TYPES },
  };
}
