import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * The one place where the service reads a library's internals. Each entry names the version it
 * was checked against; `test/e2e/library-internals.e2e-spec.ts` fails when an upgrade changes
 * what it reads, so an upgrade cannot break it silently. docs/architecture.md lists them.
 */

/** Checked against typeorm 1.1.1 (`PostgresDriver.master`). */
export const TYPEORM_POOL_CHECKED_AGAINST = 'typeorm 1.1.1';

/**
 * The pg Pool behind TypeORM's PostgreSQL driver, for the pool gauges of `/metrics` (total, idle,
 * waiting connections): TypeORM offers no public way to read them. Undefined before the data
 * source is initialised or for another driver.
 */
export function postgresPoolOf(dataSource: DataSource): Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'> | undefined {
  if (!dataSource.isInitialized) return undefined;
  const master: unknown = (dataSource.driver as unknown as { master?: unknown }).master;
  return master !== null && typeof master === 'object' && 'totalCount' in master ? (master as Pool) : undefined;
}
