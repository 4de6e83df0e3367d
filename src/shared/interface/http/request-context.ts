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

/** What the request pipeline attaches to an Express request. */
export interface RequestState {
  requestId: string;
  auth?: AuthenticatedKey;
  workspace?: WorkspaceContext;
  /** A body that could not be parsed; raised only once the route is known and the key checked. */
  bodyError?: { status: number; type?: string };
}

export type AppRequest = Request & { state: RequestState };

/** Routes outside the versioned API that answer without a key. */
export const PUBLIC_PATHS = ['/health/live', '/health/ready', '/metrics', '/docs', '/openapi.json'];

const PUBLIC_PREFIXES = PUBLIC_PATHS.map((path) => `${path}/`);

/** Whether `path` (no query string) is a public path or lies under one; `/` itself (a pointer to the docs) is too. */
export function isPublicPath(path: string): boolean {
  if (path === '/') return true;
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
