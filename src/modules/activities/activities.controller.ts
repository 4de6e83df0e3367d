import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { AppError } from '../../shared/application/app-error';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { enumParser, keysetListQueryPipe, timestampParser } from '../../shared/interface/http/list-query.pipe';
import {
  ApiErrors,
  ApiKeyAuth,
  CURSOR_QUERY,
  LIMIT_QUERY,
  pageSchema,
  TIMESTAMP_SCHEMA,
} from '../../shared/interface/http/openapi.decorators';
import { CurrentWorkspace } from '../../shared/interface/http/auth.guard';
import { Idempotent } from '../../shared/interface/http/idempotency.interceptor';
import { ALL_TRIGGERS, SIGNAL_TYPES, triggerBelongsTo } from '../signals/signal-types';
import { MAX_ACTIVITIES } from './activity-input';
import { ActivitiesService, ActivityListQuery } from './activities.service';
import { ACTIVITY_STATUSES, DISCARD_REASONS } from './activity.entity';

const activityListQuery = keysetListQueryPipe<ActivityListQuery>(
  'received_at',
  {
    status: enumParser(ACTIVITY_STATUSES),
    discard_reason: enumParser(DISCARD_REASONS),
    type: enumParser(SIGNAL_TYPES),
    trigger: enumParser(ALL_TRIGGERS),
    received_after: timestampParser,
    received_before: timestampParser,
  },
  (query) => {
    if (query.discard_reason !== undefined && query.status !== undefined && query.status !== 'discarded') {
      throw AppError.invalidParameter('discard_reason', 'discard_reason applies to discarded activities only (status=discarded).');
    }
    if (query.trigger === undefined) return;
    if (query.type === undefined) throw AppError.invalidParameter('trigger', 'trigger requires type.');
    if (!triggerBelongsTo(query.type, query.trigger)) {
      throw AppError.invalidParameter('trigger', `trigger ${String(query.trigger)} is not a trigger of type ${String(query.type)}.`);
    }
  },
);

/** How raw activity enters the pipeline (the tracking pixel and data providers call it). */
const ACTIVITY_ID: SchemaObject = { type: 'string', example: 'act_1234567890' };

/** What both the single activity and the list show of an activity. */
const ACTIVITY_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['id', 'status', 'signal_id', 'buyer_id', 'discard_reason', 'near_miss', 'type', 'trigger', 'occurred_at', 'received_at'],
  properties: {
    id: ACTIVITY_ID,
    status: { type: 'string', enum: ACTIVITY_STATUSES },
    signal_id: { type: 'string', nullable: true },
    buyer_id: { type: 'string', nullable: true },
    discard_reason: { type: 'string', nullable: true, enum: [...DISCARD_REASONS, null] },
    near_miss: {
      type: 'object',
      nullable: true,
      description:
        'On a website activity discarded `no_target_match`: the Target Page (visits) or Target Form (submissions) that came closest, ' +
        'its canonical URL, and the parts of the URL that differed. Null otherwise, and when none came close.',
      required: ['url', 'differences'],
      properties: {
        target_page_id: { type: 'string', example: 'tpg_1234567890' },
        target_form_id: { type: 'string', example: 'tfm_1234567890' },
        url: { type: 'string', example: 'example.com/pricing' },
        differences: { type: 'array', items: { type: 'string', enum: ['host', 'path', 'query'] } },
      },
    },
    type: { type: 'string', enum: SIGNAL_TYPES },
    trigger: { type: 'string', enum: ALL_TRIGGERS },
    occurred_at: TIMESTAMP_SCHEMA,
    received_at: TIMESTAMP_SCHEMA,
  },
};

/** Loosely described: the per-field rules (and the `param` paths they report) live in activity-input.ts. */
const INTAKE_BODY: SchemaObject = {
  type: 'object',
  required: ['activities'],
  additionalProperties: false,
  properties: {
    activities: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_ACTIVITIES,
      items: {
        type: 'object',
        required: ['type', 'trigger', 'occurred_at', 'identity'],
        properties: {
          external_id: { type: 'string', description: 'Idempotency key: a repeat is answered `duplicate`' },
          type: { type: 'string', enum: SIGNAL_TYPES },
          trigger: { type: 'string' },
          occurred_at: { type: 'string', format: 'date-time' },
          identity: { type: 'object', description: 'At least one of email, hem {type, value}, linkedin, ip' },
          contact: { type: 'object' },
          company: { type: 'object' },
          attribution: { type: 'object' },
          website: { type: 'object' },
          market: { type: 'object' },
          linkedin: { type: 'object' },
        },
      },
    },
  },
  example: {
    activities: [
      {
        external_id: 'evt-1',
        type: 'website',
        trigger: 'visited_page',
        occurred_at: '2025-01-31T09:30:00Z',
        identity: { email: 'jane@example.com' },
        website: { url: 'https://example.com/pricing' },
      },
    ],
  },
};

@Controller('ingest/v1/activities')
@ApiTags('Ingest')
@ApiKeyAuth()
export class ActivitiesController {
  constructor(private readonly activities: ActivitiesService) {}

  /** 202: the activities are stored and queued; processing happens asynchronously. */
  @Post()
  @HttpCode(202)
  @Idempotent()
  @ApiOperation({ operationId: 'ingest_activities', summary: 'Submit raw activities to the pipeline (all or nothing)' })
  @ApiBody({ required: true, schema: INTAKE_BODY })
  @ApiAcceptedResponse({
    description: 'Stored and queued',
    schema: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'status'],
            properties: { id: ACTIVITY_ID, status: { type: 'string', enum: ['queued', 'duplicate'] } },
          },
        },
      },
    },
  })
  @ApiErrors(400, 403, 413, 503)
  intake(@CurrentWorkspace() ctx: WorkspaceContext, @Body() body: unknown) {
    return this.activities.intake(ctx, body);
  }

  @Get()
  @ApiOperation({
    operationId: 'list_activities',
    summary: 'List activities and what the pipeline made of them, most recently received first by default',
    description: 'Ordered by arrival (`received_at`, then id). Activities are kept `ACTIVITY_RETENTION_DAYS` (30) days after they arrive.',
  })
  @ApiQuery(LIMIT_QUERY)
  @ApiQuery(CURSOR_QUERY)
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: ACTIVITY_STATUSES } })
  @ApiQuery({
    name: 'discard_reason',
    required: false,
    description: 'Discarded activities with this reason; `status`, if given, must be `discarded`',
    schema: { type: 'string', enum: DISCARD_REASONS },
  })
  @ApiQuery({ name: 'type', required: false, schema: { type: 'string', enum: SIGNAL_TYPES } })
  @ApiQuery({
    name: 'trigger',
    required: false,
    description: 'A trigger of the given `type`; requires `type`',
    schema: { type: 'string', enum: ALL_TRIGGERS },
  })
  @ApiQuery({ name: 'received_after', required: false, description: '`received_at >= value`', schema: TIMESTAMP_SCHEMA })
  @ApiQuery({ name: 'received_before', required: false, description: '`received_at < value`', schema: TIMESTAMP_SCHEMA })
  @ApiQuery({ name: 'sort_by', required: false, schema: { type: 'string', enum: ['received_at'], default: 'received_at' } })
  @ApiQuery({ name: 'sort_order', required: false, schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } })
  @ApiOkResponse({ description: 'One page of activities', schema: pageSchema(ACTIVITY_SCHEMA) })
  @ApiErrors(400, 503)
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(activityListQuery) query: ActivityListQuery) {
    return this.activities.list(ctx, query);
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'get_activity',
    summary: 'Processing status of an activity',
    description:
      'Activities are kept `ACTIVITY_RETENTION_DAYS` (30) days after they arrive; past that the answer is `404 not_found`, as for an unknown id.',
  })
  @ApiParam({ name: 'id', required: true, schema: ACTIVITY_ID })
  @ApiOkResponse({ description: 'The activity and what the pipeline made of it', schema: ACTIVITY_SCHEMA })
  @ApiErrors(400, 404)
  status(@CurrentWorkspace() ctx: WorkspaceContext, @Param('id') id: string) {
    return this.activities.status(ctx, id);
  }
}
