import { Client } from 'pg';
import type { Response } from 'supertest';
import { hashSessionToken } from '../../src/modules/console/console-session-cookie';
import { ConsoleUsersService, CreatedConsoleUser } from '../../src/modules/console/console-users.service';
import { expectError } from '../support/assertions';
import { KB_CASES, unique } from '../support/kb-resources';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';

const COOKIE = 'bi_console_session';

/** The session cookie's `name=value` from a sign-in's `Set-Cookie`. */
function cookieOf(res: Response): string {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((line) => line.startsWith(`${COOKIE}=`));
  if (!header) throw new Error(`No session cookie in ${JSON.stringify(res.headers)}`);
  return header.split(';', 1)[0];
}

interface Session {
  cookie: string;
  csrf: string;
  user: CreatedConsoleUser;
  ws: TestWorkspace;
}

describe('the console API (/console/api)', () => {
  let t: TestApp;
  let users: ConsoleUsersService;
  let db: Client;

  beforeAll(async () => {
    // A loopback webhook receiver, as the webhook tests use.
    t = await startTestApp({ WEBHOOK_ALLOW_INSECURE_URLS: 'true' });
    users = t.app.get(ConsoleUsersService);
    db = new Client({ connectionString: t.config.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const newUser = async (ws?: TestWorkspace): Promise<{ user: CreatedConsoleUser; ws: TestWorkspace }> => {
    const workspace = ws ?? (await t.newWorkspace());
    return { user: await users.createUser(workspace.workspace_id, `u-${unique()}@example.com`), ws: workspace };
  };

  const signIn = async (ws?: TestWorkspace): Promise<Session> => {
    const { user, ws: workspace } = await newUser(ws);
    const res = await t.http.post('/console/api/session').send({ email: user.email, password: user.password });
    expect(res.status).toBe(200);
    return { cookie: cookieOf(res), csrf: res.body.csrf_token as string, user, ws: workspace };
  };

  const countRows = async (table: string, workspaceId: string): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE workspace_id = $1`, [
      String(BigInt(workspaceId.slice(4))),
    ]);
    return rows[0].n;
  };

  describe('session', () => {
    it('signs in with the right password: the user, a CSRF token and an httpOnly, SameSite=Lax cookie on /console', async () => {
      const { user, ws } = await newUser();
      const res = await t.http.post('/console/api/session').send({ email: user.email.toUpperCase(), password: user.password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        user: { id: user.user_id, email: user.email, workspace_id: ws.workspace_id, workspace_name: 'Test workspace' },
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expires_at: expect.any(String),
      });
      const header = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0];
      expect(header).toMatch(/^bi_console_session=[A-Za-z0-9_-]{43}; /);
      expect(header).toContain('HttpOnly');
      expect(header).toContain('SameSite=Lax');
      expect(header).toContain('Path=/console');
      // Plain HTTP here: not Secure.
      expect(header).not.toContain('Secure');

      const current = await t.http.get('/console/api/session').set('Cookie', cookieOf(res));
      expect(current.status).toBe(200);
      expect(current.body.user).toEqual(res.body.user);
      expect(current.body.csrf_token).toBe(res.body.csrf_token);
    });

    it('marks the cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
      const https = await startTestApp({ TRUST_PROXY: '1' });
      try {
        const ws = await https.newWorkspace();
        const user = await https.app.get(ConsoleUsersService).createUser(ws.workspace_id, `s-${unique()}@example.com`);
        const res = await https.http
          .post('/console/api/session')
          .set('X-Forwarded-Proto', 'https')
          .send({ email: user.email, password: user.password });
        expect(res.status).toBe(200);
        expect(([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]).toMatch(/; Secure$/);
      } finally {
        await https.close();
      }
    });

    it('answers a wrong password and an unknown email alike: 401, the same message', async () => {
      const { user } = await newUser();
      const wrong = expectError(
        await t.http.post('/console/api/session').send({ email: user.email, password: 'nope' }),
        401,
        'authentication_error',
      );
      const unknown = expectError(
        await t.http.post('/console/api/session').send({ email: `nobody-${unique()}@example.com`, password: user.password }),
        401,
        'authentication_error',
      );
      expect(unknown.message).toBe(wrong.message);
    });

    it('names the faulty sign-in field: 400 validation_error param email / password', async () => {
      expectError(await t.http.post('/console/api/session').send({ password: 'x' }), 400, 'validation_error', 'email');
      expectError(await t.http.post('/console/api/session').send({ email: 'a@example.com' }), 400, 'validation_error', 'password');
      expectError(
        await t.http.post('/console/api/session').send({ email: 'a@example.com', password: 7 }),
        400,
        'validation_error',
        'password',
      );
    });

    it('never reuses a cookie sent at sign-in (no fixation)', async () => {
      const first = await signIn();
      const again = await t.http
        .post('/console/api/session')
        .set('Cookie', first.cookie)
        .send({ email: first.user.email, password: first.user.password });
      expect(again.status).toBe(200);
      expect(cookieOf(again)).not.toBe(first.cookie);
      expect(again.body.csrf_token).not.toBe(first.csrf);
      // A made-up cookie is not adopted either.
      const planted = `${COOKIE}=${'A'.repeat(43)}`;
      const fresh = await t.http
        .post('/console/api/session')
        .set('Cookie', planted)
        .send({ email: first.user.email, password: first.user.password });
      expect(cookieOf(fresh)).not.toBe(planted);
      expectError(await t.http.get('/console/api/session').set('Cookie', planted), 401, 'authentication_error');
    });

    it('signs out: 204, the cookie cleared, and the session refused afterwards', async () => {
      const s = await signIn();
      expectError(await t.http.delete('/console/api/session').set('Cookie', s.cookie), 403, 'csrf_failed');
      const out = await t.http.delete('/console/api/session').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf);
      expect(out.status).toBe(204);
      expect(([] as string[]).concat(out.headers['set-cookie'] ?? [])[0]).toMatch(/^bi_console_session=; .*Max-Age=0/);
      expectError(await t.http.get('/console/api/session').set('Cookie', s.cookie), 401, 'authentication_error');
      expectError(await t.http.get('/console/api/buyers').set('Cookie', s.cookie), 401, 'authentication_error');
    });

    it('ends a session idle past its limit, and one past its absolute limit', async () => {
      const idle = await signIn();
      const aged = await signIn();
      const hash = (cookie: string) => hashSessionToken(cookie.split('=')[1]);
      await db.query(`UPDATE console_sessions SET last_seen_at = now() - interval '31 minutes' WHERE token_hash = $1`, [hash(idle.cookie)]);
      await db.query(`UPDATE console_sessions SET created_at = now() - interval '13 hours' WHERE token_hash = $1`, [hash(aged.cookie)]);
      expectError(await t.http.get('/console/api/session').set('Cookie', idle.cookie), 401, 'authentication_error');
      expectError(await t.http.get('/console/api/session').set('Cookie', aged.cookie), 401, 'authentication_error');
    });

    it('stops a revoked user at once', async () => {
      const s = await signIn();
      expect((await t.http.get('/console/api/buyers').set('Cookie', s.cookie)).status).toBe(200);
      await users.revokeUser(s.user.user_id);
      expectError(await t.http.get('/console/api/buyers').set('Cookie', s.cookie), 401, 'authentication_error');
      expectError(
        await t.http.post('/console/api/session').send({ email: s.user.email, password: s.user.password }),
        401,
        'authentication_error',
      );
    });
  });

  describe('authentication by path', () => {
    it('does not let an API key authenticate console routes', async () => {
      const ws = await t.newWorkspace();
      expectError(await t.http.get('/console/api/buyers').set('Authorization', ws.auth), 401, 'authentication_error');
      expectError(await t.http.get('/console/api/api-keys').set('Authorization', ws.auth), 401, 'authentication_error');
      expectError(await t.http.get('/console/api/session').set('Authorization', ws.auth), 401, 'authentication_error');
    });

    it('does not let the session cookie authenticate the public API', async () => {
      const s = await signIn();
      expectError(await t.http.get('/v1/buyers').set('Cookie', s.cookie), 401, 'authentication_error');
      expectError(await t.http.get('/ingest/v1/activities').set('Cookie', s.cookie), 401, 'authentication_error');
      expectError(
        await t.http
          .post('/v1/kb/icps')
          .set('Cookie', s.cookie)
          .set('X-CSRF-Token', s.csrf)
          .send({ name: 'a', short_name: 'b', description: 'c' }),
        401,
        'authentication_error',
      );
    });

    it('does not take activities through the console (reads only)', async () => {
      const s = await signIn();
      expectError(
        await t.http.post('/console/api/activities').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).send({ activities: [] }),
        404,
        'not_found',
      );
      expect((await t.http.get('/console/api/activities').set('Cookie', s.cookie)).status).toBe(200);
    });
  });

  describe('CSRF', () => {
    it('refuses a write without the token, or with a wrong one: 403 csrf_failed, nothing written', async () => {
      const s = await signIn();
      const body = { name: 'Enterprise', short_name: `ent-${unique()}`, description: 'Large companies' };
      expectError(await t.http.post('/console/api/kb/icps').set('Cookie', s.cookie).send(body), 403, 'csrf_failed');
      expectError(
        await t.http.post('/console/api/kb/icps').set('Cookie', s.cookie).set('X-CSRF-Token', 'wrong').send(body),
        403,
        'csrf_failed',
      );
      const other = await signIn();
      expectError(
        await t.http.post('/console/api/kb/icps').set('Cookie', s.cookie).set('X-CSRF-Token', other.csrf).send(body),
        403,
        'csrf_failed',
      );
      expectError(await t.http.post('/console/api/api-keys').set('Cookie', s.cookie).send({ scope: 'read' }), 403, 'csrf_failed');
      expect(await countRows('icps', s.ws.workspace_id)).toBe(0);
      expect(await countRows('api_keys', s.ws.workspace_id)).toBe(1);
    });
  });

  describe('data', () => {
    it('creates in the console with created_by console, and the API reads it with a key', async () => {
      const s = await signIn();
      const created = await t.http
        .post('/console/api/kb/icps')
        .set('Cookie', s.cookie)
        .set('X-CSRF-Token', s.csrf)
        .send({ name: 'Enterprise', short_name: 'ent', description: 'Large companies' });
      expect(created.status).toBe(201);
      expect(created.body.created_by).toEqual({ type: 'console', id: s.user.user_id });
      const viaApi = await t.http.get(`/v1/kb/icps/${created.body.id}`).set('Authorization', s.ws.auth);
      expect(viaApi.status).toBe(200);
      expect(viaApi.body).toEqual(created.body);
      const patched = await t.http
        .patch(`/console/api/kb/icps/${created.body.id}`)
        .set('Cookie', s.cookie)
        .set('X-CSRF-Token', s.csrf)
        .send({ description: 'Over 1,000 employees' });
      expect(patched.status).toBe(200);
      const list = await t.http.get('/console/api/kb/icps').set('Cookie', s.cookie);
      expect(list.body.data).toEqual([patched.body]);
      expect(
        (await t.http.delete(`/console/api/kb/icps/${created.body.id}`).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf)).status,
      ).toBe(204);
      expectError(await t.http.get(`/v1/kb/icps/${created.body.id}`).set('Authorization', s.ws.auth), 404, 'not_found');
    });

    it.each(KB_CASES.map((c) => [c.path, c] as const))(
      '%s: the same validation errors, with the same param, as the public API',
      async (_path, kb) => {
        const s = await signIn();
        const n = unique();
        const bodies: unknown[] = [{}, { ...kb.valid(n), [kb.required[0]]: 42 }, { ...kb.valid(n), unknown_field: 'x' }, []];
        for (const body of bodies) {
          const api = await t.http
            .post(`/v1/kb/${kb.path}`)
            .set('Authorization', s.ws.auth)
            .send(body as object);
          const viaConsole = await t.http
            .post(`/console/api/kb/${kb.path}`)
            .set('Cookie', s.cookie)
            .set('X-CSRF-Token', s.csrf)
            .send(body as object);
          expect(api.status).toBe(400);
          expect(viaConsole.status).toBe(400);
          expect({ code: viaConsole.body.error.code, param: viaConsole.body.error.param, message: viaConsole.body.error.message }).toEqual({
            code: api.body.error.code,
            param: api.body.error.param,
            message: api.body.error.message,
          });
        }
        const badId = await t.http.get(`/console/api/kb/${kb.path}/nope`).set('Cookie', s.cookie);
        const badIdApi = await t.http.get(`/v1/kb/${kb.path}/nope`).set('Authorization', s.ws.auth);
        expect(badId.status).toBe(badIdApi.status);
        expect(badId.body.error.param).toBe(badIdApi.body.error.param);
      },
    );

    it("answers 404 for another workspace's buyers, KB records, webhook endpoints and API keys", async () => {
      const s = await signIn();
      const other = await t.newWorkspace();
      const icp = await t.http
        .post('/v1/kb/icps')
        .set('Authorization', other.auth)
        .send({ name: 'Theirs', short_name: 'theirs', description: 'x' });
      const endpoint = await t.http
        .post('/v1/webhook-endpoints')
        .set('Authorization', other.auth)
        .send({ url: 'http://127.0.0.1:9', enabled_events: ['signal.created'] });
      expect(endpoint.status).toBe(201);
      expectError(await t.http.get(`/console/api/kb/icps/${icp.body.id}`).set('Cookie', s.cookie), 404, 'not_found');
      expectError(
        await t.http
          .patch(`/console/api/kb/icps/${icp.body.id}`)
          .set('Cookie', s.cookie)
          .set('X-CSRF-Token', s.csrf)
          .send({ name: 'Mine' }),
        404,
        'not_found',
      );
      expectError(await t.http.get(`/console/api/webhook-endpoints/${endpoint.body.id}`).set('Cookie', s.cookie), 404, 'not_found');
      expectError(await t.http.get(`/console/api/buyers/buy_${'1'.padStart(19, '0')}`).set('Cookie', s.cookie), 404, 'not_found');
      expectError(
        await t.http.delete(`/console/api/api-keys/${other.key_id}`).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf),
        404,
        'not_found',
      );
      expect((await t.http.get('/v1/kb/icps').set('Authorization', other.auth)).body.data[0].name).toBe('Theirs');
      expect((await t.http.get('/v1/buyers').set('Authorization', other.auth)).status).toBe(200);
    });

    it('serves Buyers, Signals, activities and events lists under the console path', async () => {
      const s = await signIn();
      for (const path of ['buyers', 'signals', 'activities', 'events', 'webhook-endpoints']) {
        const viaConsole = await t.http.get(`/console/api/${path}`).set('Cookie', s.cookie);
        const viaApi = await t.http.get(path === 'activities' ? '/ingest/v1/activities' : `/v1/${path}`).set('Authorization', s.ws.auth);
        expect([path, viaConsole.status]).toEqual([path, 200]);
        expect(Object.keys(viaConsole.body).sort()).toEqual(Object.keys(viaApi.body).sort());
      }
    });
  });

  describe('API keys', () => {
    it('lists, creates (secret shown once) and revokes keys; the revoked key is refused by the API at once', async () => {
      const s = await signIn();
      const list = await t.http.get('/console/api/api-keys').set('Cookie', s.cookie);
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([
        { id: s.ws.key_id, scope: 'write', created_at: expect.any(String), last_used_at: null, revoked_at: null },
      ]);
      expect(JSON.stringify(list.body)).not.toContain('svc_live_');

      expectError(
        await t.http.post('/console/api/api-keys').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).send({ scope: 'admin' }),
        400,
        'validation_error',
        'scope',
      );
      const created = await t.http
        .post('/console/api/api-keys')
        .set('Cookie', s.cookie)
        .set('X-CSRF-Token', s.csrf)
        .send({ scope: 'read' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^key_\d{19}$/),
        scope: 'read',
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: null,
        secret: expect.stringMatching(/^svc_live_/),
      });
      const auth = `Bearer ${String(created.body.secret)}`;
      expect((await t.http.get('/v1/buyers').set('Authorization', auth)).status).toBe(200);

      const revoked = await t.http.delete(`/console/api/api-keys/${created.body.id}`).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ id: created.body.id, revoked_at: expect.any(String) });
      expect(revoked.body).not.toHaveProperty('secret');
      expectError(await t.http.get('/v1/buyers').set('Authorization', auth), 401, 'authentication_error');
      expectError(
        await t.http
          .delete(`/console/api/api-keys/key_${'9'.repeat(19)}`)
          .set('Cookie', s.cookie)
          .set('X-CSRF-Token', s.csrf),
        404,
        'not_found',
      );
    });
  });

  describe('pages', () => {
    it('answers /console and client routes with a page under a self-only Content-Security-Policy', async () => {
      for (const path of ['/console', '/console/', '/console/buyers/buy_1']) {
        const res = await t.http.get(path);
        expect([path, res.status]).toEqual([path, 200]);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['content-security-policy']).toContain("default-src 'self'");
        expect(res.headers['content-security-policy']).not.toMatch(/https?:/);
        expect(res.headers['cache-control']).toBe('no-cache');
      }
      // The API's own paths are not pages.
      expectError(await t.http.get('/console/api/nothing-here'), 401, 'authentication_error');
    });
  });

  it('keeps session rows to hashes: no token is stored', async () => {
    const s = await signIn();
    const token = s.cookie.split('=')[1];
    const { rows } = await db.query<{ token_hash: Buffer }>(`SELECT token_hash FROM console_sessions`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.token_hash.toString('base64url')).not.toBe(token);
    const stored = await db.query<{ password_hash: string }>(`SELECT password_hash FROM console_users WHERE email = $1`, [s.user.email]);
    expect(stored.rows[0].password_hash).toMatch(/^scrypt\$/);
    expect(stored.rows[0].password_hash).not.toContain(s.user.password);
  });
});

describe('console sign-in limit', () => {
  // Its own application: the block it provokes covers the test client's address too.
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CONSOLE_SIGNIN_LIMIT: '10' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses the tenth wrong password with 429 and Retry-After, and then the right one too', async () => {
    const ws = await t.newWorkspace();
    const user = await t.app.get(ConsoleUsersService).createUser(ws.workspace_id, `l-${unique()}@example.com`);
    for (let attempt = 1; attempt < 10; attempt++) {
      expectError(
        await t.http.post('/console/api/session').send({ email: user.email, password: `wrong-${attempt}` }),
        401,
        'authentication_error',
      );
    }
    const tenth = await t.http.post('/console/api/session').send({ email: user.email, password: 'wrong-10' });
    expectError(tenth, 429, 'rate_limit_exceeded');
    expect(Number(tenth.headers['retry-after'])).toBeGreaterThan(0);
    const right = await t.http.post('/console/api/session').send({ email: user.email, password: user.password });
    expectError(right, 429, 'rate_limit_exceeded');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });
});
