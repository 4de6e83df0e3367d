import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { keysetListQueryPipe, timestampParser } from '../../shared/interface/http/list-query.pipe';
import {
  ApiErrors,
  ApiKeyAuth,
  ApiKeysetListQueries,
  namedSchema,
  nullableRef,
  pageSchema,
  STRING_SCHEMA as str,
  stringsSchema as strings,
  templateSchema,
  TIMESTAMP_SCHEMA,
} from '../../shared/interface/http/openapi.decorators';
import { CRITERION_KINDS } from '../pipeline/profile-reading';
import { companyInfoTemplate, contactInfoTemplate, INTEGER_FIELDS } from './buyer-shape';
import { CurrentWorkspace, TakesQuery } from '../../shared/interface/http/auth.guard';
import { BuyerListQuery, BuyersService } from './buyers.service';
import { apiAndConsole } from '../../shared/interface/http/request-context';

const buyerListQuery = keysetListQueryPipe<BuyerListQuery>('created_at', {
  created_after: timestampParser,
  created_before: timestampParser,
});

const SIGNAL_TYPE: SchemaObject = { type: 'string', enum: ['website', 'market', 'linkedin'] };

/** `{type, source, source_name, source_logo}`: where a Buyer or Signal came from. */
export const ATTRIBUTION = namedSchema('Attribution', {
  ...strings('type', 'source', 'source_name', 'source_logo'),
  required: ['type', 'source', 'source_name', 'source_logo'],
});

const CONTACT_INFO = namedSchema('BuyerContactInfo', {
  ...templateSchema(contactInfoTemplate(), { complete: true, integers: INTEGER_FIELDS }),
  required: [...Object.keys(contactInfoTemplate()), 'is_persona', 'persona_id', 'persona_name', 'persona_reasoning'],
  properties: {
    ...templateSchema(contactInfoTemplate(), { complete: true, integers: INTEGER_FIELDS }).properties,
    is_persona: { type: 'boolean', description: 'The contact matched a Persona' },
    persona_id: { type: 'string', description: 'The matched Persona (`per_…`), or `""`' },
    persona_name: str,
    persona_reasoning: str,
  },
});

const COMPANY_INFO = namedSchema('BuyerCompanyInfo', {
  ...templateSchema(companyInfoTemplate(), { complete: true, integers: INTEGER_FIELDS }),
  required: [...Object.keys(companyInfoTemplate()), 'is_icp', 'icp_id', 'icp_name', 'icp_reasoning'],
  properties: {
    ...templateSchema(companyInfoTemplate(), {
      complete: true,
      integers: INTEGER_FIELDS,
      overrides: { latest_funding_round_date: { type: 'string', description: '`YYYY-MM-DD`, or `""` when absent' } },
    }).properties,
    is_icp: { type: 'boolean', description: 'The company matched an ICP' },
    icp_id: { type: 'string', description: 'The matched ICP (`icp_…`), or `""`' },
    icp_name: str,
    icp_reasoning: str,
  },
});

/** The Buyer as served; the nested objects' absent texts are empty strings, never missing. */
export const BUYER_SCHEMA = namedSchema('Buyer', {
  type: 'object',
  required: [
    'id',
    'client_id',
    'contact_info',
    'company_info',
    'hems',
    'target_lists',
    'signal_count',
    'attribution',
    'first_signal_id',
    'last_signal_id',
    'first_signal_type',
    'last_signal_type',
    'first_signal_trigger',
    'last_signal_trigger',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string', example: 'buy_0384275394154701033' },
    client_id: { type: 'string', example: 'wor_0384275394154701033' },
    contact_info: CONTACT_INFO,
    company_info: COMPANY_INFO,
    hems: {
      type: 'array',
      description: 'Hashed email identifiers',
      items: { ...strings('type', 'value'), required: ['type', 'value'] },
    },
    target_lists: { type: 'array', items: { ...strings('id', 'name'), required: ['id', 'name'] } },
    signal_count: {
      type: 'object',
      required: ['total', 'website', 'market', 'linkedin'],
      properties: Object.fromEntries(['total', 'website', 'market', 'linkedin'].map((name) => [name, { type: 'integer' }])),
    },
    attribution: ATTRIBUTION,
    first_signal_id: str,
    last_signal_id: str,
    first_signal_type: SIGNAL_TYPE,
    last_signal_type: SIGNAL_TYPE,
    first_signal_trigger: str,
    last_signal_trigger: str,
    created_at: TIMESTAMP_SCHEMA,
    updated_at: TIMESTAMP_SCHEMA,
  },
});

const BUYER_PAGE = pageSchema('Buyer', BUYER_SCHEMA);

const SOURCE_SCHEMA = namedSchema('ValueSource', {
  type: 'object',
  description:
    "Where the Buyer's value came from: the activity's own hints, or an enrichment provider. Null when the value is empty or its source unknown.",
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['activity', 'enrichment'] },
    activity_id: { type: 'string', example: 'act_0384275394154701033', description: 'When `type` is `activity`.' },
    provider: { type: 'string', example: 'directory', description: 'When `type` is `enrichment`.' },
  },
});

const CRITERION_VERDICT_SCHEMA = namedSchema('CriterionVerdict', {
  type: 'object',
  required: ['kind', 'label', 'status', 'expected', 'value', 'source'],
  properties: {
    // A verdict names a criterion by its kind; `keyword` is only how a reading shows an industry of unknown words.
    kind: { type: 'string', enum: CRITERION_KINDS.filter((kind) => kind !== 'keyword'), example: 'employees' },
    label: { type: 'string', example: 'employees' },
    status: { type: 'string', enum: ['pass', 'fail', 'unknown'] },
    expected: { type: 'string', example: '100–999', description: 'What the profile asks for, as the reasoning quotes it.' },
    value: { type: 'string', example: '340', description: "The Buyer's value it was checked against; empty when unknown." },
    source: nullableRef(
      SOURCE_SCHEMA,
      "Where the Buyer's value came from: the activity's own hints, or an enrichment provider. Null when the value is empty or its source unknown.",
    ),
  },
});

const evaluationSideSchema = (name: string, prefix: string): ReferenceObject =>
  namedSchema(name, {
    type: 'object',
    required: ['matched', 'profile', 'reasoning', 'criteria'],
    properties: {
      matched: { type: 'boolean', description: "The Buyer's `is_icp` / `is_persona`." },
      profile: {
        type: 'object',
        nullable: true,
        description: 'The matched profile, or the closest one when none matched; null when there was none to judge by.',
        properties: { id: { type: 'string', example: `${prefix}0384275394154701033` }, name: str },
      },
      reasoning: { type: 'string', description: "The Buyer's `icp_reasoning` / `persona_reasoning`, written from the same verdicts." },
      criteria: { type: 'array', items: CRITERION_VERDICT_SCHEMA },
    },
  });

const BUYER_EVALUATION_SCHEMA = namedSchema('BuyerEvaluation', {
  type: 'object',
  required: ['object', 'buyer_id', 'activity_id', 'icp', 'persona'],
  properties: {
    object: { type: 'string', enum: ['buyer_evaluation'] },
    buyer_id: { type: 'string', example: 'buy_0384275394154701033' },
    activity_id: {
      type: 'string',
      nullable: true,
      example: 'act_0384275394154701033',
      description: 'The activity the evaluation was made for.',
    },
    icp: evaluationSideSchema('IcpEvaluation', 'icp_'),
    persona: evaluationSideSchema('PersonaEvaluation', 'per_'),
  },
});

const BUYER_ERRORS = { record: 'Buyer' };

const BUYER_ID_PARAM = ApiParam({
  name: 'buyer_id',
  required: true,
  schema: { type: 'string', pattern: '^buy_', example: 'buy_0384275394154701033' },
});

@Controller(apiAndConsole('v1/buyers', 'buyers'))
@ApiTags('Buyers')
@ApiKeyAuth()
export class BuyersController {
  constructor(private readonly buyers: BuyersService) {}

  @Get()
  @ApiOperation({ operationId: 'list_buyers', summary: 'List Buyers, newest first by default' })
  @ApiKeysetListQueries('created_at')
  @ApiOkResponse({ description: 'One page of Buyers', schema: BUYER_PAGE })
  @ApiErrors({ list: true }, 400, 503)
  @TakesQuery()
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(buyerListQuery) query: BuyerListQuery) {
    return this.buyers.list(ctx, query);
  }

  @Get(':buyer_id')
  @ApiOperation({ operationId: 'get_buyer', summary: 'Retrieve a Buyer' })
  @BUYER_ID_PARAM
  @ApiOkResponse({ description: 'The Buyer', schema: BUYER_SCHEMA })
  @ApiErrors(BUYER_ERRORS, 404, 503)
  get(@CurrentWorkspace() ctx: WorkspaceContext, @Param('buyer_id') buyerId: string) {
    return this.buyers.get(ctx, buyerId);
  }

  @Get(':buyer_id/evaluation')
  @ApiOperation({
    operationId: 'get_buyer_evaluation',
    summary: "A Buyer's evaluation, criterion by criterion",
    description:
      'For the matched ICP and Persona (or the closest ones when none matched), each criterion with its verdict, ' +
      "the Buyer's value it was checked against and where that value came from. `matched` and `reasoning` are the " +
      "Buyer's own `is_icp`/`icp_reasoning` and `is_persona`/`persona_reasoning`. Buyers evaluated before verdicts " +
      'were kept list no criteria until their next Signal.',
  })
  @BUYER_ID_PARAM
  @ApiOkResponse({ description: 'The evaluation', schema: BUYER_EVALUATION_SCHEMA })
  @ApiErrors(BUYER_ERRORS, 404, 503)
  evaluation(@CurrentWorkspace() ctx: WorkspaceContext, @Param('buyer_id') buyerId: string) {
    return this.buyers.evaluation(ctx, buyerId);
  }
}
