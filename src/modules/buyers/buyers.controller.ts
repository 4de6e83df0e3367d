import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { keysetListQueryPipe, timestampParser } from '../../shared/interface/http/list-query.pipe';
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
import { BuyerListQuery, BuyersService } from './buyers.service';

const buyerListQuery = keysetListQueryPipe<BuyerListQuery>('created_at', {
  created_after: timestampParser,
  created_before: timestampParser,
});

const SIGNAL_TYPE: SchemaObject = { type: 'string', enum: ['website', 'market', 'linkedin'] };

/** The Buyer as served; the nested objects' absent texts are empty strings, never missing. */
export const BUYER_SCHEMA: SchemaObject = {
  type: 'object',
  title: 'Buyer',
  required: ['id', 'client_id', 'contact_info', 'company_info', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', example: 'buy_1234567890' },
    client_id: { type: 'string', example: 'wor_1234567890' },
    contact_info: {
      type: 'object',
      properties: {
        name: strings('first', 'middle', 'last'),
        role: strings('title', 'function', 'seniority', 'start_date'),
        email: { type: 'object', properties: { work: str, is_valid: { type: 'boolean' } } },
        phone: { type: 'object', properties: { mobile: str, is_valid: { type: 'boolean' } } },
        social: {
          type: 'object',
          properties: {
            ...strings('linkedin', 'twitter', 'github', 'facebook').properties,
            linkedin_followers: { type: 'integer' },
            is_linkedin_valid: { type: 'boolean' },
          },
        },
        location: strings('city', 'state', 'country', 'postal_code'),
        photo_url: str,
        is_persona: { type: 'boolean' },
        persona_id: str,
        persona_name: str,
        persona_reasoning: str,
      },
    },
    company_info: {
      type: 'object',
      properties: {
        ...strings('name', 'website', 'logo', 'company_type').properties,
        industries: { type: 'array', items: str },
        employee_count: { type: 'integer' },
        founded_year: { type: 'integer' },
        annual_revenue: { type: 'number' },
        total_funding: { type: 'number' },
        social: strings('linkedin', 'twitter', 'facebook'),
        location: strings('street_address', 'city', 'state', 'postal_code', 'country'),
        latest_funding_stage: str,
        latest_funding_round_date: { type: 'string', description: '`YYYY-MM-DD`, or `""` when absent' },
        is_icp: { type: 'boolean' },
        icp_id: str,
        icp_name: str,
        icp_reasoning: str,
      },
    },
    hems: { type: 'array', items: strings('type', 'value') },
    target_lists: { type: 'array', items: strings('id', 'name') },
    signal_count: {
      type: 'object',
      properties: Object.fromEntries(['total', 'website', 'market', 'linkedin'].map((name) => [name, { type: 'integer' }])),
    },
    attribution: strings('type', 'source', 'source_name', 'source_logo'),
    first_signal_id: str,
    last_signal_id: str,
    first_signal_type: SIGNAL_TYPE,
    last_signal_type: SIGNAL_TYPE,
    first_signal_trigger: str,
    last_signal_trigger: str,
    created_at: TIMESTAMP_SCHEMA,
    updated_at: TIMESTAMP_SCHEMA,
  },
};

const SOURCE_SCHEMA: SchemaObject = {
  type: 'object',
  title: 'ValueSource',
  nullable: true,
  description:
    "Where the Buyer's value came from: the activity's own hints, or an enrichment provider. Null when the value is empty or its source unknown.",
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['activity', 'enrichment'] },
    activity_id: { type: 'string', example: 'act_1234567890', description: 'When `type` is `activity`.' },
    provider: { type: 'string', example: 'directory', description: 'When `type` is `enrichment`.' },
  },
};

const CRITERION_VERDICT_SCHEMA: SchemaObject = {
  type: 'object',
  title: 'CriterionVerdict',
  required: ['kind', 'label', 'status', 'expected', 'value', 'source'],
  properties: {
    kind: {
      type: 'string',
      example: 'employees',
      description:
        'industry, employees, revenue, country, state, funding_stage, total_funding, founded, company_type, title, function, seniority or exclusion',
    },
    label: { type: 'string', example: 'employees' },
    status: { type: 'string', enum: ['pass', 'fail', 'unknown'] },
    expected: { type: 'string', example: '100–999', description: 'What the profile asks for, as the reasoning quotes it.' },
    value: { type: 'string', example: '340', description: "The Buyer's value it was checked against; empty when unknown." },
    source: SOURCE_SCHEMA,
  },
};

const evaluationSideSchema = (title: string, prefix: string): SchemaObject => ({
  type: 'object',
  title,
  required: ['matched', 'profile', 'reasoning', 'criteria'],
  properties: {
    matched: { type: 'boolean', description: "The Buyer's `is_icp` / `is_persona`." },
    profile: {
      type: 'object',
      nullable: true,
      description: 'The matched profile, or the closest one when none matched; null when there was none to judge by.',
      properties: { id: { type: 'string', example: `${prefix}1234567890` }, name: str },
    },
    reasoning: { type: 'string', description: "The Buyer's `icp_reasoning` / `persona_reasoning`, written from the same verdicts." },
    criteria: { type: 'array', items: CRITERION_VERDICT_SCHEMA },
  },
});

const BUYER_EVALUATION_SCHEMA: SchemaObject = {
  type: 'object',
  title: 'BuyerEvaluation',
  required: ['object', 'buyer_id', 'activity_id', 'icp', 'persona'],
  properties: {
    object: { type: 'string', enum: ['buyer_evaluation'] },
    buyer_id: { type: 'string', example: 'buy_1234567890' },
    activity_id: { type: 'string', nullable: true, example: 'act_1234567890', description: 'The activity the evaluation was made for.' },
    icp: evaluationSideSchema('IcpEvaluation', 'icp_'),
    persona: evaluationSideSchema('PersonaEvaluation', 'per_'),
  },
};

const BUYER_ID_PARAM = ApiParam({
  name: 'buyer_id',
  required: true,
  schema: { type: 'string', pattern: '^buy_', example: 'buy_1234567890' },
});

@Controller('v1/buyers')
@ApiTags('Buyers')
@ApiKeyAuth()
export class BuyersController {
  constructor(private readonly buyers: BuyersService) {}

  @Get()
  @ApiOperation({ operationId: 'list_buyers', summary: 'List Buyers, newest first by default' })
  @ApiQuery(LIMIT_QUERY)
  @ApiQuery(CURSOR_QUERY)
  @ApiQuery({ name: 'created_after', required: false, description: '`created_at >= value`', schema: TIMESTAMP_SCHEMA })
  @ApiQuery({ name: 'created_before', required: false, description: '`created_at < value`', schema: TIMESTAMP_SCHEMA })
  @ApiQuery({ name: 'sort_by', required: false, schema: { type: 'string', enum: ['created_at'], default: 'created_at' } })
  @ApiQuery({ name: 'sort_order', required: false, schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } })
  @ApiOkResponse({ description: 'One page of Buyers', schema: pageSchema(BUYER_SCHEMA, true) })
  @ApiErrors(400, 503)
  list(@CurrentWorkspace() ctx: WorkspaceContext, @Query(buyerListQuery) query: BuyerListQuery) {
    return this.buyers.list(ctx, query);
  }

  @Get(':buyer_id')
  @ApiOperation({ operationId: 'get_buyer', summary: 'Retrieve a Buyer' })
  @BUYER_ID_PARAM
  @ApiOkResponse({ description: 'The Buyer', schema: BUYER_SCHEMA })
  @ApiErrors(400, 404, 503)
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
  @ApiErrors(400, 404, 503)
  evaluation(@CurrentWorkspace() ctx: WorkspaceContext, @Param('buyer_id') buyerId: string) {
    return this.buyers.evaluation(ctx, buyerId);
  }
}
