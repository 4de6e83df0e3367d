/**
 * Webhooks end to end: endpoints through the API, events delivered by the workers to a real local
 * receiver, signed per Standard Webhooks (verified with the `standardwebhooks` package), retried
 * after failures, recorded as deliveries, and kept apart per workspace.
 */
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { WebhookQueue } from '../../src/modules/webhooks/webhook-queue';
import { expectError } from '../support/assertions';
import { ingestAndWait, PIPELINE_APP_ENV, targetPage, uniq, websiteActivity } from '../support/pipeline';
import { startTestApp, TestApp, TestWorkspace } from '../support/test-app';
import { waitFor } from '../support/wait';
import { Received, startReceiver, WebhookReceiver } from '../support/webhook-receiver';
import { internalId } from '../support/worker-process';

let t: TestApp;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  t = await startTestApp({ ...PIPELINE_APP_ENV, WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '100' });
});

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await t?.close();
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<WebhookReceiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

async function endpoint(ws: TestWorkspace, url: string, enabledEvents: string[] = ['*']): Promise<Record<string, any>> {
  const res = await t.http.post('/v1/webhook-endpoints').set('Authorization', ws.auth).send({ url, enabled_events: enabledEvents });
  if (res.status !== 201) throw new Error(`POST /v1/webhook-endpoints: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A workspace with a Target Page, and one visit through the pipeline. */
async function visit(ws: TestWorkspace, url?: string): Promise<void> {
  const page = url ?? `https://www.wh-${uniq()}.com/pricing`;
  if (!url) await targetPage(t, ws, page);
  await ingestAndWait(t, ws, [websiteActivity('visited_page', page)]);
}

const typeOf = (request: Received) => (JSON.parse(request.body) as { type: string }).type;
const ofType = (requests: Received[], type: string) => requests.filter((request) => typeOf(request) === type);

describe('webhook endpoints', () => {
  test('create shows the secret once; read, list and update never do; delete stops it; read keys may only read', async () => {
    const ws = await t.newWorkspace();
    const created = await endpoint(ws, 'http://127.0.0.1:9/hooks', ['signal.created', 'buyer.*']);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^whe_\d{19}$/),
      object: 'webhook_endpoint',
      enabled_events: ['signal.created', 'buyer.*'],
      enabled: true,
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_/),
    });
    const got = await t.http.get(`/v1/webhook-endpoints/${created.id}`).set('Authorization', ws.auth);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect(JSON.stringify(got.body)).not.toContain(created.secret.slice(6));
    const listed = await t.http.get('/v1/webhook-endpoints').set('Authorization', ws.auth);
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([created.id]);
    const patched = await t.http
      .patch(`/v1/webhook-endpoints/${created.id}`)
      .set('Authorization', ws.auth)
      .send({ enabled: false, description: 'paused' });
    expect(patched.body).toMatchObject({ enabled: false, description: 'paused', disabled_reason: 'disabled by request' });
    expect(patched.body).not.toHaveProperty('secret');

    const read = await t.workspaces.createKey(ws.workspace_id, 'read');
    const readAuth = `Bearer ${read.api_key}`;
    expect((await t.http.get(`/v1/webhook-endpoints/${created.id}`).set('Authorization', readAuth)).status).toBe(200);
    expectError(
      await t.http
        .post('/v1/webhook-endpoints')
        .set('Authorization', readAuth)
        .send({ url: 'http://127.0.0.1:9', enabled_events: ['*'] }),
      403,
      'permission_denied',
    );
    expectError(
      await t.http.post(`/v1/webhook-endpoints/${created.id}/rotate-secret`).set('Authorization', readAuth),
      403,
      'permission_denied',
    );

    expect((await t.http.delete(`/v1/webhook-endpoints/${created.id}`).set('Authorization', ws.auth)).status).toBe(204);
    expectError(await t.http.get(`/v1/webhook-endpoints/${created.id}`).set('Authorization', ws.auth), 404, 'not_found');
  });

  test('bad input: invalid or private URLs, unknown event types, empty or unknown fields are 400 with param', async () => {
    const ws = await t.newWorkspace();
    const post = (body: unknown) =>
      t.http
        .post('/v1/webhook-endpoints')
        .set('Authorization', ws.auth)
        .send(body as object);
    expectError(await post({ url: 'not a url', enabled_events: ['*'] }), 400, 'validation_error', 'url');
    expectError(await post({ url: 'ftp://hooks.example.com', enabled_events: ['*'] }), 400, 'validation_error', 'url');
    expectError(await post({ url: 'http://10.1.2.3/hooks', enabled_events: ['*'] }), 400, 'validation_error', 'url');
    expectError(await post({ url: 'http://169.254.169.254/latest', enabled_events: ['*'] }), 400, 'validation_error', 'url');
    expectError(await post({ url: 'http://[fd00::1]/hooks', enabled_events: ['*'] }), 400, 'validation_error', 'url');
    expectError(await post({ url: 'https://user:pw@hooks.example.com', enabled_events: ['*'] }), 400, 'validation_error', 'url');
    expectError(await post({ url: 'http://127.0.0.1:9', enabled_events: ['buyer.deleted'] }), 400, 'validation_error', 'enabled_events');
    expectError(await post({ url: 'http://127.0.0.1:9', enabled_events: [] }), 400, 'validation_error', 'enabled_events');
    expectError(await post({ url: 'http://127.0.0.1:9' }), 400, 'validation_error', 'enabled_events');
    expectError(await post({ url: 'http://127.0.0.1:9', enabled_events: ['*'], secret: 'mine' }), 400, 'validation_error', 'secret');
    // The body's own rules come before the host's DNS answer.
    expectError(
      await post({ url: 'https://hooks.example.invalid/bi', enabled_events: ['buyer.deleted'] }),
      400,
      'validation_error',
      'enabled_events',
    );
    const created = await endpoint(ws, 'http://127.0.0.1:9/hooks');
    const patch = (body: unknown) =>
      t.http
        .patch(`/v1/webhook-endpoints/${created.id}`)
        .set('Authorization', ws.auth)
        .send(body as object);
    expectError(await patch({}), 400, 'validation_error', 'body');
    expectError(await patch({ enabled: 'yes' }), 400, 'validation_error', 'enabled');
    expectError(await patch({ url: 'http://192.168.1.1/x' }), 400, 'validation_error', 'url');
    // Nothing was written by the refused requests.
    const listed = await t.http.get('/v1/webhook-endpoints').set('Authorization', ws.auth);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].url).toBe('http://127.0.0.1:9/hooks');
  });

  test('a host that does not resolve yet is accepted; its deliveries fail and say why', async () => {
    const ws = await t.newWorkspace();
    // `.invalid` never resolves (RFC 2606), on any network.
    const created = await endpoint(ws, 'https://hooks.example.invalid/bi');
    expect(created.url).toBe('https://hooks.example.invalid/bi');
    const ping = await t.http.post(`/v1/webhook-endpoints/${created.id}/test`).set('Authorization', ws.auth);
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ succeeded: false, status_code: null, error: expect.stringContaining('hooks.example.invalid') });
    const moved = await t.http
      .patch(`/v1/webhook-endpoints/${created.id}`)
      .set('Authorization', ws.auth)
      .send({ url: 'https://hooks.other.invalid/bi' });
    expect(moved.status).toBe(200);
    expect(moved.body.url).toBe('https://hooks.other.invalid/bi');
  });
});

describe('webhook delivery', () => {
  test('each subscribed event arrives signed per Standard Webhooks, with the body of GET /v1/events/{id}', async () => {
    const ws = await t.newWorkspace();
    const inbox = await receiver();
    const { secret } = await endpoint(ws, inbox.url, ['signal.created', 'buyer.created']);
    await visit(ws);
    await waitFor(
      () => inbox.received.length,
      (n) => n >= 2,
      { what: 'two webhooks' },
    );
    expect(inbox.received.map(typeOf).sort()).toEqual(['buyer.created', 'signal.created']);
    for (const request of inbox.received) {
      const headers = request.headers as Record<string, string>;
      expect(new Webhook(secret).verify(request.body, headers)).toEqual(JSON.parse(request.body));
      expect(() => new Webhook(secret).verify(request.body.replace('"type"', '"typ"'), headers)).toThrow();
      expect(headers['user-agent']).toMatch(/^buyer-intelligence-webhooks\//);
      expect(headers.authorization).toBeUndefined();
      const event = JSON.parse(request.body);
      expect(headers['webhook-id']).toBe(event.id);
      const fromFeed = await t.http.get(`/v1/events/${event.id}`).set('Authorization', ws.auth);
      expect(fromFeed.body).toEqual(event);
    }
  });

  test('a receiver failing with 500 for a while gets every event with a stable webhook-id; the deliveries show the failures', async () => {
    const ws = await t.newWorkspace();
    const inbox = await receiver((n) => (n <= 3 ? 500 : 200));
    const created = await endpoint(ws, inbox.url, ['signal.created']);
    await visit(ws);
    const successes = () => inbox.received.filter((_, k) => k >= 3);
    await waitFor(
      () => successes().length,
      (n) => n >= 1,
      { timeoutMs: 20_000, what: 'the delivery to succeed after three failures' },
    );
    const ids = new Set(inbox.received.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const deliveries = await waitFor(
      async () => (await t.http.get(`/v1/webhook-endpoints/${created.id}/deliveries`).set('Authorization', ws.auth)).body.data as any[],
      (rows) => rows.some((row) => row.succeeded),
      { what: 'the successful attempt to be recorded' },
    );
    const ordered = [...deliveries].sort((a, b) => a.attempt - b.attempt);
    expect(ordered.map((row) => [row.attempt, row.status_code, row.succeeded])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 200, true],
    ]);
    expect(ordered[0]).toMatchObject({
      event_type: 'signal.created',
      response_excerpt: 'failing with 500',
      next_retry_at: expect.any(String),
    });
    expect(ordered[3].next_retry_at).toBeNull();
  });

  test('a batch that meets a failing receiver: every event still arrives, the failed one retried with its own id', async () => {
    const ws = await t.newWorkspace();
    const url = `https://www.wh-${uniq()}.com/pricing`;
    await targetPage(t, ws, url);
    const inbox = await receiver((n) => (n === 3 || n === 4 ? 503 : 200));
    await endpoint(ws, inbox.url, ['signal.created', 'buyer.created']);
    await ingestAndWait(
      t,
      ws,
      Array.from({ length: 6 }, () => websiteActivity('visited_page', url)),
    );
    const delivered = () => new Set(inbox.received.filter((_, k) => k !== 2 && k !== 3).map((request) => request.headers['webhook-id']));
    await waitFor(
      () => delivered().size,
      (n) => n >= 12,
      { timeoutMs: 20_000, what: 'all twelve events to be delivered' },
    );
    // The ids that failed came again, unchanged; nothing else was sent twice.
    const failed = [inbox.received[2], inbox.received[3]].map((request) => request.headers['webhook-id']);
    for (const id of failed)
      expect(inbox.received.filter((request) => request.headers['webhook-id'] === id).length).toBeGreaterThanOrEqual(2);
    expect(inbox.received.length).toBeLessThanOrEqual(14);
  });

  test('a batch longer than one window that meets a failure: the events after the failed window still arrive', async () => {
    const ws = await t.newWorkspace();
    const url = `https://www.wh-${uniq()}.com/pricing`;
    await targetPage(t, ws, url);
    // 24 events before the endpoint exists (it is sent only what happens after), then all of them
    // as one batch job, as the dispatcher queues them: more than one window, so a failure in the
    // first window leaves the rest unsent until the retry.
    await ingestAndWait(
      t,
      ws,
      Array.from({ length: 12 }, () => websiteActivity('visited_page', url)),
    );
    const feed = await t.http.get('/v1/events?type=signal.created,buyer.created&limit=100').set('Authorization', ws.auth);
    const eventIds = (feed.body.data as Array<{ id: string }>).map((event) => internalId(event.id));
    expect(eventIds).toHaveLength(24);
    const inbox = await receiver((n) => (n === 1 ? 503 : 200));
    const created = await endpoint(ws, inbox.url, ['signal.created', 'buyer.created']);
    await t.app
      .get(WebhookQueue)
      .add([{ workspaceId: internalId(ws.workspace_id), endpointId: internalId(created.id as string), eventIds }]);
    const delivered = () => new Set(inbox.received.slice(1).map((request) => request.headers['webhook-id']));
    await waitFor(
      () => delivered().size,
      (n) => n >= 24,
      { timeoutMs: 20_000, what: 'all 24 events to be delivered' },
    );
    // Only the failed event was sent twice.
    const failed = inbox.received[0].headers['webhook-id'];
    expect(inbox.received.filter((request) => request.headers['webhook-id'] === failed)).toHaveLength(2);
    expect(inbox.received).toHaveLength(25);
  });

  test('a receiver that hangs does not hold back another endpoint', async () => {
    const ws = await t.newWorkspace();
    const stuck = await receiver(() => 'hang');
    const quick = await receiver();
    await endpoint(ws, stuck.url);
    await endpoint(ws, quick.url);
    const url = `https://www.wh-${uniq()}.com/pricing`;
    await targetPage(t, ws, url);
    for (let k = 0; k < 3; k++)
      await ingestAndWait(
        t,
        ws,
        Array.from({ length: 10 }, () => websiteActivity('visited_page', url)),
      );
    // 61 events; the stuck receiver holds its share of the slots, the quick one still gets them all.
    await waitFor(
      () => quick.received.length,
      (n) => n >= 61,
      { timeoutMs: 8_000, what: 'every event at the quick receiver while the other hangs' },
    );
    expect(stuck.received.length).toBeGreaterThan(0);
  });

  test('after a secret rotation both secrets verify, for 24 hours', async () => {
    const ws = await t.newWorkspace();
    const inbox = await receiver();
    const created = await endpoint(ws, inbox.url, ['signal.created']);
    const rotated = await t.http.post(`/v1/webhook-endpoints/${created.id}/rotate-secret`).set('Authorization', ws.auth);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    await visit(ws);
    await waitFor(
      () => inbox.received.length,
      (n) => n >= 1,
      { what: 'a webhook' },
    );
    const [request] = inbox.received;
    const headers = request.headers as Record<string, string>;
    expect(new Webhook(rotated.body.secret).verify(request.body, headers)).toBeTruthy();
    expect(new Webhook(created.secret).verify(request.body, headers)).toBeTruthy();
  });

  test('test ping and redelivery', async () => {
    const ws = await t.newWorkspace();
    const inbox = await receiver();
    const created = await endpoint(ws, inbox.url, ['signal.created']);
    const ping = await t.http.post(`/v1/webhook-endpoints/${created.id}/test`).set('Authorization', ws.auth);
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ object: 'webhook_delivery', event_type: 'ping', succeeded: true, status_code: 200, event_id: null });
    expect(typeOf(inbox.received[0])).toBe('ping');
    expect(new Webhook(created.secret).verify(inbox.received[0].body, inbox.received[0].headers as Record<string, string>)).toBeTruthy();

    await visit(ws);
    await waitFor(
      () => ofType(inbox.received, 'signal.created').length,
      (n) => n >= 1,
      { what: 'the Signal webhook' },
    );
    const eventId = JSON.parse(ofType(inbox.received, 'signal.created')[0].body).id as string;
    const redelivered = await t.http.post(`/v1/events/${eventId}/redeliver`).set('Authorization', ws.auth);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toEqual({ object: 'redelivery', event_id: eventId, endpoint_ids: [created.id] });
    await waitFor(
      () => ofType(inbox.received, 'signal.created').length,
      (n) => n >= 2,
      { what: 'the redelivery' },
    );
    expect(ofType(inbox.received, 'signal.created').map((request) => request.headers['webhook-id'])).toEqual([eventId, eventId]);
    expectError(await t.http.post('/v1/events/evt_0000000000000000001/redeliver').set('Authorization', ws.auth), 404, 'not_found');
  });

  test('workspaces apart: no event of another workspace is delivered, and its endpoints and deliveries are 404', async () => {
    const [mine, theirs] = [await t.newWorkspace(), await t.newWorkspace()];
    const inbox = await receiver();
    const theirsEndpoint = await endpoint(theirs, inbox.url);
    const control = await receiver();
    await endpoint(mine, control.url, ['signal.created']);
    await visit(mine);
    await waitFor(
      () => control.received.length,
      (n) => n >= 1,
      { what: 'my own webhook' },
    );
    expect(inbox.received).toHaveLength(0);
    expectError(await t.http.get(`/v1/webhook-endpoints/${theirsEndpoint.id}`).set('Authorization', mine.auth), 404, 'not_found');
    expectError(
      await t.http.get(`/v1/webhook-endpoints/${theirsEndpoint.id}/deliveries`).set('Authorization', mine.auth),
      404,
      'not_found',
    );
    expectError(await t.http.delete(`/v1/webhook-endpoints/${theirsEndpoint.id}`).set('Authorization', mine.auth), 404, 'not_found');
  });

  test('an endpoint whose deliveries have failed for three days is disabled, and says why', async () => {
    const ws = await t.newWorkspace();
    const inbox = await receiver(() => 503);
    const created = await endpoint(ws, inbox.url, ['signal.created']);
    await t.app
      .get(DataSource)
      .query(`UPDATE webhook_endpoints SET failing_since = now() - interval '73 hours' WHERE workspace_id = $1`, [
        internalId(ws.workspace_id),
      ]);
    await visit(ws);
    const disabled = await waitFor(
      async () => (await t.http.get(`/v1/webhook-endpoints/${created.id}`).set('Authorization', ws.auth)).body,
      (body) => body.enabled === false,
      { what: 'the endpoint to be disabled' },
    );
    expect(disabled.disabled_reason).toBe('every delivery failed for three days');
    expect(inbox.received).toHaveLength(1);
  });
});
