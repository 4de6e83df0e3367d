import { applyDecorators, Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { AppError } from '../../shared/application/app-error';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { ID_PREFIXES } from '../../shared/domain/ids';
import { enumParser, keysetListQueryPipe, prefixedIdParser, timestampParser } from '../../shared/interface/http/list-query.pipe';
import {
  ApiErrors,
  ApiKeysetListQueries,
  ApiKeyAuth,
  namedSchema,
  nullableRef,
  pageSchema,
  STRING_SCHEMA as str,
  stringsSchema as strings,
  TIMESTAMP_SCHEMA,
} from '../../shared/interface/http/openapi.decorators';
import { CurrentWorkspace, TakesQuery } from '../../shared/interface/http/auth.guard';
import { ATTRIBUTION } from '../buyers/buyers.controller';
import { ALL_TRIGGERS, SIGNAL_TRIGGERS, SIGNAL_TYPES, SignalType, triggerBelongsTo } from './signal-types';
import { SignalListQuery, SignalsService } from './signals.service';
import { apiAndConsole } from '../../shared/interface/http/request-context';

/** `type` and `trigger` as list filters (Signals, activities): the parameters, as documented. */
export const ApiTypeAndTriggerQueries = (): MethodDecorator =>
  applyDecorators(
    ApiQuery({ name: 'type', required: false, schema: { type: 'string', enum: SIGNAL_TYPES } }),
    ApiQuery({
      name: 'trigger',
      required: false,
      description: 'A trigger of the given `type`; requires `type`',
      schema: { type: 'string', enum: ALL_TRIGGERS },
    }),
  );

/** A `trigger` filter needs its `type`, and must be one of that type's triggers. */
export function checkTypeAndTrigger(query: { type?: SignalType; trigger?: string }): void {
  if (query.trigger === undefined) return;
  if (query.type === undefined) throw AppError.invalidParameter('trigger', 'trigger requires type.');
  if (!triggerBelongsTo(query.type, query.trigger)) {
    throw AppError.invalidParameter('trigger', `trigger ${query.trigger} is not a trigger of type ${query.type}.`);
  }
}

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
    checkTypeAndTrigger(query);
  },
);

const triggerOf = (type: keyof typeof SIGNAL_TRIGGERS): SchemaObject => ({ type: 'string', enum: [...SIGNAL_TRIGGERS[type]] });
const complete = (schema: SchemaObject): SchemaObject => ({ ...schema, required: Object.keys(schema.properties ?? {}) });
const integer: SchemaObject = { type: 'integer' };
const number: SchemaObject = { type: 'number' };
/** A timestamp that is `""` when the activity did not say. */
const OPTIONAL_TIMESTAMP: SchemaObject = { type: 'string', description: '`YYYY-MM-DDTHH:mm:ssZ`, or `""` when unknown' };
const CLICK_IDS = ['gclid', 'gbraid', 'wbraid', 'dclid', 'li_fat_id', 'msclkid', 'fbclid', 'ttclid', 'twclid'];

/**
 * The parts of a website Signal an activity may hint at, as the Signal carries them (every key,
 * `complete`) or as an activity may send them (any subset; unknown keys are ignored).
 */
export function websiteParts(completeParts: boolean): Record<'session' | 'device' | 'location' | 'page', SchemaObject> {
  const shape = (schema: SchemaObject): SchemaObject => (completeParts ? complete(schema) : schema);
  const timestamp: SchemaObject = completeParts ? OPTIONAL_TIMESTAMP : { type: 'string', description: 'An ISO 8601 instant' };
  return {
    session: shape({
      type: 'object',
      properties: { id: str, started_at: timestamp, ended_at: timestamp, duration_secs: integer },
    }),
    device: shape(strings('browser', 'browser_version', 'os', 'os_version', 'device_type', 'language')),
    location: shape({
      type: 'object',
      properties: {
        ...strings('ip', 'city', 'state', 'country', 'country_code', 'postal_code', 'timezone').properties,
        latitude: number,
        longitude: number,
      },
    }),
    page: shape({
      type: 'object',
      properties: {
        visited_at: timestamp,
        first_visited_at: timestamp,
        last_visited_at: timestamp,
        time_spent_secs: integer,
        visit_count: integer,
        total_time_spent_secs: integer,
      },
    }),
  };
}

const WEBSITE = namedSchema(
  'WebsiteSignal',
  complete({
    type: 'object',
    description: 'A website visit or form interaction.',
    properties: {
      trigger: triggerOf('website'),
      attribution: ATTRIBUTION,
      url: complete(strings('raw', 'canonical', 'domain', 'path')),
      utm: complete(strings('source', 'medium', 'campaign', 'term', 'content')),
      click_ids: complete({
        type: 'object',
        properties: Object.fromEntries(CLICK_IDS.map((name) => [name, { type: 'string', nullable: true }])),
      }),
      target_page: complete(strings('id', 'name', 'short_name', 'description')),
      ...websiteParts(true),
    },
  }),
);

const MARKET = namedSchema(
  'MarketSignal',
  complete({
    type: 'object',
    description: 'Research on a topic, a product or a competitor.',
    properties: { trigger: triggerOf('market'), attribution: ATTRIBUTION, topic: str, company_website: str },
  }),
);

const LINKEDIN = namedSchema(
  'LinkedinSignal',
  complete({
    type: 'object',
    description: 'A follow, comment or reaction on LinkedIn.',
    properties: {
      trigger: triggerOf('linkedin'),
      attribution: ATTRIBUTION,
      ...strings('source', 'url', 'comment', 'reaction_type', 'company_name', 'post_title').properties,
    },
  }),
);

/** Exactly the object named by `type` is populated; the other two are null. */
export const SIGNAL_SCHEMA = namedSchema('Signal', {
  type: 'object',
  description: 'Exactly the object named by `type` is populated; the other two are `null`.',
  required: ['id', 'buyer_id', 'type', 'website', 'market', 'linkedin', 'captured_at', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', example: 'sig_0384275394154701033' },
    buyer_id: { type: 'string', example: 'buy_0384275394154701033' },
    type: { type: 'string', enum: SIGNAL_TYPES },
    website: nullableRef(WEBSITE),
    market: nullableRef(MARKET),
    linkedin: nullableRef(LINKEDIN),
    captured_at: TIMESTAMP_SCHEMA,
    created_at: TIMESTAMP_SCHEMA,
    updated_at: TIMESTAMP_SCHEMA,
  },
});

const SIGNAL_PAGE = pageSchema('Signal', SIGNAL_SCHEMA);

@Controller(apiAndConsole('v1/signals', 'signals'))
@ApiTags('Signals')
@ApiKeyAuth()
export class SignalsController {
  constructor(private readonly signals: SignalsService) {}

  @Get()
  @ApiOperation({ operationId: 'list_signals', summary: 'List Signals, most recently captured first by default' })
  @ApiKeysetListQueries('captured_at')
  @ApiQuery({ name: 'buyer_id', required: false, schema: { type: 'string', pattern: '^buy_' } })
  @ApiTypeAndTriggerQueries()
  @ApiOkResponse({ description: 'One page of Signals', schema: SIGNAL_PAGE })
  @ApiErrors({ list: true }, 400, 503)
  @TakesQuery()
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(signalListQuery) query: SignalListQuery) {
    return this.signals.list(ctx, query);
  }
}
