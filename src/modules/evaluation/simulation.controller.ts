import { applyDecorators, Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
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
import { SIMULATE_DEFAULT_BUYERS, SIMULATE_MAX_BUYERS, SimulationService } from './simulation.service';
import { apiAndConsole } from '../../shared/interface/http/request-context';

const REQUEST = namedSchema('SimulateRequest', {
  type: 'object',
  required: ['description'],
  additionalProperties: false,
  properties: {
    description: { type: 'string', maxLength: 10_000, description: 'The draft description to evaluate.' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SIMULATE_MAX_BUYERS,
      default: SIMULATE_DEFAULT_BUYERS,
      description: 'How many of the most recently created Buyers to evaluate.',
    },
  },
});

const VERDICT = namedSchema('SimulationVerdict', {
  type: 'object',
  properties: { status: { type: 'string', enum: ['passed', 'failed', 'unknown'] }, expected: str },
});

const EXAMPLE = namedSchema('SimulationExample', {
  type: 'object',
  properties: {
    buyer_id: { type: 'string', example: 'buy_0384275394154701033' },
    name: str,
    company: str,
    criterion: {
      type: 'object',
      nullable: true,
      description: 'The criterion that made the difference, with its verdict under each description.',
      properties: { kind: str, buyer_value: str, now: nullableRef(VERDICT), draft: nullableRef(VERDICT) },
    },
  },
});

const RESULT = namedSchema('SimulationResult', {
  type: 'object',
  properties: {
    evaluated: { type: 'integer' },
    matched_now: { type: 'integer' },
    matched_with_draft: { type: 'integer' },
    entered: { type: 'integer' },
    left: { type: 'integer' },
    examples: {
      type: 'object',
      properties: { entered: { type: 'array', items: EXAMPLE }, left: { type: 'array', items: EXAMPLE } },
    },
  },
});

function SimulateDocs(noun: 'ICP' | 'Persona', operationId: string, stored: boolean) {
  return applyDecorators(
    ApiOperation({
      operationId,
      summary: stored
        ? `What a new description of this ${noun} would change, without saving it`
        : `Which Buyers a new ${noun} with this description would match, without saving it`,
    }),
    ApiBody({ schema: REQUEST }),
    ApiOkResponse({ description: 'The Buyers that would enter and leave', schema: RESULT }),
    ApiErrors(
      { record: noun, body: { param: 'description', message: 'description is required.' } },
      400,
      ...(stored ? [404] : []),
      413,
      503,
    ),
  );
}

/**
 * What-if for ICP and Persona descriptions: the workspace's Buyers evaluated with a draft, nothing
 * written. Read-only keys may call these routes.
 */
@Controller(apiAndConsole('v1/kb', 'kb'))
@ApiTags('Evaluation')
@ApiKeyAuth()
export class SimulationController {
  constructor(private readonly simulation: SimulationService) {}

  @Post('icps/simulate')
  @HttpCode(200)
  @ReadsOnly()
  @Idempotent()
  @SimulateDocs('ICP', 'simulate_new_icp', false)
  simulateNewIcp(@CurrentWorkspace() ctx: WorkspaceContext, @Body() body: unknown) {
    return this.simulation.simulate(ctx, 'icp', null, body);
  }

  @Post('icps/:icp_id/simulate')
  @HttpCode(200)
  @ReadsOnly()
  @Idempotent()
  @SimulateDocs('ICP', 'simulate_icp', true)
  @ApiIdParam('icp_id', 'icp_')
  simulateIcp(@CurrentWorkspace() ctx: WorkspaceContext, @Param('icp_id') id: string, @Body() body: unknown) {
    return this.simulation.simulate(ctx, 'icp', id, body);
  }

  @Post('personas/simulate')
  @HttpCode(200)
  @ReadsOnly()
  @Idempotent()
  @SimulateDocs('Persona', 'simulate_new_persona', false)
  simulateNewPersona(@CurrentWorkspace() ctx: WorkspaceContext, @Body() body: unknown) {
    return this.simulation.simulate(ctx, 'persona', null, body);
  }

  @Post('personas/:persona_id/simulate')
  @HttpCode(200)
  @ReadsOnly()
  @Idempotent()
  @SimulateDocs('Persona', 'simulate_persona', true)
  @ApiIdParam('persona_id', 'per_')
  simulatePersona(@CurrentWorkspace() ctx: WorkspaceContext, @Param('persona_id') id: string, @Body() body: unknown) {
    return this.simulation.simulate(ctx, 'persona', id, body);
  }
}
