/** PostgreSQL error codes the service reacts to. */
export const PG_UNIQUE_VIOLATION = '23505';

/** True for a unique violation, optionally only of constraints whose name ends with `suffix`. */
export function isUniqueViolation(error: unknown, suffix?: string): boolean {
  const driverError = (error as { driverError?: unknown })?.driverError ?? error;
  const { code, constraint } = (driverError ?? {}) as { code?: string; constraint?: string };
  return code === PG_UNIQUE_VIOLATION && (suffix === undefined || (constraint ?? '').endsWith(suffix));
}

/** Suffix of the partial unique index on `(workspace_id, short_name) WHERE deleted_at IS NULL`. */
export const SHORT_NAME_INDEX_SUFFIX = '_short_name_active';
