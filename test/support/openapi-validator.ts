import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

const DOCUMENT_ID = 'openapi.json';

/**
 * OpenAPI 3.0 schemas as JSON Schema for Ajv: `nullable: true` becomes "or null" (Ajv accepts
 * `nullable` only beside `type`, and the document also puts it beside `allOf`). With `closed`,
 * every object schema that lists its properties and says nothing of others refuses unlisted ones,
 * so a field the service sends but the document does not describe fails validation.
 */
export function toJsonSchema(node: unknown, closed: boolean): unknown {
  if (Array.isArray(node)) return node.map((child) => toJsonSchema(child, closed));
  if (node === null || typeof node !== 'object') return node;
  const source = node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example' || key === 'examples') continue;
    // `properties` and `examples` hold names, not schemas; their values are schemas.
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Json).map(([name, schema]) => [name, toJsonSchema(schema, closed)]))
        : toJsonSchema(value, closed);
  }
  if (closed && out.properties !== undefined && out.additionalProperties === undefined) out.additionalProperties = false;
  if (source.nullable === true) return { anyOf: [out, { type: 'null' }] };
  return out;
}

export interface Problem {
  path: string;
  message: string;
}

/** Validates values against the document's component schemas (and inline schemas that refer to them). */
export class OpenApiValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(
    readonly document: Json,
    private readonly closed: boolean,
  ) {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    const components = document.components as Json;
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: toJsonSchema(components.schemas, closed) } });
  }

  /** Problems of `value` against `schema` (a `$ref` into the document or an inline schema); empty when valid. */
  validate(schema: unknown, value: unknown): Problem[] {
    const key = JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(toJsonSchema(schema, this.closed)) as Json);
      this.cache.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => ({
      path: error.instancePath || '/',
      message: `${error.message ?? 'invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
    }));
  }
}

/** `#/components/...` refs of an inline schema, pointed at the document added to Ajv. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Json).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : rebase(value),
    ]),
  );
}
