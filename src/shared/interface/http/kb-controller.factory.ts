import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Type } from '@nestjs/common';
import { KbListQuery, KbService, KbRecordView } from '../../application/kb.service';
import { Page } from '../../application/pagination';
import { KbResource } from '../../application/kb-resource';
import { WorkspaceContext } from '../../application/workspace-context';
import { KbRecordEntity } from '../../infrastructure/kb-record.entity';
import { kbListQueryPipe } from './list-query.pipe';
import { CurrentWorkspace } from './workspace.interceptor';

/** The controller of a knowledge-base resource: routes from its declaration, one service call each. */
export interface KbControllerInstance {
  list(ctx: WorkspaceContext, query: KbListQuery): Promise<Page<KbRecordView>>;
  get(ctx: WorkspaceContext, id: string): Promise<KbRecordView>;
  create(ctx: WorkspaceContext, body: unknown): Promise<KbRecordView>;
  update(ctx: WorkspaceContext, id: string, body: unknown): Promise<KbRecordView>;
  remove(ctx: WorkspaceContext, id: string): Promise<void>;
}

/**
 * Builds the controller class for a resource. The body is passed on untyped on purpose: the
 * service validates it against the resource's DTO class, so the console backend calling the
 * service directly gets exactly the same validation.
 */
export function KbController<E extends KbRecordEntity>(
  resource: KbResource<E>,
  serviceClass: Type<KbService<E>>,
): Type<KbControllerInstance> {
  const byId = `:${resource.idParam}`;

  @Controller(`v1/kb/${resource.path}`)
  class GeneratedKbController implements KbControllerInstance {
    constructor(@Inject(serviceClass) private readonly service: KbService<E>) {}

    @Get()
    list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(kbListQueryPipe) query: KbListQuery) {
      return this.service.list(ctx, query);
    }

    @Get(byId)
    get(@CurrentWorkspace() ctx: WorkspaceContext, @Param(resource.idParam) id: string) {
      return this.service.get(ctx, id);
    }

    @Post()
    @HttpCode(201)
    create(@CurrentWorkspace() ctx: WorkspaceContext, @Body() body: unknown) {
      return this.service.create(ctx, body);
    }

    @Patch(byId)
    update(@CurrentWorkspace() ctx: WorkspaceContext, @Param(resource.idParam) id: string, @Body() body: unknown) {
      return this.service.update(ctx, id, body);
    }

    @Delete(byId)
    @HttpCode(204)
    remove(@CurrentWorkspace() ctx: WorkspaceContext, @Param(resource.idParam) id: string) {
      return this.service.remove(ctx, id);
    }
  }
  Object.defineProperty(GeneratedKbController, 'name', { value: `${resource.name.replace(/\s+/g, '')}Controller` });
  return GeneratedKbController;
}
