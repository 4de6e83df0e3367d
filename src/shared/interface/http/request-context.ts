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

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
