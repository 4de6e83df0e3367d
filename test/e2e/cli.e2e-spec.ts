import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { expectError } from '../support/assertions';
import { KB_CASES, unique } from '../support/kb-resources';
import { startTestApp, TestApp } from '../support/test-app';
import { expectFailure, oneJsonLine, runCli } from '../support/cli';
import { waitFor } from '../support/wait';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const WORKSPACE_ID = /^wor_\d{19}$/;
const KEY_ID = /^key_\d{19}$/;
const API_KEY = /^svc_live_[0-9A-Za-z]+$/;

let t: TestApp;
let db: Client;

beforeAll(async () => {
  t = await startTestApp();
  db = new Client({ connectionString: t.config.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await t?.close();
});

const cli = (...args: string[]) => runCli(t.config.databaseUrl, ...args);

async function keyCount(): Promise<number> {
  const res = await db.query('SELECT count(*)::int AS n FROM api_keys');
  return res.rows[0].n;
}

async function workspaceCount(): Promise<number> {
  const res = await db.query('SELECT count(*)::int AS n FROM workspaces');
  return res.rows[0].n;
}

const bearer = (key: string) => `Bearer ${key}`;
const ICPS = KB_CASES.find((kb) => kb.path === 'icps')!;

async function createWorkspace(name = `Acme ${unique()}`) {
  const out = oneJsonLine(await cli('workspace', 'create', '--name', name));
  return out as { workspace_id: string; api_key: string; key_id: string };
}

test('the built CLI exists', () => {
  expect(existsSync(CLI)).toBe(true);
});

describe('workspace create', () => {
  test('prints exactly one JSON line with workspace_id, api_key and key_id', async () => {
    const result = await cli('workspace', 'create', '--name', 'Acme');
    const out = oneJsonLine(result);
    expect(out).toEqual({
      workspace_id: expect.stringMatching(WORKSPACE_ID),
      api_key: expect.stringMatching(API_KEY),
      key_id: expect.stringMatching(KEY_ID),
    });
    // The plain key is printed once, on stdout only.
    expect(result.stderr).not.toContain(out.api_key as string);
  });

  test('the printed key works over HTTP against the app, as a write key of that workspace', async () => {
    const out = await createWorkspace('Acme');
    const list = await t.http.get('/v1/kb/icps').set('Authorization', bearer(out.api_key));
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);

    const created = await t.http.post('/v1/kb/icps').set('Authorization', bearer(out.api_key)).send(ICPS.valid(unique()));
    expect(created.status).toBe(201);
    expect(created.body.client_id).toBe(out.workspace_id);
  });

  test('two workspaces are separate tenants', async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    expect(a.workspace_id).not.toBe(b.workspace_id);
    expect(a.api_key).not.toBe(b.api_key);
    const created = await t.http.post('/v1/kb/icps').set('Authorization', bearer(a.api_key)).send(ICPS.valid(unique()));
    expect(created.status).toBe(201);
    const other = await t.http.get(`/v1/kb/icps/${created.body.id}`).set('Authorization', bearer(b.api_key));
    expectError(other, 404, 'not_found');
  });
});

describe('key create', () => {
  test('--scope read gives a read key: GET 200, POST 403', async () => {
    const ws = await createWorkspace();
    const out = oneJsonLine(await cli('key', 'create', '--workspace', ws.workspace_id, '--scope', 'read'));
    expect(out).toEqual({
      key_id: expect.stringMatching(KEY_ID),
      api_key: expect.stringMatching(API_KEY),
      workspace_id: ws.workspace_id,
      scope: 'read',
    });
    expect(out.api_key).not.toBe(ws.api_key);
    expect(out.key_id).not.toBe(ws.key_id);

    const auth = bearer(out.api_key as string);
    expect((await t.http.get('/v1/kb/icps').set('Authorization', auth)).status).toBe(200);
    expectError(await t.http.post('/v1/kb/icps').set('Authorization', auth).send(ICPS.valid(unique())), 403, 'permission_denied');
  });

  test('without --scope gives a write key of the same workspace', async () => {
    const ws = await createWorkspace();
    const out = oneJsonLine(await cli('key', 'create', '--workspace', ws.workspace_id));
    expect(out).toEqual({
      key_id: expect.stringMatching(KEY_ID),
      api_key: expect.stringMatching(API_KEY),
      workspace_id: ws.workspace_id,
      scope: 'write',
    });
    const auth = bearer(out.api_key as string);
    const created = await t.http.post('/v1/kb/icps').set('Authorization', auth).send(ICPS.valid(unique()));
    expect(created.status).toBe(201);
    expect(created.body.client_id).toBe(ws.workspace_id);
    // The record is visible with the workspace's first key: same tenant.
    const seen = await t.http.get(`/v1/kb/icps/${created.body.id}`).set('Authorization', bearer(ws.api_key));
    expect(seen.status).toBe(200);
  });

  test('--scope write gives a write key', async () => {
    const ws = await createWorkspace();
    const out = oneJsonLine(await cli('key', 'create', '--workspace', ws.workspace_id, '--scope', 'write'));
    expect(out.scope).toBe('write');
    const created = await t.http
      .post('/v1/kb/topics')
      .set('Authorization', bearer(out.api_key as string))
      .send(KB_CASES.find((kb) => kb.path === 'topics')!.valid(unique()));
    expect(created.status).toBe(201);
  });
});

describe('key revoke', () => {
  test('prints {"key_id","revoked":true} and the key gets 401 as soon as the announcement arrives', async () => {
    const ws = await createWorkspace();
    const extra = oneJsonLine(await cli('key', 'create', '--workspace', ws.workspace_id));
    const auth = bearer(extra.api_key as string);
    expect((await t.http.get('/v1/kb/icps').set('Authorization', auth)).status).toBe(200);

    const result = await cli('key', 'revoke', '--key-id', extra.key_id as string);
    const out = oneJsonLine(result);
    expect(out).toEqual({ key_id: extra.key_id, revoked: true });
    expect(result.stdout).toBe(`${JSON.stringify({ key_id: extra.key_id, revoked: true })}\n`);

    // The CLI is another process: this one refuses the key once PostgreSQL's announcement of the
    // commit reaches it, milliseconds later (ADR 0002); a busy machine may serve one request first.
    const refused = await waitFor(
      async () => await t.http.get('/v1/kb/icps').set('Authorization', auth),
      (res) => res.status !== 200,
      { timeoutMs: 5_000, what: 'the revoked key to be refused' },
    );
    expectError(refused, 401, 'authentication_error');
    expectError(await t.http.post('/v1/kb/icps').set('Authorization', auth).send(ICPS.valid(unique())), 401, 'authentication_error');
    // The workspace's other key is untouched.
    expect((await t.http.get('/v1/kb/icps').set('Authorization', bearer(ws.api_key))).status).toBe(200);
  });

  test('revoking the first key of a workspace made by workspace create', async () => {
    const ws = await createWorkspace();
    const out = oneJsonLine(await cli('key', 'revoke', '--key-id', ws.key_id));
    expect(out).toEqual({ key_id: ws.key_id, revoked: true });
    expectError(await t.http.get('/v1/kb/icps').set('Authorization', bearer(ws.api_key)), 401, 'authentication_error');
  });
});

describe('workspace list and key list', () => {
  test("list the workspaces with their active keys, and a workspace's keys without their secrets", async () => {
    const ws = await createWorkspace();
    const read = oneJsonLine(await cli('key', 'create', '--workspace', ws.workspace_id, '--scope', 'read'));
    oneJsonLine(await cli('key', 'revoke', '--key-id', ws.key_id));

    const workspaces = oneJsonLine(await cli('workspace', 'list')).data as Array<Record<string, unknown>>;
    expect(workspaces).toContainEqual({
      workspace_id: ws.workspace_id,
      name: expect.any(String),
      created_at: expect.any(String),
      active_keys: 1,
    });

    // A use of the read key is written down (once an hour per key and process, without the request waiting).
    expect((await t.http.get('/v1/kb/icps').set('Authorization', bearer(read.api_key as string))).status).toBe(200);
    const listed = await waitFor(
      async () => oneJsonLine(await cli('key', 'list', '--workspace', ws.workspace_id)),
      (out) => (out.data as Array<{ last_used_at: string | null }>)[1]?.last_used_at !== null,
      { what: "the read key's use to be recorded" },
    );
    expect(listed.data).toEqual([
      {
        key_id: ws.key_id,
        scope: 'write',
        prefix: expect.any(String),
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: expect.any(String),
      },
      {
        key_id: read.key_id,
        scope: 'read',
        prefix: expect.any(String),
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        revoked_at: null,
      },
    ]);
    const text = JSON.stringify(listed);
    expect(text).not.toContain(ws.api_key);
    expect(text).not.toContain(read.api_key as string);
    expect((read.api_key as string).startsWith((listed.data as Array<{ prefix: string }>)[1].prefix)).toBe(true);
  });

  test('key list of an unknown workspace fails', async () => {
    expectFailure(await cli('key', 'list', '--workspace', 'wor_0000000000000000001'));
  });
});

describe('failures exit non-zero, message on stderr, nothing on stdout', () => {
  test('key revoke given the secret instead of the id says to pass the key_… id, and does not repeat the secret', async () => {
    const ws = await createWorkspace();
    const result = await cli('key', 'revoke', '--key-id', ws.api_key);
    expectFailure(result);
    expect(result.stderr).toContain('key_');
    expect(result.stderr).toContain('key list');
    expect(result.stderr).not.toContain(ws.api_key);
    expect((await t.http.get('/v1/kb/icps').set('Authorization', bearer(ws.api_key))).status).toBe(200);
  });

  test('key create for an unknown workspace creates nothing', async () => {
    const before = await keyCount();
    expectFailure(await cli('key', 'create', '--workspace', 'wor_0000000000000000001'));
    expectFailure(await cli('key', 'create', '--workspace', 'wor_nope'));
    expect(await keyCount()).toBe(before);
  });

  test('key create without --workspace', async () => {
    const before = await keyCount();
    expectFailure(await cli('key', 'create'));
    expect(await keyCount()).toBe(before);
  });

  test('workspace create without --name creates nothing', async () => {
    const before = await workspaceCount();
    expectFailure(await cli('workspace', 'create'));
    expect(await workspaceCount()).toBe(before);
  });

  test('workspace create with an empty name creates nothing', async () => {
    const before = await workspaceCount();
    expectFailure(await cli('workspace', 'create', '--name', '   '));
    expect(await workspaceCount()).toBe(before);
  });

  test('key create with a bad --scope creates nothing', async () => {
    const ws = await createWorkspace();
    const before = await keyCount();
    expectFailure(await cli('key', 'create', '--workspace', ws.workspace_id, '--scope', 'admin'));
    expectFailure(await cli('key', 'create', '--workspace', ws.workspace_id, '--scope', ''));
    expect(await keyCount()).toBe(before);
  });

  test('key revoke of an unknown key id', async () => {
    expectFailure(await cli('key', 'revoke', '--key-id', 'key_0000000000000000001'));
    expectFailure(await cli('key', 'revoke', '--key-id', 'key_nope'));
  });

  test('key revoke without --key-id', async () => {
    expectFailure(await cli('key', 'revoke'));
  });

  test('an unknown command', async () => {
    expectFailure(await cli('frobnicate'));
  });
});

describe('key storage', () => {
  test('the database stores only a SHA-256 hash and a short display prefix', async () => {
    const ws = await createWorkspace();
    const key = ws.api_key;
    const secret = key.slice('svc_live_'.length);
    const keyId = ws.key_id.slice('key_'.length);

    const res = await db.query('SELECT key_hash, display_prefix FROM api_keys WHERE id = $1', [keyId]);
    expect(res.rows).toHaveLength(1);
    const row = res.rows[0] as { key_hash: Buffer; display_prefix: string };

    const expected = createHash('sha256').update(key, 'utf8').digest();
    expect(Buffer.isBuffer(row.key_hash) ? row.key_hash.toString('hex') : String(row.key_hash)).toBe(expected.toString('hex'));

    expect(key.startsWith(row.display_prefix)).toBe(true);
    expect(row.display_prefix.startsWith('svc_live_')).toBe(true);
    expect(row.display_prefix.length).toBeLessThan(key.length - 16);
    expect(row.display_prefix).not.toContain(secret);

    const renderings = [
      row.display_prefix,
      row.key_hash.toString('hex'),
      row.key_hash.toString('base64'),
      row.key_hash.toString('utf8'),
      row.key_hash.toString('latin1'),
    ].join('\n');
    expect(renderings).not.toContain(key);
    expect(renderings).not.toContain(secret);
  });

  test('no column of any api_keys row holds the plain key', async () => {
    const ws = await createWorkspace();
    const read = oneJsonLine(await cli('key', 'create', '--workspace', ws.workspace_id, '--scope', 'read'));
    const res = await db.query('SELECT * FROM api_keys');
    expect(res.rows.length).toBeGreaterThanOrEqual(2);
    const dump = res.rows
      .map((row: Record<string, unknown>) =>
        Object.values(row)
          .map((value) => (Buffer.isBuffer(value) ? `${value.toString('hex')} ${value.toString('latin1')}` : String(value)))
          .join(' '),
      )
      .join('\n');
    for (const key of [ws.api_key, read.api_key as string]) {
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice('svc_live_'.length));
    }
    // And the hash of each key is there.
    for (const key of [ws.api_key, read.api_key as string]) {
      const hash = createHash('sha256').update(key, 'utf8').digest();
      const found = await db.query('SELECT count(*)::int AS n FROM api_keys WHERE key_hash = $1', [hash]);
      expect(found.rows[0].n).toBe(1);
    }
  });
});
