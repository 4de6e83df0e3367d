import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger';
import { documentIdempotency } from './shared/interface/http/idempotency.interceptor';
import { BEARER_SCHEME, ERROR_SCHEMA, ERROR_SCHEMA_NAME } from './shared/interface/http/openapi.decorators';

export const DOCS_PATH = 'docs';
export const OPENAPI_JSON_PATH = 'openapi.json';

/**
 * The operational routes answer outside the error envelope and without a key; their controllers
 * carry no OpenAPI decorators, so what the document says about them is added here.
 */
const OPERATIONAL: Record<string, { summary: string; responses: OperationObject['responses'] }> = {
  '/health/live': { summary: 'Liveness probe', responses: { 200: { description: '`{"status":"ok"}`' } } },
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

/** The OpenAPI 3 document of the application's routes, generated from the controllers. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Buyer-intelligence API')
    .setDescription(
      'Knowledge base, Buyers, Signals and activity intake. Every `/v1` and `/ingest` request carries ' +
        '`Authorization: Bearer svc_live_…`; failures answer with the `Error` envelope.',
    )
    .setVersion('v1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A workspace API key, `svc_live_…`' }, BEARER_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}`,
  });
  document.components = { ...document.components, schemas: { ...document.components?.schemas, [ERROR_SCHEMA_NAME]: ERROR_SCHEMA } };
  for (const [path, described] of Object.entries(OPERATIONAL)) {
    const operation = document.paths[path]?.get;
    if (!operation) continue;
    operation.tags = ['Operations'];
    operation.summary = described.summary;
    operation.security = [];
    operation.responses = described.responses;
  }
  documentIdempotency(document);
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
