import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { AppModule } from '../../src/app.module';
import { AppConfig } from '../../src/config/config';
import { redactUrl } from '../../src/shared/interface/http/request-log';
import { BuyersService } from '../../src/modules/buyers/buyers.service';
import { WorkspacesService } from '../../src/modules/workspaces/workspaces.service';
import { ConsoleUsersService } from '../../src/modules/console/console-users.service';
import { dropDatabase, prepareDatabase } from '../../src/database/bootstrap';
import { apiApplication, deleteQueueKeys, testConfig } from '../support/test-app';

// The structured logger is process-wide, so this file builds its only app itself, logging to a
// stream it reads.
describe('request logs', () => {
  let config: AppConfig;
  let app: INestApplication;
  let http: TestAgent;
  const lines: string[] = [];

  beforeAll(async () => {
    config = testConfig({ LOG_LEVEL: 'info' });
    await prepareDatabase(config.databaseUrl);
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, stream)] }).compile();
    app = apiApplication(moduleRef);
    await app.init();
    http = request(app.getHttpServer());
  });
  afterAll(async () => {
    await app.close();
    await dropDatabase(config.databaseUrl);
    await deleteQueueKeys(config);
  });

  /** The log lines of a request; the line is written when the response finishes, so wait a little. */
  const entriesFor = async (requestId: string) => {
    for (let i = 0; i < 50; i++) {
      const found = lines.map((line) => JSON.parse(line) as Record<string, any>).filter((entry) => entry.req?.id === requestId);
      if (found.length > 0) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return [];
  };

  it('writes one JSON line per request with its request id, workspace id and status, and no key', async () => {
    const ws = await app.get(WorkspacesService).createWorkspace('Logged');
    const res = await http
      .get('/v1/kb/icps')
      .set('Authorization', `Bearer ${ws.api_key}`)
      .set('User-Agent', 'bi-test')
      .set('Cookie', 'session=secret');
    expect(res.status).toBe(200);
    const entries = await entriesFor(res.headers['x-request-id']);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      workspace_id: ws.workspace_id,
      res: { statusCode: 200 },
      req: { method: 'GET', url: '/v1/kb/icps' },
    });
    expect(entries[0].req.headers).toEqual({ 'user-agent': 'bi-test' });
    expect(lines.join('\n')).not.toContain('session=secret');
    expect(lines.join('\n')).not.toContain(ws.api_key.slice('svc_live_'.length));
  });

  it('refuses a key in the query string and logs the URL with it redacted', async () => {
    const ws = await app.get(WorkspacesService).createWorkspace('Leaky');
    const res = await http.get(`/v1/kb/icps?api_key=${ws.api_key}&limit=5`);
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain(ws.api_key);
    const [entry] = await entriesFor(res.headers['x-request-id']);
    expect(entry.req.url).toBe('/v1/kb/icps?api_key=[redacted]&limit=5');
    const other = await http.get(`/v1/kb/icps?q=${ws.api_key}`).set('Authorization', `Bearer ${ws.api_key}`);
    expect(other.status).toBe(401);
    expect((await entriesFor(other.headers['x-request-id']))[0].req.url).toBe('/v1/kb/icps?q=[redacted]');
    expect(lines.join('\n')).not.toContain(ws.api_key.slice('svc_live_'.length));
  });

  it('leaves probes and metric scrapes out of the log, but still gives them a request id', async () => {
    const probes = await Promise.all(['/health/live', '/metrics'].map((path) => http.get(path)));
    const logged = await http.get('/v1/unknown');
    expect(await entriesFor(logged.headers['x-request-id'])).toHaveLength(1);
    for (const probe of probes) {
      expect(probe.status).toBe(200);
      expect(probe.headers['x-request-id']).toMatch(/^req_[0-9a-z]{24}$/);
      expect(lines.some((line) => line.includes(probe.headers['x-request-id']))).toBe(false);
    }
  });

  it("logs an unexpected failure through the same logger, Nest's own line included, and answers 500 without its details", async () => {
    const ws = await app.get(WorkspacesService).createWorkspace('Failing');
    const failure = jest.spyOn(app.get(BuyersService), 'list').mockRejectedValueOnce(new Error('disk on fire at /var/secret'));
    try {
      const res = await http.get('/v1/buyers').set('Authorization', `Bearer ${ws.api_key}`);
      expect(res.status).toBe(500);
      expect(res.body.error).toMatchObject({ code: 'internal_error', request_id: res.headers['x-request-id'] });
      expect(JSON.stringify(res.body)).not.toContain('disk on fire');
      const entries = await entriesFor(res.headers['x-request-id']);
      const requestLine = entries.find((entry) => entry.msg === 'request errored');
      expect(requestLine).toMatchObject({ msg: 'request errored', res: { statusCode: 500 }, workspace_id: ws.workspace_id });
      const filterLine = lines
        .map((line) => JSON.parse(line) as Record<string, any>)
        .find((entry) => entry.context === 'ApiExceptionFilter' && entry.requestId === res.headers['x-request-id']);
      expect(filterLine).toMatchObject({ level: 50, msg: 'Unexpected error', err: { message: 'disk on fire at /var/secret' } });
      expect(filterLine!.err.stack).toContain('logging.e2e-spec.ts');
    } finally {
      failure.mockRestore();
    }
  });

  it('never logs a presented wrong key either', async () => {
    const guess = `svc_live_${'Gu3ss'.repeat(8)}`;
    const res = await http.post('/v1/kb/icps').set('Authorization', `Bearer ${guess}`).send({ name: 'x' });
    expect(res.status).toBe(401);
    expect(await entriesFor(res.headers['x-request-id'])).toHaveLength(1);
    expect(lines.join('\n')).not.toContain('Gu3ssGu3ss');
  });

  it('never logs a console password, session cookie or CSRF token; logs the console user and workspace', async () => {
    const ws = await app.get(WorkspacesService).createWorkspace('Console logged');
    const user = await app.get(ConsoleUsersService).createUser(ws.workspace_id, `logged-${Date.now()}@example.com`);
    const wrong = await http.post('/console/api/session').send({ email: user.email, password: 'Wr0ngPassw0rdWr0ng' });
    expect(wrong.status).toBe(401);
    const signIn = await http.post('/console/api/session').send({ email: user.email, password: user.password });
    expect(signIn.status).toBe(200);
    const cookie = ([] as string[]).concat(signIn.headers['set-cookie'] ?? [])[0].split(';', 1)[0];
    const write = await http
      .post('/console/api/kb/icps')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', signIn.body.csrf_token)
      .send({ name: 'Logged', short_name: 'logged', description: 'x' });
    expect(write.status).toBe(201);
    const entries = await entriesFor(write.headers['x-request-id']);
    expect(entries[0]).toMatchObject({ workspace_id: ws.workspace_id, console_user_id: user.user_id });
    const all = lines.join('\n');
    for (const secret of [user.password, 'Wr0ngPassw0rdWr0ng', cookie.split('=')[1], signIn.body.csrf_token as string]) {
      expect(all).not.toContain(secret);
    }
  });

  it('never echoes or logs a key sent where it does not belong, as sent or percent-encoded', async () => {
    const ws = await app.get(WorkspacesService).createWorkspace('Careless');
    const key = ws.api_key;
    const secret = key.slice('svc_live_'.length);
    const auth = `Bearer ${key}`;
    const encodedPrefix = key.replace(/_/g, '%5F');
    const encodedLetter = `%73${key.slice(1)}`;
    const responses = [
      // A name: of a query parameter (a key in the query string: 401), of a body field, of an activity field.
      await http.get(`/v1/kb/icps?${key}=1`).set('Authorization', auth),
      await http.get(`/v1/buyers?${encodedPrefix}=1`).set('Authorization', auth),
      await http
        .post('/v1/kb/icps')
        .set('Authorization', auth)
        .send({ [key]: 1 }),
      await http
        .patch('/v1/kb/icps/icp_0000000000000000001')
        .set('Authorization', auth)
        .send({ [key.toUpperCase()]: 'x' }),
      await http
        .post('/ingest/v1/activities')
        .set('Authorization', auth)
        .send({
          activities: [
            { type: 'website', trigger: 'visited_page', occurred_at: '2026-01-01T00:00:00Z', identity: { email: 'a@b.co' }, [key]: 1 },
          ],
        }),
      await http
        .post('/ingest/v1/activities')
        .set('Authorization', auth)
        .send({ [key]: [] }),
      await http
        .post('/v1/webhook-endpoints')
        .set('Authorization', auth)
        .send({ url: 'https://hooks.example.com/x', enabled_events: ['*'], [key]: 1 }),
      // Headers, and the URL percent-encoded.
      await http
        .get('/v1/kb/icps')
        .set('Authorization', auth)
        .set('User-Agent', `agent ${key}`)
        .set('Referer', `https://app.example.com/?k=${key}`),
      await http.get(`/v1/kb/icps?x=${encodedPrefix}`).set('Authorization', auth),
      await http.get(`/v1/kb/icps?x=${encodedLetter}`).set('Authorization', auth),
      await http.get(`/v1/kb/icps/${encodedLetter}`).set('Authorization', auth),
    ];
    for (const res of responses) {
      expect(res.status).toBeLessThan(500);
      expect(JSON.stringify(res.body)).not.toContain(secret);
      if (res.status === 400) expect(res.body.error.param === undefined || !res.body.error.param.includes(secret)).toBe(true);
      expect(await entriesFor(res.headers['x-request-id'])).toHaveLength(1);
    }
    expect(responses[0].status).toBe(401);
    expect(responses[2].body.error).toMatchObject({ code: 'validation_error', param: '[redacted]' });
    expect(responses[4].body.error).toMatchObject({ code: 'validation_error', param: 'activities[0].[redacted]' });

    // An unexpected error whose message carries the key: the log line has it redacted too.
    const failure = jest.spyOn(app.get(BuyersService), 'list').mockRejectedValueOnce(new Error(`upstream refused ${encodedPrefix}`));
    try {
      const res = await http.get('/v1/buyers').set('Authorization', auth);
      expect(res.status).toBe(500);
      expect(await entriesFor(res.headers['x-request-id'])).toHaveLength(1);
    } finally {
      failure.mockRestore();
    }
    expect(lines.join('\n')).not.toContain(secret);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/v1/kb/icps?api_key=svc_live_abc&limit=1', '/v1/kb/icps?api_key=[redacted]&limit=1'],
    ['/v1/x?apikey=abc', '/v1/x?apikey=[redacted]'],
    ['/v1/x?token=abc#frag', '/v1/x?token=[redacted]#frag'],
    ['/v1/x?password=hunter2&secret=s&limit=1', '/v1/x?password=[redacted]&secret=[redacted]&limit=1'],
    ['/v1/x?cursor=svc_live_ABC123', '/v1/x?cursor=[redacted]'],
    ['/v1/x/svc_live_ABC', '/v1/x/[redacted]'],
    ['/v1/kb/icps?limit=10', '/v1/kb/icps?limit=10'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
