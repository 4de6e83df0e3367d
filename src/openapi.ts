import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger';
import { documentIdempotency } from './shared/interface/http/idempotency.interceptor';
import { OPENAPI_OVERVIEW } from './openapi-overview';
import { isConsolePath } from './shared/interface/http/request-context';
import { BEARER_SCHEME, HEADER_COMPONENTS, headerRef, namedSchemas, RATE_LIMIT_HEADERS } from './shared/interface/http/openapi.decorators';

export const DOCS_PATH = 'docs';
export const OPENAPI_JSON_PATH = 'openapi.json';

/**
 * The operational routes answer outside the error envelope and without a key; their controllers
 * carry no OpenAPI decorators, so what the document says about them is added here.
 */
const OPERATIONAL: Record<string, { summary: string; responses: OperationObject['responses'] }> = {
  '/health/live': {
    summary: 'Liveness probe',
    responses: {
      200: {
        description: 'The process answers',
        content: {
          'application/json': {
            schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
          },
        },
      },
    },
  },
  '/health/ready': {
    summary: 'Readiness probe: PostgreSQL reachable and migrations applied (Redis reported, not required)',
    responses: {
      200: { description: 'Ready', content: { 'application/json': { schema: { type: 'object' } } } },
      503: { description: 'Not ready', content: { 'application/json': { schema: { type: 'object' } } } },
    },
  },
  '/metrics': {
    summary: 'Prometheus metrics',
    responses: { 200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } } },
  },
};

/**
 * The rate limit's headers on the successes of every operation that needs a key (the limit is
 * per workspace, so the routes without one are not limited); the 429s declare them themselves.
 */
function documentRateLimits(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.post, item.patch, item.put, item.delete]) {
      if (!operation?.security?.some((requirement) => BEARER_SCHEME in requirement)) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^2\d\d$/.test(status) || !response || '$ref' in response) continue;
        response.headers = {
          ...Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, headerRef(name)])),
          ...response.headers,
        };
      }
    }
  }
}

/** The OpenAPI 3 document of the application's routes, generated from the controllers. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Buyer-intelligence API')
    .setDescription(OPENAPI_OVERVIEW)
    .setVersion('v1')
    // The service's own origin, wherever it is deployed.
    .addServer('/', 'This service')
    // An opaque key, not a JWT: `addSecurity` rather than `addBearerAuth`, which declares `bearerFormat: JWT`.
    .addSecurity(BEARER_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description: 'A workspace API key, `svc_live_…`, sent as `Authorization: Bearer svc_live_…`',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}`,
  });
  // The console's routes (the same handlers under `/console/api`, and its own) are not the public
  // API: documented in docs/console.md, not here.
  for (const path of Object.keys(document.paths)) if (isConsolePath(path)) delete document.paths[path];
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...namedSchemas() },
    headers: { ...document.components?.headers, ...HEADER_COMPONENTS },
  };
  for (const [path, described] of Object.entries(OPERATIONAL)) {
    const operation = document.paths[path]?.get;
    if (!operation) continue;
    operation.tags = ['Operations'];
    operation.summary = described.summary;
    operation.security = [];
    operation.responses = described.responses;
  }
  // The routes outside the API (`/`, the probes, the metrics) need no key: said explicitly.
  for (const [path, item] of Object.entries(document.paths)) {
    if (/^\/(v1|ingest)\//.test(path)) continue;
    for (const operation of [item.get, item.post, item.patch, item.put, item.delete]) {
      if (operation && !operation.security) operation.security = [];
    }
  }
  documentIdempotency(document);
  documentRateLimits(document);
  return document;
}

/** Swagger UI at `/docs` and the JSON document at `/openapi.json`, both public. */
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Buyer-intelligence API',
  });
  return document;
}
