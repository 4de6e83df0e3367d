import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { ApiErrors, ApiKeyAuth } from '../../shared/interface/http/openapi.decorators';
import { CurrentWorkspace } from '../../shared/interface/http/auth.guard';
import { Idempotent } from '../../shared/interface/http/idempotency.interceptor';
import { SIGNAL_TYPES } from '../signals/signal-types';
import { MAX_ACTIVITIES } from './activity-input';
import { ActivitiesService } from './activities.service';

/** How raw activity enters the pipeline (the tracking pixel and data providers call it). */
const ACTIVITY_ID: SchemaObject = { type: 'string', example: 'act_1234567890' };

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

  @Get(':id')
  @ApiOperation({
    operationId: 'get_activity',
    summary: 'Processing status of an activity',
    description:
      'Activities are kept `ACTIVITY_RETENTION_DAYS` (30) days after they arrive; past that the answer is `404 not_found`, as for an unknown id.',
  })
  @ApiParam({ name: 'id', required: true, schema: ACTIVITY_ID })
  @ApiOkResponse({
    description: 'The activity and what the pipeline made of it',
    schema: {
      type: 'object',
      required: ['id', 'status', 'signal_id', 'buyer_id', 'discard_reason'],
      properties: {
        id: ACTIVITY_ID,
        status: { type: 'string', enum: ['queued', 'processed', 'discarded'] },
        signal_id: { type: 'string', nullable: true },
        buyer_id: { type: 'string', nullable: true },
        discard_reason: { type: 'string', nullable: true, enum: ['unresolved_identity', 'excluded_company', 'no_target_match', null] },
      },
    },
  })
  @ApiErrors(400, 404)
  status(@CurrentWorkspace() ctx: WorkspaceContext, @Param('id') id: string) {
    return this.activities.status(ctx, id);
  }
}
