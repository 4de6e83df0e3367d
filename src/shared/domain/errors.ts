/** The error codes of the public API (DESIGN §1). */
export const ErrorCode = {
  validation: 'validation_error',
  invalidParameter: 'invalid_parameter',
  invalidCursor: 'invalid_cursor',
  authentication: 'authentication_error',
  permissionDenied: 'permission_denied',
  notFound: 'not_found',
  // A known path asked with a method it does not answer (with `Allow`).
  methodNotAllowed: 'method_not_allowed',
  conflict: 'conflict',
  payloadTooLarge: 'payload_too_large',
  rateLimitExceeded: 'rate_limit_exceeded',
  serviceUnavailable: 'service_unavailable',
  internal: 'internal_error',
  // DESIGN §7: an Idempotency-Key reused for another request, or while its first request runs.
  idempotencyKeyMismatch: 'idempotency_key_mismatch',
  idempotencyKeyInUse: 'idempotency_key_in_use',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ERROR_STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  invalid_parameter: 400,
  invalid_cursor: 400,
  authentication_error: 401,
  permission_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  service_unavailable: 503,
  internal_error: 500,
  idempotency_key_mismatch: 400,
  idempotency_key_in_use: 409,
};

/**
 * Codes only the console API answers (docs/console.md). Kept apart from ErrorCode, which is the
 * public API's list and its OpenAPI document's.
 */
export const ConsoleErrorCode = {
  // A console write without its session's `X-CSRF-Token`.
  csrfFailed: 'csrf_failed',
} as const;

export type ConsoleErrorCode = (typeof ConsoleErrorCode)[keyof typeof ConsoleErrorCode];

/** Every code the service answers with, public or console-only. */
export type AnyErrorCode = ErrorCode | ConsoleErrorCode;

export const ANY_ERROR_STATUS: Record<AnyErrorCode, number> = { ...ERROR_STATUS, csrf_failed: 403 };
