import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiResponse } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import type { KbFieldSpec, KbFields } from '../../application/kb-fields';
import type { KbResource } from '../../application/kb-resource';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './list-query.pipe';

/**
 * OpenAPI metadata shared by the controllers. The schemas are derived from the same declarations
 * the validation uses, so the document cannot describe fields or limits the API does not apply.
 */

export const BEARER_SCHEME = 'api_key';
export const ERROR_SCHEMA_NAME = 'Error';
export const ERROR_SCHEMA_REF = `#/components/schemas/${ERROR_SCHEMA_NAME}`;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (`validation_error`, `invalid_parameter` or `invalid_cursor`; `param` names the offending input)',
  401: 'Missing, invalid or revoked API key (`authentication_error`)',
  403: 'The key is read-only (`permission_denied`)',
  404: 'Not found, deleted, or owned by another workspace (`not_found`)',
  409: 'Conflicting record, e.g. a `short_name` already in use (`conflict`)',
  413: 'Request body over 1 MiB (`payload_too_large`)',
  429: 'Workspace rate limit exceeded (`rate_limit_exceeded`); honour `Retry-After`',
  500: 'Unexpected server error (`internal_error`)',
  503: 'Temporarily unavailable (`service_unavailable`)',
};

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** The error envelope every failed request answers with. */
export const ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      additionalProperties: false,
      properties: {
        code: {
          type: 'string',
          enum: [
            'validation_error',
            'invalid_parameter',
            'invalid_cursor',
            'authentication_error',
            'permission_denied',
            'not_found',
            'conflict',
            'payload_too_large',
            'rate_limit_exceeded',
            'service_unavailable',
            'internal_error',
            'idempotency_key_mismatch',
            'idempotency_key_in_use',
          ],
        },
        message: { type: 'string' },
        request_id: { type: 'string', pattern: '^req_', example: 'req_8f2c1e0a9b7d4c3e' },
        param: { type: 'string', description: 'The offending parameter or field, when there is one' },
      },
    },
  },
  example: {
    error: { code: 'not_found', message: 'Competitor not found.', request_id: 'req_8f2c1e0a9b7d4c3e' },
  },
};

/** Error responses of an operation, all pointing at the shared envelope. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status] ?? 'Error', schema: { $ref: ERROR_SCHEMA_REF } }),
    ),
  );
}

/** `Authorization: Bearer svc_live_…` plus the failures every authenticated route shares. */
export function ApiKeyAuth(): ClassDecorator {
  return applyDecorators(ApiBearerAuth(BEARER_SCHEME), ApiErrors(401, 429, 500));
}

export const STRING_SCHEMA: SchemaObject = { type: 'string' };

/** A record's id in the path (`icp_id`), with an example of its prefix. */
export const ApiIdParam = (name: string, prefix: string): MethodDecorator =>
  ApiParam({ name, required: true, schema: { type: 'string', example: `${prefix}1234567890` } });

/** An object whose named properties are all strings (the many text-only objects of the API). */
export const stringsSchema = (...names: string[]): SchemaObject => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, STRING_SCHEMA])),
});

export const TIMESTAMP_SCHEMA: SchemaObject = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$',
  example: '2025-01-31T09:30:00Z',
};

export const LIMIT_QUERY = {
  name: 'limit',
  required: false,
  description: `Page size (default ${DEFAULT_PAGE_SIZE})`,
  schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
} as const;

export const CURSOR_QUERY = {
  name: 'cursor',
  required: false,
  description: 'Opaque `pagination.next_cursor` of the previous page, with the same filters and sort',
  schema: { type: 'string' },
} as const;

/** `{data: [...], pagination: {next_cursor}}`, optionally with the advisory `total`. */
export function pageSchema(item: SchemaObject | ReferenceObject, withTotal = false): SchemaObject {
  return {
    type: 'object',
    required: ['data', 'pagination'],
    properties: {
      ...(withTotal ? { total: { type: 'integer', description: 'Advisory; clients must not rely on it' } } : {}),
      data: { type: 'array', items: item },
      pagination: {
        type: 'object',
        required: ['next_cursor'],
        properties: { next_cursor: { type: 'string', nullable: true, description: '`null` at the end of the list' } },
      },
    },
  };
}

const RULE_FORMATS: Record<KbFieldSpec['rule'], { description?: string; example: string }> = {
  text: { example: '' },
  domain: { description: 'A bare domain name (no scheme, path or port)', example: 'example.com' },
  linkedin: { description: 'A LinkedIn company page URL', example: 'https://www.linkedin.com/company/acme' },
  image_url: { description: 'An absolute http or https URL', example: 'https://example.com/logo.png' },
  page_url: { description: 'An http(s) URL, or host and path such as example.com/pricing', example: 'example.com/pricing' },
};

function fieldExample(name: string, spec: KbFieldSpec): string {
  if (spec.rule !== 'text') return RULE_FORMATS[spec.rule].example;
  if (name === 'short_name') return 'acme';
  if (name === 'name') return 'Acme';
  return `A ${name.replace(/_/g, ' ')}`;
}

function fieldSchema(name: string, spec: KbFieldSpec, mode: 'create' | 'update'): SchemaObject {
  const clearable = spec.presence === 'clearable';
  return {
    type: 'string',
    maxLength: spec.maxLength,
    // `minLength` does not hold for clearable fields: `""` (or null) clears them.
    ...(clearable ? { nullable: true } : { minLength: 1 }),
    ...(RULE_FORMATS[spec.rule].description ? { description: RULE_FORMATS[spec.rule].description } : {}),
    ...(clearable && mode === 'update'
      ? { description: `${RULE_FORMATS[spec.rule].description ?? 'Text'}; \`null\` or \`""\` clears it` }
      : {}),
    example: fieldExample(name, spec),
  };
}

function bodyExample(fields: KbFields, mode: 'create' | 'update'): Record<string, string> {
  const entries = Object.entries(fields).filter(([, spec]) => mode === 'update' || spec.presence === 'required');
  return Object.fromEntries((mode === 'update' ? entries.slice(-1) : entries).map(([name, spec]) => [name, fieldExample(name, spec)]));
}

export interface KbSchemas {
  create: SchemaObject;
  update: SchemaObject;
  record: SchemaObject;
}

/** Request and response schemas of a knowledge-base resource, from its field declaration. */
export function kbSchemas(resource: KbResource): KbSchemas {
  const entries = Object.entries(resource.fields);
  const body = (mode: 'create' | 'update'): SchemaObject => {
    const required = mode === 'create' ? entries.filter(([, spec]) => spec.presence === 'required').map(([name]) => name) : [];
    return {
      type: 'object',
      title: `${mode === 'create' ? 'Create' : 'Update'}${resource.name.replace(/\s+/g, '')}Request`,
      additionalProperties: false,
      properties: Object.fromEntries(entries.map(([name, spec]) => [name, fieldSchema(name, spec, mode)])),
      ...(required.length > 0 ? { required } : {}),
      ...(mode === 'update' ? { minProperties: 1 } : {}),
      example: bodyExample(resource.fields, mode),
    };
  };
  const record: SchemaObject = {
    type: 'object',
    title: resource.name.replace(/\s+/g, ''),
    required: ['id', 'client_id', ...entries.map(([name]) => name), ...resource.computedFields, 'created_at', 'updated_at'],
    properties: {
      id: { type: 'string', example: `${resource.idPrefix}1234567890` },
      client_id: { type: 'string', example: 'wor_1234567890' },
      ...Object.fromEntries(entries.map(([name, spec]) => [name, { type: 'string', example: fieldExample(name, spec) }])),
      ...Object.fromEntries(
        resource.computedFields.map((name) => [name, { type: 'string', readOnly: true, description: 'Computed by the service' }]),
      ),
      created_by: {
        type: 'object',
        description: 'Who created the record',
        required: ['type', 'id'],
        properties: { type: { type: 'string', example: 'api_key' }, id: { type: 'string', example: 'key_1234567890' } },
      },
      created_at: TIMESTAMP_SCHEMA,
      updated_at: TIMESTAMP_SCHEMA,
    },
  };
  return { create: body('create'), update: body('update'), record };
}
