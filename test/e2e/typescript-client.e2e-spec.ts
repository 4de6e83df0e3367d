import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { allSignals, createBuyerIntelligenceClient, Signal, withRetry } from '../../clients/typescript/src';
import { insertBuyer, insertSignals } from '../support/read-model-fixtures';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

/**
 * The TypeScript client (`clients/typescript`) against the real service listening on a port:
 * its types are generated from the committed openapi.json, and it pages through Signals with
 * cursors and waits out 429s as `Retry-After` says.
 */

const ROOT = join(__dirname, '..', '..');
const SIGNALS = 5;

let t: TestApp;
let baseUrl: string;
let ws: TestWorkspace;

beforeAll(async () => {
  // A budget of 2 requests per 3 seconds: paging 5 Signals 2 at a time (3 requests) meets a 429.
  t = await startTestApp({ RATE_LIMIT_LIMIT: '2', RATE_LIMIT_TTL_S: '3' });
  await t.app.listen(0, '127.0.0.1');
  baseUrl = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  ws = await t.newWorkspace();
  const ds = t.app.get(DataSource);
  const buyer = await insertBuyer(ds, ws.workspace_id);
  await insertSignals(
    ds,
    ws.workspace_id,
    Array.from({ length: SIGNALS }, (_, i) => ({
      buyer_id: buyer.id,
      type: 'website' as const,
      trigger: 'visited_page',
      captured_at: new Date(Date.UTC(2026, 0, 1, 10, i)),
    })),
  );
});

afterAll(() => t?.close());

describe('the TypeScript client', () => {
  it('is generated from the committed openapi.json (regenerate both with npm run openapi)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bi-client-'));
    try {
      const out = join(dir, 'schema.d.ts');
      // The generator as `npm run openapi` runs it, writing to `out` instead of the client's file.
      execFileSync('npm', ['run', '--silent', 'openapi:types', '--', out], { cwd: ROOT, stdio: 'ignore' });
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(ROOT, 'clients', 'typescript', 'src', 'schema.d.ts'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pages through every Signal with cursors, waiting out the 429 with Retry-After', async () => {
    const statuses: number[] = [];
    const waits: number[] = [];
    const client = createBuyerIntelligenceClient({
      baseUrl,
      apiKey: ws.api_key,
      fetch: async (request: Request) => {
        const response = await fetch(request);
        statuses.push(response.status);
        return response;
      },
    });
    const seen: Signal[] = [];
    const sleep = (ms: number) => {
      waits.push(ms);
      return new Promise<void>((resolve) => setTimeout(resolve, ms));
    };
    for await (const signal of allSignals(client, { type: 'website', limit: 2 }, { sleep })) seen.push(signal);

    expect(seen).toHaveLength(SIGNALS);
    expect(new Set(seen.map((signal) => signal.id)).size).toBe(SIGNALS);
    // Newest first, as the API orders them; typed: `website` is the populated object.
    expect(seen.map((signal) => signal.captured_at)).toEqual([...seen.map((signal) => signal.captured_at)].sort().reverse());
    expect(seen.every((signal) => signal.type === 'website' && signal.website !== null && signal.market === null)).toBe(true);
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((ms) => ms >= 1000 && ms <= 3000)).toBe(true);
  });

  it('types the error envelope of a failed request', async () => {
    const client = createBuyerIntelligenceClient({ baseUrl, apiKey: ws.api_key });
    const { data, error, response } = await withRetry(() =>
      client.GET('/v1/buyers/{buyer_id}', { params: { path: { buyer_id: 'buy_0999999999999999999' } } }),
    );
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error.code).toBe('not_found');
    expect(error?.error.request_id).toMatch(/^req_/);
  });
});
