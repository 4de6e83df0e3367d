import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { AppError } from '../../shared/application/app-error';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { enumParser, keysetListQueryPipe, timestampParser } from '../../shared/interface/http/list-query.pipe';
import {
  ApiErrors,
  ApiKeysetListQueries,
  ApiKeyAuth,
  namedSchema,
  pageSchema,
  templateSchema,
  TIMESTAMP_SCHEMA,
} from '../../shared/interface/http/openapi.decorators';
import { MAX_URL_LENGTH } from '../../shared/domain/canonical-url';
import { companyInfoTemplate, contactInfoTemplate, INTEGER_FIELDS } from '../buyers/buyer-shape';
import { ApiTypeAndTriggerQueries, checkTypeAndTrigger, websiteParts } from '../signals/signals.controller';
import { ApiOnly, CurrentWorkspace, TakesQuery } from '../../shared/interface/http/auth.guard';
import { Idempotent } from '../../shared/interface/http/idempotency.interceptor';
import { ALL_TRIGGERS, SIGNAL_TYPES } from '../signals/signal-types';
import { MAX_ACTIVITIES } from './activity-input';
import { ActivitiesService, ActivityListQuery } from './activities.service';
import { ACTIVITY_STATUSES, DISCARD_REASONS } from './activity.entity';
import { apiAndConsole } from '../../shared/interface/http/request-context';

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
    checkTypeAndTrigger(query);
  },
);

/** How raw activity enters the pipeline (the tracking pixel and data providers call it). */
const ACTIVITY_ID: SchemaObject = { type: 'string', pattern: '^act_', example: 'act_0384275394154701033' };

const text = (maxLength: number, description?: string): SchemaObject => ({
  type: 'string',
  maxLength,
  ...(description ? { description } : {}),
});
const texts = (names: readonly string[], maxLength: number): Record<string, SchemaObject> =>
  Object.fromEntries(names.map((name) => [name, text(maxLength)]));

const HINTS =
  'Hints the activity carries, in the shape of the Buyer object; any subset. Unknown keys are ignored; ' +
  'the enrichment provider fills what is missing, and a hint wins over it.';

const IDENTITY = namedSchema('ActivityIdentity', {
  type: 'object',
  description: 'Who acted: at least one of `email`, `hem` or `linkedin` (`ip` alone identifies nobody).',
  additionalProperties: false,
  anyOf: [{ required: ['email'] }, { required: ['hem'] }, { required: ['linkedin'] }],
  properties: {
    email: text(320),
    hem: namedSchema('HashedEmail', {
      type: 'object',
      required: ['type', 'value'],
      additionalProperties: false,
      properties: { type: { type: 'string', enum: ['sha256', 'sha1', 'md5'] }, value: text(128) },
    }),
    linkedin: text(MAX_URL_LENGTH, 'A LinkedIn profile URL'),
    ip: text(64),
  },
  example: { email: 'jane@example.com' },
});

const WEBSITE_PARTS = websiteParts(false);

const ACTIVITY = namedSchema('Activity', {
  type: 'object',
  description:
    'One raw activity. Exactly the object named by `type` (`website`, `market` or `linkedin`) is given; the other two are absent or `null`. ' +
    'Text values are trimmed.',
  required: ['type', 'trigger', 'occurred_at', 'identity'],
  additionalProperties: false,
  properties: {
    external_id: {
      ...text(200, "The sender's id for it: a repeat is answered `duplicate` instead of being stored twice"),
      minLength: 1,
    },
    type: { type: 'string', enum: SIGNAL_TYPES },
    trigger: { type: 'string', enum: ALL_TRIGGERS, description: 'A trigger of `type`' },
    occurred_at: {
      type: 'string',
      format: 'date-time',
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?Z$',
      description: 'UTC, at most 24 hours ahead of the service clock',
      example: '2025-01-31T09:30:00Z',
    },
    identity: IDENTITY,
    contact: namedSchema('ContactHints', {
      ...templateSchema(contactInfoTemplate(), { complete: false, integers: INTEGER_FIELDS }),
      description: HINTS,
    }),
    company: namedSchema('CompanyHints', {
      ...templateSchema(companyInfoTemplate(), { complete: false, integers: INTEGER_FIELDS }),
      description: HINTS,
    }),
    attribution: namedSchema('ActivityAttribution', {
      type: 'object',
      additionalProperties: false,
      properties: texts(['type', 'source', 'source_name', 'source_logo'], MAX_URL_LENGTH),
    }),
    website: namedSchema('ActivityWebsite', {
      type: 'object',
      description: 'For `type` `website`: the page, with what the tracker saw of the session, device, location and page.',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: text(MAX_URL_LENGTH, 'An http(s) URL, or host and path such as example.com/pricing'),
        session: { ...WEBSITE_PARTS.session, description: 'Any subset; unknown keys are ignored' },
        device: { ...WEBSITE_PARTS.device, description: 'Any subset; unknown keys are ignored' },
        location: { ...WEBSITE_PARTS.location, description: 'Any subset; unknown keys are ignored' },
        page: { ...WEBSITE_PARTS.page, description: 'Any subset; unknown keys are ignored' },
      },
    }),
    market: namedSchema('ActivityMarket', {
      type: 'object',
      description: 'For `type` `market`: `topic` is required, except for `evaluated_competitor`, which requires `company_website`.',
      additionalProperties: false,
      properties: texts(['topic', 'company_website'], MAX_URL_LENGTH),
    }),
    linkedin: namedSchema('ActivityLinkedin', {
      type: 'object',
      description: 'For `type` `linkedin`: at least `url` or `company_name`.',
      additionalProperties: false,
      anyOf: [{ required: ['url'] }, { required: ['company_name'] }],
      properties: texts(['source', 'url', 'comment', 'reaction_type', 'company_name', 'post_title'], MAX_URL_LENGTH),
    }),
  },
});

const INTAKE_BODY = namedSchema('ActivityIntakeRequest', {
  type: 'object',
  description: `1 to ${MAX_ACTIVITIES} activities, accepted or refused together: the first invalid one is a \`validation_error\` whose \`param\` is its path (\`activities[3].trigger\`).`,
  required: ['activities'],
  additionalProperties: false,
  properties: { activities: { type: 'array', minItems: 1, maxItems: MAX_ACTIVITIES, items: ACTIVITY } },
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
});

const RECEIPT = namedSchema('ActivityReceipt', {
  type: 'object',
  required: ['id', 'status'],
  additionalProperties: false,
  properties: {
    id: { ...ACTIVITY_ID, description: 'For a `duplicate`, the id the first one was given' },
    status: { type: 'string', enum: ['queued', 'duplicate'] },
  },
});

const INTAKE_RESULT = namedSchema('ActivityIntakeResult', {
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: { data: { type: 'array', items: RECEIPT, description: 'One receipt per activity, in the order sent' } },
});

/** What both the single activity and the list show of an activity. */
const ACTIVITY_STATUS = namedSchema('ActivityStatus', {
  type: 'object',
  required: ['id', 'status', 'signal_id', 'buyer_id', 'discard_reason', 'near_miss', 'type', 'trigger', 'occurred_at', 'received_at'],
  additionalProperties: false,
  properties: {
    id: ACTIVITY_ID,
    status: { type: 'string', enum: ACTIVITY_STATUSES },
    signal_id: { type: 'string', nullable: true, description: 'The Signal it became, once processed' },
    buyer_id: { type: 'string', nullable: true, description: 'The Buyer it was attached to, once processed' },
    discard_reason: {
      type: 'string',
      nullable: true,
      enum: [...DISCARD_REASONS, null],
      description: 'Why it was discarded; `null` unless `status` is `discarded`',
    },
    near_miss: namedSchema('ActivityNearMiss', {
      type: 'object',
      nullable: true,
      description:
        'On a website activity discarded `no_target_match`: the Target Page (visits) or Target Form (submissions) that came closest, ' +
        'its canonical URL, and the parts of the URL that differed. Null otherwise, and when none came close.',
      required: ['url', 'differences'],
      additionalProperties: false,
      properties: {
        target_page_id: { type: 'string', example: 'tpg_1234567890' },
        target_form_id: { type: 'string', example: 'tfm_1234567890' },
        url: { type: 'string', example: 'example.com/pricing' },
        differences: { type: 'array', items: { type: 'string', enum: ['host', 'path', 'query'] } },
      },
    }),
    type: { type: 'string', enum: SIGNAL_TYPES },
    trigger: { type: 'string', enum: ALL_TRIGGERS },
    occurred_at: TIMESTAMP_SCHEMA,
    received_at: { ...TIMESTAMP_SCHEMA, description: 'When the activity arrived (its id is minted then)' },
  },
});

@Controller(apiAndConsole('ingest/v1/activities', 'activities'))
@ApiTags('Ingest')
@ApiKeyAuth()
export class ActivitiesController {
  constructor(private readonly activities: ActivitiesService) {}

  /** 202: the activities are stored and queued; processing happens asynchronously. */
  @Post()
  // Activities come from integrations with a key; the console only reads them.
  @ApiOnly()
  @HttpCode(202)
  @Idempotent()
  @ApiOperation({ operationId: 'ingest_activities', summary: 'Submit raw activities to the pipeline (all or nothing)' })
  @ApiBody({ required: true, schema: INTAKE_BODY })
  @ApiAcceptedResponse({ description: 'Stored and queued', schema: INTAKE_RESULT })
  @ApiErrors(
    {
      body: { param: 'activities[0].trigger', message: 'activities[0].trigger must be one of visited_page, filled_form, abandoned_form.' },
    },
    400,
    403,
    413,
    503,
  )
  intake(@CurrentWorkspace() ctx: WorkspaceContext, @Body() body: unknown) {
    return this.activities.intake(ctx, body);
  }

  @Get()
  @ApiOperation({
    operationId: 'list_activities',
    summary: 'List activities and what the pipeline made of them, most recently received first by default',
    description: 'Ordered by arrival (`received_at`, then id). Activities are kept `ACTIVITY_RETENTION_DAYS` (30) days after they arrive.',
  })
  @ApiKeysetListQueries('received_at')
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: ACTIVITY_STATUSES } })
  @ApiQuery({
    name: 'discard_reason',
    required: false,
    description: 'Discarded activities with this reason; `status`, if given, must be `discarded`',
    schema: { type: 'string', enum: DISCARD_REASONS },
  })
  @ApiTypeAndTriggerQueries()
  @ApiOkResponse({ description: 'One page of activities', schema: pageSchema('ActivityStatus', ACTIVITY_STATUS) })
  @ApiErrors({ list: true }, 400, 503)
  @TakesQuery()
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(activityListQuery) query: ActivityListQuery) {
    return this.activities.list(ctx, query);
  }

  @Get(':activity_id')
  @ApiOperation({
    operationId: 'get_activity',
    summary: 'Processing status of an activity',
    description:
      'Activities are kept `ACTIVITY_RETENTION_DAYS` (30) days after they arrive; past that the answer is `404 not_found`, as for an unknown id.',
  })
  @ApiParam({ name: 'activity_id', required: true, schema: ACTIVITY_ID })
  @ApiOkResponse({ description: 'The activity and what the pipeline made of it', schema: ACTIVITY_STATUS })
  @ApiErrors({ record: 'activity' }, 404)
  status(@CurrentWorkspace() ctx: WorkspaceContext, @Param('activity_id') id: string) {
    return this.activities.status(ctx, id);
  }
}
