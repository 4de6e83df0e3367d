import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { AppError } from '../../shared/application/app-error';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { CurrentWorkspace } from '../../shared/interface/http/auth.guard';
import { KeySummary, WorkspacesService } from '../workspaces/workspaces.service';

/** A key as the console shows it: never its secret. */
function keyView(key: KeySummary) {
  return { id: key.key_id, scope: key.scope, created_at: key.created_at, last_used_at: key.last_used_at, revoked_at: key.revoked_at };
}

function scopeOf(body: unknown): 'read' | 'write' {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw AppError.validation('body', 'The request body must be a JSON object.');
  }
  const scope = (body as Record<string, unknown>).scope;
  if (scope === undefined || scope === null) throw AppError.validation('scope', 'scope is required.');
  if (scope !== 'read' && scope !== 'write') throw AppError.validation('scope', 'scope must be one of read, write.');
  return scope;
}

/**
 * The workspace's API keys, for the console only (the public API has no such route): list,
 * create (the secret shown once) and revoke, through WorkspacesService like the CLI's `key`
 * commands, so a revocation is announced to every API process at once (ADR 0002).
 */
@Controller('console/api/api-keys')
export class ConsoleApiKeysController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get()
  async list(@CurrentWorkspace() ctx: WorkspaceContext) {
    return { data: (await this.workspaces.listKeys(ctx.publicWorkspaceId)).map(keyView) };
  }

  @Post()
  @HttpCode(201)
  async create(@CurrentWorkspace() ctx: WorkspaceContext, @Body() body: unknown) {
    const created = await this.workspaces.createKey(ctx.publicWorkspaceId, scopeOf(body));
    const key = await this.keyOf(ctx, created.key_id);
    return { ...keyView(key), secret: created.api_key };
  }

  /** Another workspace's key is not found, like an unknown one. */
  @Delete(':key_id')
  @HttpCode(200)
  async revoke(@CurrentWorkspace() ctx: WorkspaceContext, @Param('key_id') keyId: string) {
    await this.keyOf(ctx, keyId);
    await this.workspaces.revokeKey(keyId);
    return keyView(await this.keyOf(ctx, keyId));
  }

  private async keyOf(ctx: WorkspaceContext, keyId: string): Promise<KeySummary> {
    const key = (await this.workspaces.listKeys(ctx.publicWorkspaceId)).find((candidate) => candidate.key_id === keyId);
    if (!key) throw AppError.notFound('API key');
    return key;
  }
}
