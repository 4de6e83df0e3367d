import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WorkspaceContext } from '../../shared/application/workspace-context';
import { CurrentWorkspace, ReadsOnly } from '../../shared/interface/http/auth.guard';
import { Idempotent } from '../../shared/interface/http/idempotency.interceptor';
import {
  ApiErrors,
  ApiIdParam,
  ApiKeyAuth,
  namedSchema,
  nullableRef,
  STRING_SCHEMA as str,
} from '../../shared/interface/http/openapi.decorators';
import { CRITERION_KINDS } from '../pipeline/profile-reading';
import { CriteriaService } from './criteria.service';
import { apiAndConsole } from '../../shared/interface/http/request-context';

const REQUEST = namedSchema('CriteriaRequest', {
  type: 'object',
  required: ['description'],
  additionalProperties: false,
  properties: { description: { type: 'string', maxLength: 10_000, description: 'The draft description to read.' } },
});

const SPAN = namedSchema('Span', {
  type: 'object',
  description:
    'A stretch of `description`: UTF-16 offsets (JavaScript string indices), `end` exclusive, so `description.slice(start, end)` is `text`.',
  required: ['start', 'end', 'text'],
  properties: { start: { type: 'integer', minimum: 0 }, end: { type: 'integer', minimum: 0 }, text: str },
});

const RANGE = namedSchema('CriterionRange', {
  type: 'object',
  description: 'Open ends are `null`. Head counts and years are inclusive; an amount may exclude a bound ("more than $10M").',
  required: ['min', 'max', 'min_exclusive', 'max_exclusive'],
  properties: {
    min: { type: 'number', nullable: true },
    max: { type: 'number', nullable: true },
    min_exclusive: { type: 'boolean' },
    max_exclusive: { type: 'boolean' },
  },
});

const EXCLUDED = namedSchema('ExcludedValue', {
  type: 'object',
  required: ['kind', 'value'],
  properties: { kind: { type: 'string', enum: CRITERION_KINDS.filter((k) => k !== 'exclusion') }, value: str },
});

const CRITERION = namedSchema('Criterion', {
  type: 'object',
  required: ['kind', 'label', 'negated', 'values', 'expected', 'assumed', 'span', 'spans'],
  properties: {
    kind: {
      type: 'string',
      enum: [...CRITERION_KINDS],
      description: 'An industry criterion made only of words the taxonomy does not know is `keyword`.',
    },
    label: { type: 'string', description: "The evaluator's name for it, as in a Buyer's reasoning", example: 'funding stage' },
    negated: { type: 'boolean', description: 'True only for `exclusion`' },
    values: {
      type: 'array',
      description: 'What it asks for, as a person reads it; for `exclusion`, each thing it rules out',
      items: { oneOf: [str, EXCLUDED] },
    },
    ranges: { type: 'array', items: RANGE, description: 'Only employees, revenue, total_funding and founded' },
    currency: { type: 'string', example: 'USD', description: 'Only revenue and total_funding; amounts are compared as written' },
    expected: { type: 'string', description: "What the profile asks for, exactly as a Buyer's reasoning says it" },
    assumed: {
      type: 'string',
      nullable: true,
      description: 'The default a word was read as',
      example: 'mid-market, read as 100–999',
    },
    span: nullableRef(SPAN, 'The first place in the description it comes from; null when none is found'),
    spans: { type: 'array', items: SPAN, description: 'Every place it comes from, in order' },
  },
});

const READING = namedSchema('CriteriaReading', {
  type: 'object',
  required: ['object', 'subject', 'description', 'criteria', 'ignored', 'assumptions'],
  properties: {
    object: { type: 'string', enum: ['criteria'] },
    subject: { type: 'string', enum: ['icp', 'persona'] },
    description: { type: 'string', description: 'The text read' },
    criteria: { type: 'array', items: CRITERION },
    ignored: { type: 'array', items: SPAN, description: 'Phrases read as context, not as criteria' },
    assumptions: {
      type: 'array',
      items: str,
      description: 'One sentence per criterion read from a word',
      example: ['mid-market read as 100–999 employees'],
    },
  },
});

function CriteriaDocs(noun: 'ICP' | 'Persona', operationId: string, stored: boolean) {
  return applyDecorators(
    ApiOperation({
      operationId,
      summary: stored
        ? `How the evaluator reads this ${noun}'s description: its criteria and where each comes from`
        : `How the evaluator would read a draft ${noun} description, without saving it`,
    }),
    ...(stored ? [] : [ApiBody({ schema: REQUEST })]),
    ApiOkResponse({ description: 'The criteria read, the phrases ignored and the defaults assumed', schema: READING }),
    ApiErrors(
      stored
        ? { record: noun, idParam: noun === 'ICP' ? { name: 'icp_id', prefix: 'icp_' } : { name: 'persona_id', prefix: 'per_' } }
        : { body: { param: 'description', message: 'description is required.' } },
      400,
      ...(stored ? [404, 503] : [413]),
    ),
  );
}

/**
 * Criteria shown back: how the default evaluator reads an ICP or Persona description, stored or
 * draft. Nothing is written; read-only keys may call every route.
 */
@Controller(apiAndConsole('v1/kb', 'kb'))
@ApiTags('Evaluation')
@ApiKeyAuth()
export class CriteriaController {
  constructor(private readonly criteria: CriteriaService) {}

  @Get('icps/:icp_id/criteria')
  @CriteriaDocs('ICP', 'get_icp_criteria', true)
  @ApiIdParam('icp_id', 'icp_')
  icp(@CurrentWorkspace() ctx: WorkspaceContext, @Param('icp_id') id: string) {
    return this.criteria.stored(ctx, 'icp', id);
  }

  @Get('personas/:persona_id/criteria')
  @CriteriaDocs('Persona', 'get_persona_criteria', true)
  @ApiIdParam('persona_id', 'per_')
  persona(@CurrentWorkspace() ctx: WorkspaceContext, @Param('persona_id') id: string) {
    return this.criteria.stored(ctx, 'persona', id);
  }

  @Post('icps/criteria')
  @HttpCode(200)
  @ReadsOnly()
  @Idempotent()
  @CriteriaDocs('ICP', 'read_icp_criteria', false)
  draftIcp(@Body() body: unknown) {
    return this.criteria.draft('icp', body);
  }

  @Post('personas/criteria')
  @HttpCode(200)
  @ReadsOnly()
  @Idempotent()
  @CriteriaDocs('Persona', 'read_persona_criteria', false)
  draftPersona(@Body() body: unknown) {
    return this.criteria.draft('persona', body);
  }
}
