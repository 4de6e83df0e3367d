import { DataSourceOptions } from 'typeorm';
import { entities } from './entities';
import { migrations } from './migrations';
import { poolRecordingPg } from './pg-pool';
import { PG_TYPES } from './pg-types';

/** The one DataSource configuration: the app, the CLI, the tests and ormconfig.ts all use it. */
export function dataSourceOptions(databaseUrl: string): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities,
    migrations,
    // The schema only ever changes through migrations.
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // pg, recording the pool TypeORM makes with it (see poolOf).
    driver: poolRecordingPg(),
    extra: { max: 20, connectionTimeoutMillis: 5_000, statement_timeout: 15_000, types: PG_TYPES },
  };
}
