/**
 * A worker process stopped with SIGTERM while a webhook is in flight finishes that delivery (the
 * receiver's answer is awaited and recorded) before it exits 0.
 */
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { startReceiver, WebhookReceiver } from '../support/webhook-receiver';
import { killAllChildren, startWorker, stopWorker } from '../support/worker-process';

let t: TestApp;
let inbox: WebhookReceiver;

beforeAll(async () => {
  t = await startTestApp({ RUN_WORKERS: 'false', WEBHOOK_ALLOW_INSECURE_URLS: 'true' });
  // Holds every answer until the test releases it.
  inbox = await startReceiver(() => 'hang');
});

afterAll(async () => {
  await killAllChildren();
  await inbox?.close();
  await t?.close();
});

test('SIGTERM during a delivery: the worker waits for the answer, records it as delivered and exits 0', async () => {
  const ws = await t.newWorkspace();
  const created = await t.http
    .post('/v1/webhook-endpoints')
    .set('Authorization', ws.auth)
    .send({ url: inbox.url, enabled_events: ['kb.topic.created'] });
  expect(created.status).toBe(201);
  const worker = startWorker(t.config, { WEBHOOK_ALLOW_INSECURE_URLS: 'true' });
  const topic = await t.http
    .post('/v1/kb/topics')
    .set('Authorization', ws.auth)
    .send({ name: 'Intent data', short_name: 'intent', description: 'Buying signals.' });
  expect(topic.status).toBe(201);
  await waitFor(
    () => inbox.received.length,
    (n) => n >= 1,
    { timeoutMs: 20_000, what: 'the webhook to reach the receiver' },
  );

  // The delivery is in flight: stop the worker, give its shutdown a second in which a sender
  // closed too early would drop the connection, and only then answer.
  const stopped = stopWorker(worker, 'SIGTERM', 20_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  inbox.release(200);
  await expect(stopped).resolves.toEqual({ code: 0, signal: null });

  const deliveries = await t.http.get(`/v1/webhook-endpoints/${created.body.id}/deliveries`).set('Authorization', ws.auth);
  expect(deliveries.status).toBe(200);
  expect(deliveries.body.data).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, succeeded: true })]);
  expect(inbox.received).toHaveLength(1);
}, 60_000);
