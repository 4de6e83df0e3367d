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
