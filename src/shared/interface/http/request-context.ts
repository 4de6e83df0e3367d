import type { Request } from 'express';
import type { KeyScope, WorkspaceContext } from '../../application/workspace-context';

export interface AuthenticatedKey {
  keyId: string;
  workspaceId: string;
  scope: KeyScope;
}

/** Looks a presented key up; implemented by the workspaces module, used by the auth middleware. */
export interface ApiKeyAuthenticator {
  authenticate(key: string): Promise<AuthenticatedKey | null>;
}

export const API_KEY_AUTHENTICATOR = Symbol('API_KEY_AUTHENTICATOR');

/** A console user's session, found by its cookie (docs/console.md). */
export interface ConsoleSession {
  /** `usr_…` */
  userId: string;
  email: string;
  /** Internal numeric id, as AuthenticatedKey's. */
  workspaceId: string;
  workspaceName: string;
  /** This session's CSRF token, which every console write must send as `X-CSRF-Token`. */
  csrfToken: string;
  /** When the session ends unless used again (idle) or at the latest (absolute), whichever is first. */
  expiresAt: Date;
  /** The SHA-256 of the session's token, by which sign-out deletes it. */
  tokenHash: Buffer;
}

/** Finds the session a request's `Cookie` header names; implemented by the console module. */
export interface ConsoleSessionAuthenticator {
  authenticate(cookieHeader: string | undefined): Promise<ConsoleSession | null>;
}

export const CONSOLE_SESSION_AUTHENTICATOR = Symbol('CONSOLE_SESSION_AUTHENTICATOR');

/** Which of the two HTTP surfaces an application serves: the public API, the console, or both. */
export interface HttpSurfaces {
  api: boolean;
  console: boolean;
}

export const HTTP_SURFACES = Symbol('HTTP_SURFACES');

/** The console's pages and its API (`/console/api/…`, session cookie, never an API key). */
export const CONSOLE_PATH = '/console';
export const CONSOLE_API_PATH = '/console/api';

/** Whether `path` is the console's: `/console` or under it. */
export const isConsolePath = (path: string): boolean => path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);

/** Whether `path` is the console's API: `/console/api` or under it. */
export const isConsoleApiPath = (path: string): boolean => path === CONSOLE_API_PATH || path.startsWith(`${CONSOLE_API_PATH}/`);

/**
 * The paths of a controller serving both surfaces with one implementation (ADR 0058): its public
 * API path and its console path, e.g. `apiAndConsole('v1/buyers', 'buyers')`.
 */
export function apiAndConsole(apiPath: string, consolePath: string): string[] {
  return [apiPath, `${CONSOLE_API_PATH.slice(1)}/${consolePath}`.replace(/\/$/, '')];
}

/** What the request pipeline attaches to an Express request. */
export interface RequestState {
  requestId: string;
  /** Set on `/console/api/…` requests: they authenticate by session cookie, never by key. */
  surface?: 'api' | 'console';
  auth?: AuthenticatedKey;
  console?: ConsoleSession;
  workspace?: WorkspaceContext;
  /** A body that could not be parsed; raised only once the route is known and the key checked. */
  bodyError?: { status: number; type?: string };
}

export type AppRequest = Request & { state: RequestState };

/** Routes outside the versioned API that answer without a key. */
export const PUBLIC_PATHS = ['/health/live', '/health/ready', '/metrics', '/docs', '/openapi.json'];

const PUBLIC_PREFIXES = PUBLIC_PATHS.map((path) => `${path}/`);

/** Whether `path` (no query string) is a public path or lies under one. */
export function isPublicPath(path: string): boolean {
  for (let i = 0; i < PUBLIC_PATHS.length; i++) {
    if (path === PUBLIC_PATHS[i] || path.startsWith(PUBLIC_PREFIXES[i])) return true;
  }
  return false;
}

/** The path of a request URL: what comes before its query string. */
export function pathOfUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
