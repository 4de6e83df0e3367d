import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Public } from '../../shared/interface/http/auth.guard';

/** `GET /` without a key: where a newcomer finds the API's documentation, instead of a bare 401. */
@Controller()
export class RootController {
  @Public()
  @Get()
  @ApiOperation({ summary: 'Where the documentation is (no key needed)' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['name', 'docs', 'openapi', 'health', 'authentication'],
      properties: {
        name: { type: 'string' },
        docs: { type: 'string', example: '/docs' },
        openapi: { type: 'string', example: '/openapi.json' },
        health: { type: 'string', example: '/health/ready' },
        authentication: { type: 'string' },
      },
    },
  })
  root(): Record<string, string> {
    return {
      name: 'Buyer intelligence API',
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/health/ready',
      authentication: 'Authorization: Bearer <API key> on every /v1 and /ingest/v1 route',
    };
  }
}
