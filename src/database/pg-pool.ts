import pg, { Pool, PoolConfig } from 'pg';
import type { DataSource } from 'typeorm';

/** The pool each `pg` module handed to TypeORM made first (its only one without replication). */
const pools = new WeakMap<object, Pool>();
/** The `pg` modules whose DataSource runs no named prepared statements (see `namedStatementsOn`). */
const unnamed = new WeakSet<object>();

/**
 * The `pg` module for TypeORM's documented `driver` option: pg itself, whose `Pool` also records
 * the pool TypeORM makes with it. So the service reaches the pool its DataSource queries on — for
 * statements that need a pg client of their own (named prepared statements) and for the pool
 * gauges of `/metrics` — without reading TypeORM's internals.
 */
export function poolRecordingPg({ preparedStatements = true }: { preparedStatements?: boolean } = {}): typeof pg {
  const driver = Object.create(pg) as typeof pg;
  if (!preparedStatements) unnamed.add(driver);
  class RecordedPool extends pg.Pool {
    constructor(config?: PoolConfig) {
      super(config);
      if (!pools.has(driver)) pools.set(driver, this);
    }
  }
  driver.Pool = RecordedPool;
  return driver;
}

/** The pool `dataSource` queries on (undefined before it is initialised). */
export function poolOf(dataSource: DataSource): Pool | undefined {
  const driver = (dataSource.options as { driver?: object }).driver;
  return dataSource.isInitialized && driver ? pools.get(driver) : undefined;
}

/**
 * Whether statements on `dataSource`'s connections may be named prepared statements
 * (`DATABASE_PREPARED_STATEMENTS`); unknown DataSources may.
 */
export function namedStatementsOn(dataSource: DataSource): boolean {
  const driver = (dataSource.options as { driver?: object }).driver;
  return !driver || !unnamed.has(driver);
}
