import { ANY_ERROR_STATUS, AnyErrorCode, ErrorCode } from '../domain/errors';

/**
 * The one error type that services throw on purpose. The exception filter renders it into the
 * public envelope; anything else becomes a 500 `internal_error` with no details.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: AnyErrorCode,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ANY_ERROR_STATUS[code];
  }

  static validation(param: string, message: string): AppError {
    return new AppError(ErrorCode.validation, message, param);
  }

  static invalidParameter(param: string, message: string): AppError {
    return new AppError(ErrorCode.invalidParameter, message, param);
  }

  static invalidCursor(): AppError {
    return new AppError(ErrorCode.invalidCursor, 'The cursor is malformed, was altered, or belongs to a different request.', 'cursor');
  }

  static notFound(what = 'record'): AppError {
    return new AppError(ErrorCode.notFound, `No such ${what}.`);
  }

  /** `503 service_unavailable`, with how long to wait before retrying. */
  static serviceUnavailable(message: string, retryAfterSeconds: number): AppError {
    return new AppError(ErrorCode.serviceUnavailable, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }

  /** A console route without a valid session (docs/console.md). */
  static noConsoleSession(): AppError {
    return new AppError(ErrorCode.authentication, 'No valid console session. Sign in with POST /console/api/session.');
  }

  /** `401` for the API: the message says how to send a key, `WWW-Authenticate` which scheme (RFC 6750). */
  static unauthenticated(): AppError {
    return new AppError(
      ErrorCode.authentication,
      'Invalid or missing API key. Send it as "Authorization: Bearer <API_KEY>"; the documentation is at /docs.',
      undefined,
      { 'WWW-Authenticate': 'Bearer' },
    );
  }
}
