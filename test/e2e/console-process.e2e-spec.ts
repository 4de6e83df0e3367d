import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expectError } from '../support/assertions';
import { oneJsonLine } from '../support/cli';
import { freePort } from '../support/ports';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { killAllChildren, runCliWith, startConsoleProcess, stopWorker } from '../support/worker-process';

jest.setTimeout(60_000);

describe('the console on its own: dist/console.js', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await killAllChildren();
    await t.close();
  });

  it('serves /console/api on CONSOLE_PORT, for a user made with `user create`, and not the public API', async () => {
    const ws = await t.newWorkspace();
    const created = oneJsonLine(
      await runCliWith(t.config, ['user', 'create', '--workspace', ws.workspace_id, '--email', 'Ops@Example.com']),
    );
    expect(created).toEqual({
      user_id: expect.stringMatching(/^usr_\d{19}$/),
      email: 'ops@example.com',
      workspace_id: ws.workspace_id,
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });

    const port = await freePort();
    const consoleProcess = startConsoleProcess(t.config, { CONSOLE_PORT: String(port), PORT: '1' });
    const http = request(`http://127.0.0.1:${port}`);
    await waitFor(
      () =>
        http.get('/health/live').then(
          (res) => res.status,
          () => 0,
        ),
      (status) => status === 200 || consoleProcess.hasExited(),
      { what: 'the console process to listen' },
    );
    expect(consoleProcess.hasExited()).toBe(false);

    expectError(await http.get('/console/api/session'), 401, 'authentication_error');
    const signIn = await http.post('/console/api/session').send({ email: created.email, password: created.password });
    expect(signIn.status).toBe(200);
    const cookie = ([] as string[]).concat(signIn.headers['set-cookie'] ?? [])[0].split(';', 1)[0];
    expect((await http.get('/console/api/session').set('Cookie', cookie)).body.user.id).toBe(created.user_id);
    expect((await http.get('/console/api/kb/icps').set('Cookie', cookie)).status).toBe(200);

    // The public API is not there, with or without a key.
    expectError(await http.get('/v1/kb/icps').set('Authorization', ws.auth), 404, 'not_found');
    expectError(await http.get('/v1/kb/icps'), 404, 'not_found');
    expectError(await http.post('/ingest/v1/activities').set('Authorization', ws.auth).send({ activities: [] }), 404, 'not_found');
    expect((await http.get('/openapi.json')).status).toBe(404);

    // `user list` and `user revoke`: the session stops at once, in the other process too.
    const listed = oneJsonLine(await runCliWith(t.config, ['user', 'list', '--workspace', ws.workspace_id]));
    expect(listed).toEqual({
      data: [{ user_id: created.user_id, email: 'ops@example.com', created_at: expect.any(String), disabled_at: null }],
    });
    expect(JSON.stringify(listed)).not.toContain(String(created.password));
    const revoked = oneJsonLine(await runCliWith(t.config, ['user', 'revoke', '--user', String(created.user_id)]));
    expect(revoked).toEqual({ user_id: created.user_id, revoked: true });
    expectError(await http.get('/console/api/session').set('Cookie', cookie), 401, 'authentication_error');

    expect(await stopWorker(consoleProcess, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(consoleProcess.output()).not.toContain(String(created.password));
  });

  it('refuses a second user with the same email, and an unknown workspace', async () => {
    const ws = await t.newWorkspace();
    const email = `dup-${Date.now()}@example.com`;
    oneJsonLine(await runCliWith(t.config, ['user', 'create', '--workspace', ws.workspace_id, '--email', email]));
    const again = await runCliWith(t.config, ['user', 'create', '--workspace', ws.workspace_id, '--email', email.toUpperCase()]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');
    const unknown = await runCliWith(t.config, ['user', 'create', '--workspace', `wor_${'9'.repeat(19)}`, '--email', 'x@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No workspace');
  });
});

describe('the console UI, when built', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-ui-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>Console</title><script type="module" src="/console/assets/app-1a2b.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log("ui");');
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestApp({ CONSOLE_UI_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers index.html (no-cache) for /console and client routes, assets cached long, under a self-only CSP', async () => {
    for (const path of ['/console', '/console/', '/console/buyers', '/console/kb/icps/icp_1']) {
      const page = await t.http.get(path);
      expect([path, page.status]).toEqual([path, 200]);
      expect(page.text).toContain('app-1a2b.js');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self'/);
    }
    const asset = await t.http.get('/console/assets/app-1a2b.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect((await t.http.get('/console/assets/missing.js')).status).toBe(404);
    expect((await t.http.get('/console/favicon.svg')).headers['content-type']).toMatch(/^image\/svg/);
    // The console's API stays the API's.
    expectError(await t.http.get('/console/api/buyers'), 401, 'authentication_error');
  });

  it('says so on /console and its client routes when the UI is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'console-ui-empty-'));
    const unbuilt = await startTestApp({ CONSOLE_UI_DIR: empty });
    try {
      for (const path of ['/console', '/console/buyers']) {
        const page = await unbuilt.http.get(path);
        expect([path, page.status, page.headers['content-type']]).toEqual([path, 200, 'text/html; charset=utf-8']);
        expect(page.text).toContain('The console UI is not built');
      }
    } finally {
      await unbuilt.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('serves nothing under /console when CONSOLE_ENABLED is off', async () => {
    const off = await startTestApp({ CONSOLE_ENABLED: 'false', CONSOLE_UI_DIR: dir });
    try {
      expectError(await off.http.get('/console'), 404, 'not_found');
      expectError(await off.http.post('/console/api/session').send({ email: 'a@example.com', password: 'x' }), 404, 'not_found');
      expect((await off.http.get('/health/live')).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
