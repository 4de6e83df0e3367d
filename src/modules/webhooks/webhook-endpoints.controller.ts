import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { CurrentWorkspace, TakesQuery } from '../../shared/interface/http/auth.guard';
import { Idempotent } from '../../shared/interface/http/idempotency.interceptor';
import { kbListQueryPipe } from '../../shared/interface/http/list-query.pipe';
import {
  ApiErrors,
  ApiKeyAuth,
  CURSOR_QUERY,
  LIMIT_QUERY,
  namedSchema,
  pageSchema,
  STRING_SCHEMA as str,
  TIMESTAMP_SCHEMA,
} from '../../shared/interface/http/openapi.decorators';
import { EVENT_TYPES } from '../events/event-types';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { apiAndConsole } from '../../shared/interface/http/request-context';

const ENDPOINT_FIELDS: Record<string, SchemaObject> = {
  url: { type: 'string', example: 'https://hooks.example.com/buyer-intelligence', description: 'An https:// URL on a public address.' },
  enabled_events: {
    type: 'array',
    items: { type: 'string' },
    example: ['signal.created', 'buyer.*'],
    description: `Event types or wildcards (\`buyer.*\`, \`kb.*\`, \`*\`). Types: ${EVENT_TYPES.join(', ')}.`,
  },
  description: { type: 'string', maxLength: 500 },
};

const ENDPOINT_PROPERTIES: SchemaObject = {
  type: 'object',
  required: ['id', 'object', 'url', 'description', 'enabled_events', 'enabled', 'disabled_reason', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', example: 'whe_0384275394154701033' },
    object: { type: 'string', enum: ['webhook_endpoint'] },
    ...ENDPOINT_FIELDS,
    enabled: { type: 'boolean' },
    disabled_reason: {
      type: 'string',
      nullable: true,
      description: 'Why the endpoint stopped receiving: by request, or after three days of failed deliveries.',
    },
    created_at: TIMESTAMP_SCHEMA,
    updated_at: TIMESTAMP_SCHEMA,
  },
};

const ENDPOINT_SCHEMA = namedSchema('WebhookEndpoint', ENDPOINT_PROPERTIES);

/** The endpoint with its secret: the same fields plus `secret` (spelled out, so a client gets one flat type). */
const WITH_SECRET_SCHEMA = namedSchema('WebhookEndpointWithSecret', {
  ...ENDPOINT_PROPERTIES,
  required: [...ENDPOINT_PROPERTIES.required!, 'secret'],
  properties: {
    ...ENDPOINT_PROPERTIES.properties,
    secret: { type: 'string', example: 'whsec_…', description: 'The signing secret. Shown only in this answer.' },
  },
});

const DELIVERY_SCHEMA = namedSchema('WebhookDelivery', {
  type: 'object',
  required: [
    'id',
    'object',
    'endpoint_id',
    'event_id',
    'message_id',
    'event_type',
    'attempt',
    'succeeded',
    'status_code',
    'error',
    'latency_ms',
    'response_excerpt',
    'next_retry_at',
    'created_at',
  ],
  properties: {
    id: { type: 'string', example: 'whd_0384275394154701033' },
    object: { type: 'string', enum: ['webhook_delivery'] },
    endpoint_id: str,
    event_id: { type: 'string', nullable: true, description: 'Null for a test ping.' },
    message_id: { type: 'string', description: 'The `webhook-id` header: the same on every attempt of one event.' },
    event_type: str,
    attempt: { type: 'integer', description: '1 for the first attempt.' },
    succeeded: { type: 'boolean' },
    status_code: { type: 'integer', nullable: true },
    error: { type: 'string', nullable: true, description: 'Why no status came back: a timeout, a refused address, a connection error.' },
    latency_ms: { type: 'integer' },
    response_excerpt: { type: 'string', description: 'The start of the receiver’s answer (at most 500 characters).' },
    next_retry_at: { ...TIMESTAMP_SCHEMA, nullable: true },
    created_at: TIMESTAMP_SCHEMA,
  },
});

const REDELIVERY_SCHEMA = namedSchema('Redelivery', {
  type: 'object',
  required: ['object', 'event_id', 'endpoint_ids'],
  properties: { object: { type: 'string', enum: ['redelivery'] }, event_id: str, endpoint_ids: { type: 'array', items: str } },
});

const CREATE_BODY = namedSchema('CreateWebhookEndpointRequest', {
  type: 'object',
  required: ['url', 'enabled_events'],
  additionalProperties: false,
  properties: ENDPOINT_FIELDS,
});

const UPDATE_BODY = namedSchema('UpdateWebhookEndpointRequest', {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { ...ENDPOINT_FIELDS, enabled: { type: 'boolean' } },
});

const ENDPOINT_ERRORS = { record: 'Webhook endpoint' };
const BODY_ERRORS = { body: { param: 'url', message: 'url is required.' } };

const ID_PARAM = ApiParam({
  name: 'endpoint_id',
  required: true,
  schema: { type: 'string', pattern: '^whe_', example: 'whe_0384275394154701033' },
});

/** Webhook endpoints: where a workspace's events are sent, signed per Standard Webhooks. Read keys may only read. */
@Controller(apiAndConsole('v1', ''))
@ApiTags('Webhooks')
@ApiKeyAuth()
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post('webhook-endpoints')
  @Idempotent()
  @ApiOperation({
    operationId: 'create_webhook_endpoint',
    summary: 'Create a webhook endpoint; the answer carries its signing secret, once',
  })
  @ApiBody({ required: true, schema: CREATE_BODY })
  @ApiResponse({ status: 201, description: 'The endpoint, with its secret', schema: WITH_SECRET_SCHEMA })
  @ApiErrors(BODY_ERRORS, 400, 403, 413, 503)
  create(@CurrentWorkspace() ctx: WorkspaceContext, @Body() body: unknown) {
    return this.endpoints.create(ctx, body);
  }

  @Get('webhook-endpoints')
  @ApiOperation({ operationId: 'list_webhook_endpoints', summary: 'List webhook endpoints, newest first' })
  @ApiQuery(LIMIT_QUERY)
  @ApiQuery(CURSOR_QUERY)
  @ApiOkResponse({ description: 'One page of endpoints', schema: pageSchema('WebhookEndpoint', ENDPOINT_SCHEMA) })
  @ApiErrors({ list: true }, 400, 503)
  @TakesQuery()
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(kbListQueryPipe) query: { limit: number; cursor?: string }) {
    return this.endpoints.list(ctx, query);
  }

  @Get('webhook-endpoints/:endpoint_id')
  @ApiOperation({ operationId: 'get_webhook_endpoint', summary: 'Retrieve a webhook endpoint (never its secret)' })
  @ID_PARAM
  @ApiOkResponse({ description: 'The endpoint', schema: ENDPOINT_SCHEMA })
  @ApiErrors(ENDPOINT_ERRORS, 404, 503)
  get(@CurrentWorkspace() ctx: WorkspaceContext, @Param('endpoint_id') id: string) {
    return this.endpoints.get(ctx, id);
  }

  @Patch('webhook-endpoints/:endpoint_id')
  @Idempotent()
  @ApiOperation({ operationId: 'update_webhook_endpoint', summary: 'Change the URL, the events, the description, or enable and disable' })
  @ID_PARAM
  @ApiBody({ required: true, schema: UPDATE_BODY })
  @ApiOkResponse({ description: 'The endpoint', schema: ENDPOINT_SCHEMA })
  @ApiErrors({ ...ENDPOINT_ERRORS, body: { param: 'enabled', message: 'enabled must be true or false.' } }, 400, 403, 404, 413, 503)
  update(@CurrentWorkspace() ctx: WorkspaceContext, @Param('endpoint_id') id: string, @Body() body: unknown) {
    return this.endpoints.update(ctx, id, body);
  }

  @Delete('webhook-endpoints/:endpoint_id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'delete_webhook_endpoint', summary: 'Delete a webhook endpoint; nothing more is sent to it' })
  @ID_PARAM
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiErrors(ENDPOINT_ERRORS, 403, 404, 503)
  async remove(@CurrentWorkspace() ctx: WorkspaceContext, @Param('endpoint_id') id: string): Promise<void> {
    await this.endpoints.remove(ctx, id);
  }

  @Post('webhook-endpoints/:endpoint_id/rotate-secret')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    operationId: 'rotate_webhook_secret',
    summary: 'A new signing secret, shown once; the old one keeps signing beside it for 24 hours',
  })
  @ID_PARAM
  @ApiOkResponse({ description: 'The endpoint, with its new secret', schema: WITH_SECRET_SCHEMA })
  @ApiErrors(ENDPOINT_ERRORS, 403, 404, 503)
  rotate(@CurrentWorkspace() ctx: WorkspaceContext, @Param('endpoint_id') id: string) {
    return this.endpoints.rotateSecret(ctx, id);
  }

  @Post('webhook-endpoints/:endpoint_id/test')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({ operationId: 'test_webhook_endpoint', summary: 'Send a signed `ping` now and answer with the attempt' })
  @ID_PARAM
  @ApiOkResponse({ description: 'The attempt, as recorded among the deliveries', schema: DELIVERY_SCHEMA })
  @ApiErrors(ENDPOINT_ERRORS, 403, 404, 503)
  test(@CurrentWorkspace() ctx: WorkspaceContext, @Param('endpoint_id') id: string) {
    return this.endpoints.test(ctx, id);
  }

  @Get('webhook-endpoints/:endpoint_id/deliveries')
  @ApiOperation({ operationId: 'list_webhook_deliveries', summary: 'Delivery attempts to an endpoint, newest first' })
  @ID_PARAM
  @ApiQuery(LIMIT_QUERY)
  @ApiQuery(CURSOR_QUERY)
  @ApiOkResponse({ description: 'One page of attempts', schema: pageSchema('WebhookDelivery', DELIVERY_SCHEMA) })
  @ApiErrors({ ...ENDPOINT_ERRORS, list: true }, 400, 404, 503)
  @TakesQuery()
  deliveries(
    @CurrentWorkspace() ctx: WorkspaceContext,
    @Param('endpoint_id') id: string,
    @Query(kbListQueryPipe) query: { limit: number; cursor?: string },
  ) {
    return this.endpoints.deliveries(ctx, id, query);
  }

  @Post('events/:event_id/redeliver')
  @HttpCode(202)
  @Idempotent()
  @ApiOperation({ operationId: 'redeliver_event', summary: 'Send an event again to every enabled endpoint that subscribes to it' })
  @ApiParam({ name: 'event_id', required: true, schema: { type: 'string', pattern: '^evt_' } })
  @ApiResponse({ status: 202, description: 'Queued', schema: REDELIVERY_SCHEMA })
  @ApiErrors({ record: 'Event' }, 403, 404, 503)
  redeliver(@CurrentWorkspace() ctx: WorkspaceContext, @Param('event_id') eventId: string) {
    return this.endpoints.redeliver(ctx, eventId);
  }
}
