import { toQuery, type QueryValue } from './lib/query';

/**
 * The console's fetch wrapper: JSON to and from `/console/api`, the session cookie
 * (`credentials: 'same-origin'`), the CSRF token on every write, and every error answer as a typed
 * `ApiError` carrying the envelope's `code`, `message` and `param`.
 */

export const API_BASE = '/console/api';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly requestId?: string,
    /** Seconds to wait, from `Retry-After` on a `429`. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: string | null = null;
let onUnauthenticated: (() => void) | null = null;

/** The session's CSRF token (from the sign-in or session answer), kept in memory only. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when a request answers `401`: the session ended. */
export function setUnauthenticatedHandler(handler: (() => void) | null): void {
  onUnauthenticated = handler;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  signal?: AbortSignal;
  /** Leave a `401` to the caller (signing in, reading the session). */
  quiet401?: boolean;
}

interface Envelope {
  error?: { code?: string; message?: string; param?: string; request_id?: string };
}

export async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}${toQuery(options.query ?? {})}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'network_error', 'The service could not be reached. Check the connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (response.ok) return body as T;
  const error = (body as Envelope | undefined)?.error;
  const retry = Number(response.headers.get('Retry-After'));
  const apiError = new ApiError(
    response.status,
    error?.code ?? `http_${response.status}`,
    error?.message ?? `The service answered ${response.status}.`,
    error?.param,
    error?.request_id,
    Number.isFinite(retry) && retry > 0 ? retry : undefined,
  );
  if (response.status === 401 && !options.quiet401) onUnauthenticated?.();
  throw apiError;
}

export const api = {
  get: <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  delete: <T = void>(path: string) => request<T>('DELETE', path),
};

/** An id or name placed in a path, escaped. */
export const seg = (value: string): string => encodeURIComponent(value);

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A message for any thrown value. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
