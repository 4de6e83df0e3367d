import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Type } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { KbListQuery, KbService, KbRecordView } from '../../application/kb.service';
import { Page } from '../../application/pagination';
import { KbResource } from '../../application/kb-resource';
import { WorkspaceContext } from '../../application/workspace-context';
import { KbRecordEntity } from '../../infrastructure/kb-record.entity';
import { kbListQueryPipe } from './list-query.pipe';
import { ApiErrors, ApiIdParam, ApiKeyAuth, CURSOR_QUERY, kbSchemas, LIMIT_QUERY } from './openapi.decorators';
import { CurrentWorkspace, TakesQuery } from './auth.guard';
import { Idempotent } from './idempotency.interceptor';
import { apiAndConsole } from './request-context';

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
  const schemas = kbSchemas(resource);
  const idParam = ApiIdParam(resource.idParam, resource.idPrefix);
  const noun = resource.name;
  const idContext = { idParam: { name: resource.idParam, prefix: resource.idPrefix }, record: noun };
  const firstRequired = Object.keys(resource.fields).find((name) => resource.fields[name].presence === 'required') ?? 'name';
  const bodyContext = { body: { param: firstRequired, message: `${firstRequired} is required.` } };

  @Controller(apiAndConsole(`v1/kb/${resource.path}`, `kb/${resource.path}`))
  @ApiTags(`Knowledge base: ${resource.path}`)
  @ApiKeyAuth()
  class GeneratedKbController implements KbControllerInstance {
    constructor(@Inject(serviceClass) private readonly service: KbService<E>) {}

    @Get()
    @ApiOperation({ operationId: `list_${resource.path}`, summary: `List active ${noun} records` })
    @ApiQuery(LIMIT_QUERY)
    @ApiQuery(CURSOR_QUERY)
    @ApiOkResponse({ description: 'One page of records', schema: schemas.page })
    @ApiErrors({ list: true }, 400, 503)
    @TakesQuery()
    list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(kbListQueryPipe) query: KbListQuery) {
      return this.service.list(ctx, query);
    }

    @Get(byId)
    @ApiOperation({ operationId: `get_${resource.path}`, summary: `Retrieve a ${noun}` })
    @idParam
    @ApiOkResponse({ description: 'The record', schema: schemas.record })
    @ApiErrors(idContext, 400, 404, 503)
    get(@CurrentWorkspace() ctx: WorkspaceContext, @Param(resource.idParam) id: string) {
      return this.service.get(ctx, id);
    }

    @Post()
    @HttpCode(201)
    @Idempotent()
    @ApiOperation({ operationId: `create_${resource.path}`, summary: `Create a ${noun}` })
    @ApiBody({ required: true, schema: schemas.create })
    @ApiCreatedResponse({ description: 'The created record', schema: schemas.record })
    @ApiErrors({ ...bodyContext, record: noun }, 400, 403, 409, 413, 503)
    create(@CurrentWorkspace() ctx: WorkspaceContext, @Body() body: unknown) {
      return this.service.create(ctx, body);
    }

    @Patch(byId)
    @Idempotent()
    @ApiOperation({ operationId: `update_${resource.path}`, summary: `Update some fields of a ${noun}` })
    @idParam
    @ApiBody({ required: true, schema: schemas.update })
    @ApiOkResponse({ description: 'The updated record', schema: schemas.record })
    @ApiErrors({ ...idContext, ...bodyContext }, 400, 403, 404, 409, 413, 503)
    update(@CurrentWorkspace() ctx: WorkspaceContext, @Param(resource.idParam) id: string, @Body() body: unknown) {
      return this.service.update(ctx, id, body);
    }

    @Delete(byId)
    @HttpCode(204)
    @ApiOperation({ operationId: `delete_${resource.path}`, summary: `Delete a ${noun}` })
    @idParam
    @ApiNoContentResponse({ description: 'Deleted; no body' })
    @ApiErrors(idContext, 400, 403, 404, 503)
    remove(@CurrentWorkspace() ctx: WorkspaceContext, @Param(resource.idParam) id: string) {
      return this.service.remove(ctx, id);
    }
  }
  Object.defineProperty(GeneratedKbController, 'name', { value: `${resource.name.replace(/\s+/g, '')}Controller` });
  return GeneratedKbController;
}
