import { formatId, ID_PREFIXES, parseId } from '../domain/ids';

export type KeyScope = 'read' | 'write';

/** Who made a change: an API key, or a console user acting through the exported services. */
export interface Actor {
  type: 'api_key' | 'console' | 'pipeline';
  id: string;
}

/**
 * The authenticated workspace. Every service and repository method takes one as its first
 * argument; only the auth layer (for HTTP) or a trusted caller such as the console backend can
 * make one, and repositories refuse to run without it.
 */
export class WorkspaceContext {
  private constructor(
    /** Internal numeric id (decimal string), never the public `wor_` form. */
    readonly workspaceId: string,
    readonly actor: Actor,
    readonly scope: KeyScope,
  ) {}

  get publicWorkspaceId(): string {
    return formatId(ID_PREFIXES.workspace, this.workspaceId);
  }

  static forApiKey(workspaceId: string, keyId: string, scope: KeyScope): WorkspaceContext {
    return new WorkspaceContext(workspaceId, { type: 'api_key', id: formatId(ID_PREFIXES.apiKey, keyId) }, scope);
  }

  static forPipeline(workspaceId: string): WorkspaceContext {
    if (typeof workspaceId !== 'string' || !/^[0-9]{1,19}$/.test(workspaceId)) throw new Error('A workspace id is required');
    return new WorkspaceContext(workspaceId, { type: 'pipeline', id: 'pipeline' }, 'write');
  }

  /** For the console backend: `workspaceId` is the public `wor_…` id, `userId` the console user. */
  static forConsole(workspaceId: string, userId: string): WorkspaceContext {
    const parsed = parseId(ID_PREFIXES.workspace, workspaceId);
    if (parsed.kind !== 'ok') throw new Error(`Not a workspace id: ${String(workspaceId)}`);
    if (typeof userId !== 'string' || userId.trim() === '') throw new Error('A console user id is required');
    return new WorkspaceContext(parsed.value, { type: 'console', id: userId }, 'write');
  }
}

/** Fails closed: nothing reads or writes tenant data without a workspace. */
export function requireWorkspace(ctx: WorkspaceContext | undefined | null): string {
  if (!(ctx instanceof WorkspaceContext) || !/^[0-9]+$/.test(ctx.workspaceId)) {
    throw new Error('A workspace context is required for tenant data');
  }
  return ctx.workspaceId;
}
