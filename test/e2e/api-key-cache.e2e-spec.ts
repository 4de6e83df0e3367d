import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { apiKeyHashText } from '../../src/modules/workspaces/api-key';
import { CachingApiKeyAuthenticator } from '../../src/modules/workspaces/api-key-cache';
import { API_KEYS_CHANGED } from '../../src/modules/workspaces/workspaces.service';
import { expectError } from '../support/assertions';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';
import { internalId, runCliWith } from '../support/worker-process';

/*
 * Valid keys are remembered in memory while the API listens for revocations. These tests make
 * the cache visible by revoking in SQL without announcing it (a cached key keeps working), and
 * show that every real way of revoking still takes effect on the next request.
 */
let t: TestApp;
let sql: DataSource;

beforeAll(async () => {
  t = await startTestApp();
  sql = await new DataSource({ ...dataSourceOptions(t.config.databaseUrl), extra: { max: 2 } }).initialize();
});

afterAll(async () => {
  await sql?.destroy();
  await t?.close();
});

const icps = (ws: TestWorkspace) => t.http.get('/v1/kb/icps').set('Authorization', ws.auth);

/** Revokes behind the API's back: no announcement. */
const revokeSilently = (ws: TestWorkspace) => sql.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [internalId(ws.key_id)]);

/** A workspace whose key the API has looked up once and, once it listens, remembers. */
async function cachedWorkspace(): Promise<TestWorkspace> {
  const ws = await t.newWorkspace();
  const cache = t.app.get(CachingApiKeyAuthenticator);
  // The listener connects on the first lookup; wait until this key's lookup is remembered (other
  // tests' keys may be remembered already).
  await waitFor(
    async () => {
      expect((await icps(ws)).status).toBe(200);
      return (cache as unknown as { entries: Map<string, unknown> }).entries.has(apiKeyHashText(ws.api_key));
    },
    (cached) => cached,
    { what: 'the key to be cached' },
  );
  return ws;
}

test('a remembered key is not looked up again: a silent revocation goes unseen until announced', async () => {
  const ws = await cachedWorkspace();
  await revokeSilently(ws);
  expect((await icps(ws)).status).toBe(200);
  await sql.query(`NOTIFY ${API_KEYS_CHANGED}`);
  await waitFor(
    async () => (await icps(ws)).status,
    (status) => status === 401,
    { what: 'the announcement to empty the cache' },
  );
  expectError(await icps(ws), 401, 'authentication_error');
});

test('revoking in this process refuses the key on the very next request', async () => {
  const ws = await cachedWorkspace();
  await t.workspaces.revokeKey(ws.key_id);
  expectError(await icps(ws), 401, 'authentication_error');
});

test('revoking with the CLI, another process, refuses the key on the next request', async () => {
  const ws = await cachedWorkspace();
  const other = await cachedWorkspace();
  const result = await runCliWith(t.config, ['key', 'revoke', '--key-id', ws.key_id]);
  expect(result.code).toBe(0);
  expectError(await icps(ws), 401, 'authentication_error');
  // Only that key: the other workspace's key is looked up afresh and still works.
  expect((await icps(other)).status).toBe(200);
});

test('without its listening connection the API remembers nothing, so even a silent revocation is seen at once', async () => {
  const ws = await cachedWorkspace();
  const [{ count }] = await sql.query(
    `SELECT count(pg_terminate_backend(pid))::int AS count FROM pg_stat_activity
      WHERE datname = current_database() AND query = $1`,
    [`LISTEN ${API_KEYS_CHANGED}`],
  );
  expect(count).toBe(1);
  await revokeSilently(ws);
  expectError(await icps(ws), 401, 'authentication_error');
  // It listens again shortly after, and caching resumes.
  await cachedWorkspace();
});

test('an unknown key is never remembered', async () => {
  const ws = await cachedWorkspace();
  const cache = t.app.get<unknown, { entries: Map<string, unknown> }>(CachingApiKeyAuthenticator);
  const before = cache.entries.size;
  const fake = `Bearer svc_live_${'x'.repeat(40)}`;
  expectError(await t.http.get('/v1/kb/icps').set('Authorization', fake), 401, 'authentication_error');
  expect(cache.entries.size).toBe(before);
  expect((await icps(ws)).status).toBe(200);
});
