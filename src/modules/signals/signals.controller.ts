import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { AppError } from '../../shared/application/app-error';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { ID_PREFIXES } from '../../shared/domain/ids';
import { enumParser, keysetListQueryPipe, prefixedIdParser, timestampParser } from '../../shared/interface/http/list-query.pipe';
import {
  ApiErrors,
  ApiKeyAuth,
  CURSOR_QUERY,
  LIMIT_QUERY,
  pageSchema,
  STRING_SCHEMA as str,
  stringsSchema as strings,
  TIMESTAMP_SCHEMA,
} from '../../shared/interface/http/openapi.decorators';
import { CurrentWorkspace } from '../../shared/interface/http/auth.guard';
import { ALL_TRIGGERS, SIGNAL_TRIGGERS, SIGNAL_TYPES, triggerBelongsTo } from './signal-types';
import { SignalListQuery, SignalsService } from './signals.service';

const signalListQuery = keysetListQueryPipe<SignalListQuery>(
  'captured_at',
  {
    buyer_id: prefixedIdParser(ID_PREFIXES.buyer),
    type: enumParser(SIGNAL_TYPES),
    trigger: enumParser(ALL_TRIGGERS),
    captured_after: timestampParser,
    captured_before: timestampParser,
  },
  (query) => {
    if (query.trigger === undefined) return;
    if (query.type === undefined) throw AppError.invalidParameter('trigger', 'trigger requires type.');
    if (!triggerBelongsTo(query.type, query.trigger)) {
      throw AppError.invalidParameter('trigger', `trigger ${String(query.trigger)} is not a trigger of type ${String(query.type)}.`);
    }
  },
);

const ATTRIBUTION = strings('type', 'source', 'source_name', 'source_logo');
const triggerOf = (type: keyof typeof SIGNAL_TRIGGERS): SchemaObject => ({ type: 'string', enum: [...SIGNAL_TRIGGERS[type]] });

/** Exactly the object named by `type` is populated; the other two are null. */
export const SIGNAL_SCHEMA: SchemaObject = {
  type: 'object',
  title: 'Signal',
  required: ['id', 'buyer_id', 'type', 'website', 'market', 'linkedin', 'captured_at', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', example: 'sig_1234567890' },
    buyer_id: { type: 'string', example: 'buy_1234567890' },
    type: { type: 'string', enum: SIGNAL_TYPES },
    website: {
      type: 'object',
      nullable: true,
      properties: {
        trigger: triggerOf('website'),
        attribution: ATTRIBUTION,
        url: strings('raw', 'canonical', 'domain', 'path'),
        utm: strings('source', 'medium', 'campaign', 'term', 'content'),
        click_ids: { type: 'object', additionalProperties: { type: 'string', nullable: true } },
        target_page: strings('id', 'name', 'short_name', 'description'),
        session: { type: 'object', description: '`id`, `started_at`, `ended_at`, `duration_secs`' },
        device: strings('browser', 'browser_version', 'os', 'os_version', 'device_type', 'language'),
        location: { type: 'object', description: 'ip, city, state, country, country_code, postal_code, timezone, latitude, longitude' },
        page: {
          type: 'object',
          description: 'visited_at, first_visited_at, last_visited_at, time_spent_secs, visit_count, total_time_spent_secs',
        },
      },
    },
    market: {
      type: 'object',
      nullable: true,
      properties: { trigger: triggerOf('market'), attribution: ATTRIBUTION, topic: str, company_website: str },
    },
    linkedin: {
      type: 'object',
      nullable: true,
      properties: {
        trigger: triggerOf('linkedin'),
        attribution: ATTRIBUTION,
        ...strings('source', 'url', 'comment', 'reaction_type', 'company_name', 'post_title').properties,
      },
    },
    captured_at: TIMESTAMP_SCHEMA,
    created_at: TIMESTAMP_SCHEMA,
    updated_at: TIMESTAMP_SCHEMA,
  },
};

@Controller('v1/signals')
@ApiTags('Signals')
@ApiKeyAuth()
export class SignalsController {
  constructor(private readonly signals: SignalsService) {}

  @Get()
  @ApiOperation({ operationId: 'list_signals', summary: 'List Signals, most recently captured first by default' })
  @ApiQuery(LIMIT_QUERY)
  @ApiQuery(CURSOR_QUERY)
  @ApiQuery({ name: 'buyer_id', required: false, schema: { type: 'string', pattern: '^buy_' } })
  @ApiQuery({ name: 'type', required: false, schema: { type: 'string', enum: SIGNAL_TYPES } })
  @ApiQuery({
    name: 'trigger',
    required: false,
    description: 'A trigger of the given `type`; requires `type`',
    schema: { type: 'string', enum: ALL_TRIGGERS },
  })
  @ApiQuery({ name: 'captured_after', required: false, description: '`captured_at >= value`', schema: TIMESTAMP_SCHEMA })
  @ApiQuery({ name: 'captured_before', required: false, description: '`captured_at < value`', schema: TIMESTAMP_SCHEMA })
  @ApiQuery({ name: 'sort_by', required: false, schema: { type: 'string', enum: ['captured_at'], default: 'captured_at' } })
  @ApiQuery({ name: 'sort_order', required: false, schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } })
  @ApiOkResponse({ description: 'One page of Signals', schema: pageSchema(SIGNAL_SCHEMA, true) })
  @ApiErrors(400, 503)
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(signalListQuery) query: SignalListQuery) {
    return this.signals.list(ctx, query);
  }
}
