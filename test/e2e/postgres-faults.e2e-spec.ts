import { PassThrough } from 'node:stream';
import type { Response } from 'supertest';
import { apiKeyHashText } from '../../src/modules/workspaces/api-key';
import { CachingApiKeyAuthenticator } from '../../src/modules/workspaces/api-key-cache';
import { expectError } from '../support/assertions';
import { PgCluster } from '../support/pg-cluster';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';

/*
 * PostgreSQL taken away for real: the app's database lives on a private cluster that these tests
 * freeze (SIGSTOP: connections stay open, nothing answers) and stop. The API must answer 503
 * within its bounds rather than wait, and the key cache's revocation listener must come back
 * through one backed-off loop, not one connection attempt per request.
 */

/** What the API promises when PostgreSQL does not answer: the query and connect timeouts (5 s) plus overhead. */
const FROZEN_BOUND_MS = 10_000;
/** The listener's attempts during a 20 s outage, with 0.5 s doubling to 10 s (about 6), and some room. */
const MAX_LISTENER_ATTEMPTS = 8;

let cluster: PgCluster;
let t: TestApp;
const lines: Array<{ level: number; context?: string; msg?: string }> = [];

beforeAll(async () => {
  cluster = await PgCluster.create();
  const logs = new PassThrough();
  logs.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
  });
  t = await startTestApp({ LOG_LEVEL: 'debug' }, { databaseAdminUrl: cluster.adminUrl, logDestination: logs });
}, 60_000);

afterAll(async () => {
  // The app needs its database to close (a test may have failed with the cluster frozen or
  // stopped); the cluster goes whatever happened.
  try {
    await cluster?.start();
  } finally {
    try {
      await t?.close();
    } finally {
      await cluster?.drop();
    }
  }
}, 60_000);

const icps = (ws: TestWorkspace) => t.http.get('/v1/kb/icps').set('Authorization', ws.auth);

/** The listener's log lines from `from` on. */
const listenerLines = (from: number) => lines.slice(from).filter((line) => line.context === CachingApiKeyAuthenticator.name);

/** A workspace whose key is remembered: the listener is up and the key was looked up since. */
async function cachedWorkspace(): Promise<TestWorkspace> {
  const ws = await t.newWorkspace();
  const cache = t.app.get<unknown, { entries: Map<string, unknown> }>(CachingApiKeyAuthenticator);
  await waitFor(
    async () => {
      expect((await icps(ws)).status).toBe(200);
      return cache.entries.has(apiKeyHashText(ws.api_key));
    },
    (cached) => cached,
    { what: 'the key to be cached' },
  );
  return ws;
}

function expectUnavailable(res: Response): void {
  expectError(res, 503, 'service_unavailable');
  expect(res.headers['retry-after']).toBe('5');
}

test('a frozen PostgreSQL is answered with 503 within the bound, and requests succeed again once it runs', async () => {
  const ws = await cachedWorkspace();
  // Several pooled connections open and idle.
  for (const res of await Promise.all(Array.from({ length: 4 }, () => icps(ws)))) expect(res.status).toBe(200);

  cluster.freeze();
  const timings: number[] = [];
  try {
    // The first request waits on an open connection (query timeout), the second on what the pool
    // has left or must open (connect timeout), the third for a key the cache does not hold, looked
    // up in the database.
    const unknownKey = `Bearer svc_live_${'x'.repeat(40)}`;
    for (const auth of [ws.auth, ws.auth, unknownKey]) {
      const started = Date.now();
      const res = await t.http.get('/v1/kb/icps').set('Authorization', auth);
      timings.push(Date.now() - started);
      expectUnavailable(res);
    }
  } finally {
    cluster.thaw();
  }
  expect(Math.max(...timings)).toBeLessThan(FROZEN_BOUND_MS);
  console.info(`frozen PostgreSQL: 503 after ${timings.join(', ')} ms`);

  await waitFor(
    async () => (await icps(ws)).status,
    (status) => status === 200,
    { what: 'requests to succeed after the thaw', timeoutMs: 15_000 },
  );
}, 60_000);

test('a 20 s outage under load: one backed-off listener loop, one warning when it starts and one line when it ends', async () => {
  const ws = await cachedWorkspace();
  const from = lines.length;

  await cluster.stop();
  const statuses = new Map<number, number>();
  const outageEnds = Date.now() + 20_000;
  // Four clients, each sending a request every 100 ms or so: 30-40 requests a second.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (Date.now() < outageEnds) {
        const res = await icps(ws);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 503) expectUnavailable(res);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }),
  );
  await cluster.start();

  // Every request of the outage was a 503: none waited, none failed as a 500.
  expect([...statuses.keys()]).toEqual([503]);
  const requests = statuses.get(503)!;
  expect(requests).toBeGreaterThan(300);

  await waitFor(
    async () => (await icps(ws)).status,
    (status) => status === 200,
    { what: 'requests to succeed after the restart', timeoutMs: 15_000 },
  );
  // The listener retries at most every 10 s, so it is back within that of the restart.
  await waitFor(
    () => Promise.resolve(listenerLines(from).filter((line) => /listener back/.test(line.msg ?? '')).length),
    (back) => back > 0,
    { what: 'the revocation listener to be back', timeoutMs: 15_000 },
  );

  const logged = listenerLines(from);
  const attempts = logged.filter((line) => /Revocation listener connecting/.test(line.msg ?? ''));
  const off = logged.filter((line) => /Key cache off/.test(line.msg ?? ''));
  const back = logged.filter((line) => /Revocation listener back after/.test(line.msg ?? ''));
  console.info(
    `20 s outage: ${requests} requests, all 503; listener: ${attempts.length} connection attempts, ` +
      `warnings: ${JSON.stringify(off.map((l) => l.msg))}, recovery: ${JSON.stringify(back.map((l) => l.msg))}`,
  );
  expect(attempts.length).toBeGreaterThanOrEqual(2);
  expect(attempts.length).toBeLessThanOrEqual(MAX_LISTENER_ATTEMPTS);
  expect(off).toHaveLength(1);
  expect(off[0].level).toBe(40); // warn
  expect(back).toHaveLength(1);
  // Nothing else the listener said in the outage: one line per attempt at debug level, and those two.
  expect(logged).toHaveLength(attempts.length + 2);
  // And nothing else in the process warned: the outage is one warning in the log, not one per request.
  expect(lines.slice(from).filter((line) => line.level >= 40)).toEqual(off);

  // Caching resumes: the key is remembered again.
  await cachedWorkspace();
}, 75_000);
