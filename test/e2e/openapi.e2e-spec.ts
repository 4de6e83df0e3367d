import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';

type Json = Record<string, unknown>;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every `$ref` in the document, with where it was found. */
function collectRefs(node: unknown, at = '#', found: Array<{ ref: string; at: string }> = []) {
  if (Array.isArray(node)) node.forEach((child, i) => collectRefs(child, `${at}/${i}`, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push({ ref: value, at });
      else collectRefs(value, `${at}/${key}`, found);
    }
  }
  return found;
}

/** Follows a local JSON pointer (`#/a/b~1c`); undefined when it leads nowhere. */
function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** The routes Express will dispatch, as `METHOD /openapi/{style}` strings. */
function registeredRoutes(t: TestApp): string[] {
  const express = t.app.getHttpAdapter().getInstance() as { router?: { stack: unknown[] }; _router?: { stack: unknown[] } };
  const stack = (express.router ?? express._router)!.stack as Array<{ route?: { path: unknown; methods: Record<string, boolean> } }>;
  const routes: string[] = [];
  for (const layer of stack) {
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const path of paths) {
      if (typeof path !== 'string') continue;
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && HTTP_METHODS.includes(method)) routes.push(`${method.toUpperCase()} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
      }
    }
  }
  return routes;
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let document: Json;

  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.http.get('/openapi.json');
    expect(res.status).toBe(200);
    document = res.body as Json;
  });
  afterAll(() => t.close());

  it('serves /openapi.json without a key as a structurally valid OpenAPI 3 document', async () => {
    const res = await t.http.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(document.openapi).toMatch(/^3\.\d+\.\d+$/);
    const info = document.info as Json;
    expect(typeof info.title).toBe('string');
    expect(typeof info.version).toBe('string');
    const paths = document.paths as Record<string, Json>;
    expect(Object.keys(paths).length).toBeGreaterThan(0);
    for (const [path, item] of Object.entries(paths)) {
      expect(path.startsWith('/')).toBe(true);
      const operations = Object.entries(item).filter(([key]) => HTTP_METHODS.includes(key));
      expect(operations.length).toBeGreaterThan(0);
      for (const [method, operation] of operations) {
        const responses = (operation as Json).responses as Json | undefined;
        expect({ op: `${method} ${path}`, hasResponses: Object.keys(responses ?? {}).length > 0 }).toEqual({
          op: `${method} ${path}`,
          hasResponses: true,
        });
        // Path templates and declared path parameters agree.
        const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
        const declared = (((operation as Json).parameters ?? []) as Json[])
          .filter((p) => p.in === 'path')
          .map((p) => p.name as string)
          .sort();
        expect({ op: `${method} ${path}`, declared }).toEqual({ op: `${method} ${path}`, declared: templated });
      }
    }
  });

  it('is the document committed as openapi.json (regenerate it with npm run openapi)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8')) as Json;
    expect(document).toEqual(committed);
  });

  it('has no dangling $ref', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(0);
    const dangling = refs.filter(({ ref }) => resolvePointer(document, ref) === undefined);
    expect(dangling).toEqual([]);
  });

  it('serves Swagger UI at /docs without a key', async () => {
    const res = await t.http.get('/docs').redirects(1);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
  });

  it('still refuses the API itself without a key', async () => {
    const res = await t.http.get('/v1/kb/competitors');
    expect(res.status).toBe(401);
  });

  it('documents every route the application registers, with its method', () => {
    // The console's routes (docs/console.md) are not the public API's and not in its document.
    const routes = registeredRoutes(t).filter((route) => !/ \/(docs|openapi\.json|console)(\/|$)/.test(route) && !/[*]/.test(route));
    // The collection must see the real routes, or the comparison below proves nothing.
    expect(routes).toEqual(expect.arrayContaining(['GET /v1/kb/icps/{icp_id}', 'POST /ingest/v1/activities', 'GET /v1/signals']));
    const paths = document.paths as Record<string, Json>;
    const missing = routes.filter((route) => {
      const [method, path] = route.split(' ');
      return !paths[path]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
    expect(registeredRoutes(t)).toEqual(expect.arrayContaining(['GET /console/api/kb/icps/{icp_id}', 'POST /console/api/session']));
    expect(Object.keys(paths).filter((path) => path.startsWith('/console'))).toEqual([]);
  });

  it('requires the bearer key on every /v1 and /ingest operation and references the error envelope', () => {
    const schemes = (document.components as Json).securitySchemes as Record<string, Json>;
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      if (!/^\/(v1|ingest)\//.test(path)) continue;
      for (const [method, operation] of Object.entries(item)) {
        const op = operation as Json;
        const security = op.security as Array<Record<string, unknown>>;
        expect({ op: `${method} ${path}`, security }).toEqual({ op: `${method} ${path}`, security: [{ api_key: [] }] });
        const unauthorized = (op.responses as Json)['401'] as Json;
        expect(JSON.stringify(unauthorized)).toContain('#/components/schemas/Error');
      }
    }
    expect(schemes.api_key).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares Idempotency-Key on every POST and PATCH of the API, with Idempotent-Replayed and the reused-key errors', () => {
    const operations: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      if (!/^\/(v1|ingest)\//.test(path)) continue;
      for (const method of ['post', 'patch']) {
        const op = item[method] as Json | undefined;
        if (!op) continue;
        operations.push(`${method} ${path}`);
        const header = ((op.parameters ?? []) as Json[]).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
        expect({ op: `${method} ${path}`, header }).toEqual({
          op: `${method} ${path}`,
          header: expect.objectContaining({ required: false, schema: expect.objectContaining({ minLength: 1, maxLength: 255 }) }),
        });
        const responses = op.responses as Record<string, Json>;
        const successes = Object.keys(responses).filter((status) => /^2/.test(status));
        expect(successes.length).toBeGreaterThan(0);
        for (const status of successes) {
          expect((responses[status].headers as Json | undefined)?.['Idempotent-Replayed']).toBeDefined();
        }
        expect(responses['400'].description).toContain('idempotency_key_mismatch');
        expect(responses['409'].description).toContain('idempotency_key_in_use');
      }
    }
    // The collection must see the write routes, or the checks above prove nothing.
    expect(operations).toEqual(
      expect.arrayContaining(['post /ingest/v1/activities', 'patch /v1/kb/icps/{icp_id}', 'post /v1/webhook-endpoints']),
    );
    const codes = ((((document.components as Json).schemas as Json).Error as Json).properties as Json).error as Json;
    expect(((codes.properties as Json).code as Json).enum).toEqual(
      expect.arrayContaining(['idempotency_key_mismatch', 'idempotency_key_in_use']),
    );
  });

  it('derives the Competitor create and update bodies from the field declarations', () => {
    const collection = (document.paths as Record<string, Json>)['/v1/kb/competitors'];
    const create = (((collection.post as Json).requestBody as Json).content as Json)['application/json'] as Json;
    expect(create.schema).toEqual({ $ref: '#/components/schemas/CreateCompetitorRequest' });
    const schema = resolvePointer(document, (create.schema as { $ref: string }).$ref) as {
      required: string[];
      properties: Record<string, Json>;
      additionalProperties: boolean;
    };
    expect([...schema.required].sort()).toEqual(['domain', 'name', 'short_name']);
    expect(schema.required).not.toContain('description');
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['name', 'short_name', 'domain', 'linkedin', 'logo', 'description']),
    );
    expect(schema.properties.description.type).toBe('string');
    expect(schema.properties.name.maxLength).toBe(200);
    expect(schema.additionalProperties).toBe(false);

    const item = (document.paths as Record<string, Json>)['/v1/kb/competitors/{id}'];
    const updateRef = ((((item.patch as Json).requestBody as Json).content as Json)['application/json'] as Json).schema as { $ref: string };
    const update = resolvePointer(document, updateRef.$ref) as Json;
    expect(update.required).toBeUndefined();
    expect(update.minProperties).toBe(1);
  });

  it('describes the Signals filters with their enumerations', () => {
    const list = ((document.paths as Record<string, Json>)['/v1/signals'].get as Json).parameters as Json[];
    const byName = Object.fromEntries(list.map((p) => [p.name, p.schema as Json]));
    expect(byName.type.enum).toEqual(['website', 'market', 'linkedin']);
    expect(byName.trigger.enum).toContain('evaluated_competitor');
    expect(byName.sort_by.enum).toEqual(['captured_at']);
    expect(byName.sort_order.enum).toEqual(['asc', 'desc']);
  });
});
