import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { HeaderObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { AppError } from '../../application/app-error';
import { ErrorCode, ERROR_STATUS } from '../../domain/errors';
import type { KbFieldSpec, KbFields } from '../../application/kb-fields';
import type { KbResource } from '../../application/kb-resource';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './list-query.pipe';

/**
 * OpenAPI metadata shared by the controllers. The schemas are derived from the same declarations
 * the validation uses, so the document cannot describe fields or limits the API does not apply.
 */

export const BEARER_SCHEME = 'api_key';
export const ERROR_SCHEMA_NAME = 'Error';
export const ERROR_SCHEMA_REF = getSchemaPath(ERROR_SCHEMA_NAME);

/**
 * Named component schemas, registered by the controllers as their decorators are evaluated and
 * added to `components.schemas` when the document is built, so that every record, page and body
 * is referenced by name (`#/components/schemas/Buyer`) and a generated client gets named types.
 */
const NAMED_SCHEMAS = new Map<string, SchemaObject>();

/** Registers `schema` as `components.schemas[name]` and answers its `$ref`. */
export function namedSchema(name: string, schema: SchemaObject): ReferenceObject {
  const existing = NAMED_SCHEMAS.get(name);
  if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) throw new Error(`Two different schemas are named ${name}`);
  NAMED_SCHEMAS.set(name, schema);
  return { $ref: getSchemaPath(name) };
}

/** Every named schema, sorted by name. */
export function namedSchemas(): Record<string, SchemaObject> {
  return Object.fromEntries([...NAMED_SCHEMAS.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** A named object schema that may also be `null` (OpenAPI 3.0 ignores siblings of a bare `$ref`, and `nullable` needs `type`). */
export const nullableRef = (ref: ReferenceObject, description?: string): SchemaObject => ({
  type: 'object',
  nullable: true,
  allOf: [ref],
  ...(description ? { description } : {}),
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (`validation_error`, `invalid_parameter` or `invalid_cursor`; `param` names the offending input)',
  401: 'Missing, invalid or revoked API key (`authentication_error`)',
  403: 'The key is read-only (`permission_denied`)',
  404: 'Not found, deleted, or owned by another workspace (`not_found`)',
  409: 'Conflicting record, e.g. a `short_name` already in use (`conflict`)',
  413: 'Request body over 1 MiB (`payload_too_large`)',
  429: 'Workspace rate limit exceeded (`rate_limit_exceeded`); wait `Retry-After` seconds',
  500: 'Unexpected server error (`internal_error`)',
  503: 'Temporarily unavailable (`service_unavailable`); retry after `Retry-After` seconds',
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
          description: 'Machine-readable; the HTTP status follows from it (see the overview).',
          enum: Object.values(ErrorCode),
        },
        message: { type: 'string', description: 'Human-readable; never contains a key or a secret.' },
        request_id: { type: 'string', pattern: '^req_', example: 'req_8f2c1e0a9b7d4c3e' },
        param: {
          type: 'string',
          description: 'The offending parameter, field or header (`limit`, `activities[3].trigger`), when there is one',
        },
      },
    },
  },
};
namedSchema(ERROR_SCHEMA_NAME, ERROR_SCHEMA);

const REQUEST_ID = 'req_8f2c1e0a9b7d4c3e';

export interface ErrorExample {
  summary: string;
  value: { error: { code: ErrorCode; message: string; request_id: string; param?: string } };
}

/** An example of the envelope, as the service writes it. */
export function errorExample(code: ErrorCode, message: string, param?: string): ErrorExample {
  return {
    summary: `${ERROR_STATUS[code]} ${code}`,
    value: { error: { code, message, request_id: REQUEST_ID, ...(param !== undefined ? { param } : {}) } },
  };
}

/** What an operation's error examples say: the kind of input it takes and what it looks up. */
export interface ErrorContext {
  /** The record a 404 is about, as the message names it (`No such Buyer.`). */
  record?: string;
  /** A list: 400 is a bad query parameter or cursor. */
  list?: boolean;
  /** A JSON body: 400 is a `validation_error` naming the field. */
  body?: { param: string; message: string };
  /** A path id that can be malformed: 400 names the path parameter. */
  idParam?: { name: string; prefix: string };
}

function examplesFor(status: number, context: ErrorContext): Record<string, ErrorExample> {
  const examples: Record<string, ErrorExample> = {};
  const add = (example: ErrorExample) => {
    examples[example.value.error.code] = example;
  };
  switch (status) {
    case 400:
      if (context.list) {
        add(errorExample(ErrorCode.invalidParameter, `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`, 'limit'));
        add(errorExample(ErrorCode.invalidCursor, 'The cursor is malformed, was altered, or belongs to a different request.', 'cursor'));
      }
      if (context.body) add(errorExample(ErrorCode.validation, context.body.message, context.body.param));
      else if (context.idParam) {
        const { name, prefix } = context.idParam;
        add(errorExample(ErrorCode.validation, `${name} must be an id of the form ${prefix}<digits>.`, name));
      }
      if (Object.keys(examples).length === 0) {
        add(errorExample(ErrorCode.invalidParameter, 'Unknown query parameter "expand".', 'expand'));
      }
      break;
    case 401:
      add(errorExample(ErrorCode.authentication, AppError.unauthenticated().message));
      break;
    case 403:
      add(errorExample(ErrorCode.permissionDenied, 'This API key is read-only; a key with write scope is required.'));
      break;
    case 404:
      add(errorExample(ErrorCode.notFound, `No such ${context.record ?? 'record'}.`));
      break;
    case 409:
      add(errorExample(ErrorCode.conflict, `short_name is already used by another active ${context.record ?? 'record'}.`, 'short_name'));
      break;
    case 413:
      add(errorExample(ErrorCode.payloadTooLarge, 'The request body is larger than 1 MiB.'));
      break;
    case 429:
      add(errorExample(ErrorCode.rateLimitExceeded, 'Rate limit exceeded. Retry after 17 seconds.'));
      break;
    case 500:
      add(errorExample(ErrorCode.internal, 'An unexpected error occurred. Quote the request_id when reporting it.'));
      break;
    case 503:
      add(errorExample(ErrorCode.serviceUnavailable, 'The service is temporarily unavailable; retry shortly.'));
      break;
  }
  return examples;
}

/** Response headers shared by many operations, under `components.headers`. */
export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;
export const RETRY_AFTER_HEADER = 'Retry-After';

export const HEADER_COMPONENTS: Record<string, HeaderObject> = {
  'X-RateLimit-Limit': {
    description: "The workspace's budget: requests per window (absent while the rate limit's store does not answer).",
    schema: { type: 'string', pattern: '^\\d+$', example: '600' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'string', pattern: '^\\d+$', example: '599' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window ends and the budget is whole again.',
    schema: { type: 'string', pattern: '^\\d+$', example: '60' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying: always on 429 and 503, and on 409 `idempotency_key_in_use`.',
    schema: { type: 'string', pattern: '^\\d+$', example: '17' },
  },
};

export const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });

const errorHeaders = (status: number): Record<string, ReferenceObject> | undefined => {
  if (status === 429) {
    return Object.fromEntries([RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS].map((name) => [name, headerRef(name)]));
  }
  if (status === 503) return { [RETRY_AFTER_HEADER]: headerRef(RETRY_AFTER_HEADER) };
  return undefined;
};

/**
 * Error responses of an operation, all pointing at the shared envelope, each with an example per
 * error code it can carry; an optional context first makes the examples fit the operation.
 */
export function ApiErrors(...args: Array<number | ErrorContext>): MethodDecorator & ClassDecorator {
  const context = args.find((arg): arg is ErrorContext => typeof arg === 'object') ?? {};
  const statuses = args.filter((arg): arg is number => typeof arg === 'number');
  return applyDecorators(
    ...statuses.map((status) => {
      const headers = errorHeaders(status);
      const options = {
        status,
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        schema: { $ref: ERROR_SCHEMA_REF },
        examples: examplesFor(status, context),
        ...(headers ? { headers } : {}),
      };
      return ApiResponse(options);
    }),
  );
}

/** `Authorization: Bearer svc_live_…` plus the failures every authenticated route shares. */
export function ApiKeyAuth(): ClassDecorator {
  return applyDecorators(ApiBearerAuth(BEARER_SCHEME), ApiErrors(401, 429, 500));
}

export const STRING_SCHEMA: SchemaObject = { type: 'string' };

/** A record's id in the path (`icp_id`), with an example of its prefix. */
export const ApiIdParam = (name: string, prefix: string): MethodDecorator =>
  ApiParam({ name, required: true, schema: { type: 'string', example: `${prefix}0384275394154701033` } });

/** An object whose named properties are all strings (the many text-only objects of the API). */
export const stringsSchema = (...names: string[]): SchemaObject => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, STRING_SCHEMA])),
});

export interface TemplateSchemaOptions {
  /** Every key present in every answer (a response), or none required (an input's hints). */
  complete: boolean;
  /** Numeric keys that are whole numbers; the other numbers are `number`. */
  integers?: ReadonlySet<string>;
  /** Schemas that replace what the template's value suggests, by key. */
  overrides?: Record<string, SchemaObject | ReferenceObject>;
}

/**
 * The schema of an object built from a template of default values (`{name: {first: ''}, employee_count: 0}`),
 * as the service builds its nested objects, so the document and the shape cannot disagree.
 */
export function templateSchema(template: Record<string, unknown>, options: TemplateSchemaOptions): SchemaObject {
  const properties: Record<string, SchemaObject | ReferenceObject> = {};
  for (const [key, value] of Object.entries(template)) {
    const override = options.overrides?.[key];
    if (override) properties[key] = override;
    else if (Array.isArray(value)) properties[key] = { type: 'array', items: { type: 'string' } };
    else if (value !== null && typeof value === 'object') properties[key] = templateSchema(value as Record<string, unknown>, options);
    else if (typeof value === 'number') properties[key] = { type: options.integers?.has(key) ? 'integer' : 'number' };
    else if (typeof value === 'boolean') properties[key] = { type: 'boolean' };
    else properties[key] = { type: 'string' };
  }
  return { type: 'object', ...(options.complete ? { required: Object.keys(template) } : {}), properties };
}

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

const PAGINATION = namedSchema('Pagination', {
  type: 'object',
  required: ['next_cursor'],
  additionalProperties: false,
  properties: {
    next_cursor: {
      type: 'string',
      nullable: true,
      description: 'Pass it as `cursor` for the next page; `null` at the end of the list (a short page is not the end).',
    },
  },
});

/** `{data: [...], pagination: {next_cursor}}`, named `<Item>Page`. */
export function pageSchema(itemName: string, item: ReferenceObject): ReferenceObject {
  return namedSchema(`${itemName}Page`, {
    type: 'object',
    description: `One page of ${itemName} records, in the list's order.`,
    required: ['data', 'pagination'],
    properties: { data: { type: 'array', items: item }, pagination: PAGINATION },
  });
}

const RULE_FORMATS: Record<KbFieldSpec['rule'], { description?: string; example: string }> = {
  text: { example: '' },
  domain: { description: 'A bare domain name (no scheme, path or port)', example: 'example.com' },
  linkedin: { description: 'A LinkedIn company page URL', example: 'https://www.linkedin.com/company/acme' },
  image_url: { description: 'An absolute http or https URL', example: 'https://example.com/logo.png' },
  page_url: { description: 'An http(s) URL, or host and path such as example.com/pricing', example: 'example.com/pricing' },
};

/**
 * The query parameters of a keyset list sorted on `timeColumn` (`created_at`): `limit`, `cursor`,
 * the time range on that column (`created_after`, `created_before`), `sort_by` and `sort_order`.
 */
export function ApiKeysetListQueries(timeColumn: string): MethodDecorator {
  const range = timeColumn.replace(/_at$/, '');
  return applyDecorators(
    ApiQuery(LIMIT_QUERY),
    ApiQuery(CURSOR_QUERY),
    ApiQuery({ name: `${range}_after`, required: false, description: `\`${timeColumn} >= value\``, schema: TIMESTAMP_SCHEMA }),
    ApiQuery({ name: `${range}_before`, required: false, description: `\`${timeColumn} < value\``, schema: TIMESTAMP_SCHEMA }),
    ApiQuery({ name: 'sort_by', required: false, schema: { type: 'string', enum: [timeColumn], default: timeColumn } }),
    ApiQuery({ name: 'sort_order', required: false, schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } }),
  );
}

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
  create: ReferenceObject;
  update: ReferenceObject;
  record: ReferenceObject;
  page: ReferenceObject;
}

const CREATED_BY = namedSchema('CreatedBy', {
  type: 'object',
  description: 'Who created the record',
  required: ['type', 'id'],
  properties: { type: { type: 'string', example: 'api_key' }, id: { type: 'string', example: 'key_0384275394154701033' } },
});

/** The schema name of a knowledge-base resource (`Target Page` → `TargetPage`). */
export const kbSchemaName = (resource: KbResource): string => resource.name.replace(/\s+/g, '');

/** Request and response schemas of a knowledge-base resource, from its field declaration, named after it. */
export function kbSchemas(resource: KbResource): KbSchemas {
  const entries = Object.entries(resource.fields);
  const name = kbSchemaName(resource);
  const body = (mode: 'create' | 'update'): SchemaObject => {
    const required = mode === 'create' ? entries.filter(([, spec]) => spec.presence === 'required').map(([field]) => field) : [];
    return {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(entries.map(([field, spec]) => [field, fieldSchema(field, spec, mode)])),
      ...(required.length > 0 ? { required } : {}),
      ...(mode === 'update' ? { minProperties: 1 } : {}),
      example: bodyExample(resource.fields, mode),
    };
  };
  const record = namedSchema(name, {
    type: 'object',
    description: `A ${resource.name} record (\`${resource.idPrefix}…\`).`,
    required: ['id', 'client_id', ...entries.map(([field]) => field), ...resource.computedFields, 'created_at', 'updated_at'],
    properties: {
      id: { type: 'string', example: `${resource.idPrefix}0384275394154701033` },
      client_id: { type: 'string', example: 'wor_0384275394154701033' },
      ...Object.fromEntries(entries.map(([field, spec]) => [field, { type: 'string', example: fieldExample(field, spec) }])),
      ...Object.fromEntries(
        resource.computedFields.map((field) => [field, { type: 'string', readOnly: true, description: 'Computed by the service' }]),
      ),
      created_by: CREATED_BY,
      created_at: TIMESTAMP_SCHEMA,
      updated_at: TIMESTAMP_SCHEMA,
    },
  });
  return {
    create: namedSchema(`Create${name}Request`, body('create')),
    update: namedSchema(`Update${name}Request`, body('update')),
    record,
    page: pageSchema(name, record),
  };
}
