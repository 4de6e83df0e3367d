import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_RESPONSE_BYTES, USER_AGENT, WebhookSender } from './webhook-sender';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local receiver answering with `answer`; what it received is kept in order. */
async function receiver(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

describe('WebhookSender', () => {
  const servers: Server[] = [];
  const senders: WebhookSender[] = [];
  const sender = (allowLoopback = true) => {
    const made = new WebhookSender(allowLoopback);
    senders.push(made);
    return made;
  };
  const serve = async (answer: (req: IncomingMessage, res: ServerResponse) => void) => {
    const made = await receiver(answer);
    servers.push(made.server);
    return made;
  };

  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.close()));
    await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))));
  });

  test('posts the body with the given headers, its own User-Agent and JSON content type, and reads the answer', async () => {
    const target = await serve((_req, res) => res.writeHead(202, { 'content-type': 'text/plain' }).end('accepted'));
    const body = JSON.stringify({ id: 'evt_1', note: 'café' });
    const result = await sender().send(`${target.url}/hooks?x=1`, { 'webhook-id': 'evt_1' }, body);
    expect(result).toMatchObject({ statusCode: 202, error: null, excerpt: 'accepted' });
    expect(target.received).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/hooks?x=1',
        body,
        headers: expect.objectContaining({
          'webhook-id': 'evt_1',
          'user-agent': USER_AGENT,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        }),
      }),
    ]);
  });

  test('a redirect is not followed: its status is the answer', async () => {
    const elsewhere = await serve((_req, res) => res.writeHead(200).end());
    const target = await serve((_req, res) => res.writeHead(302, { location: `${elsewhere.url}/stolen` }).end());
    const result = await sender().send(`${target.url}/hooks`, {}, '{}');
    expect(result).toMatchObject({ statusCode: 302, error: null });
    expect(elsewhere.received).toHaveLength(0);
  });

  test('at most 4 KiB of a large answer is read', async () => {
    const target = await serve((_req, res) => res.writeHead(500).end('x'.repeat(1_000_000)));
    const result = await sender().send(`${target.url}/hooks`, {}, '{}');
    expect(result.statusCode).toBe(500);
    expect(result.excerpt).toBe('x'.repeat(MAX_RESPONSE_BYTES));
  });

  test('a receiver that does not answer in time is given up, without a status', async () => {
    const target = await serve(() => undefined);
    const result = await sender().send(`${target.url}/hooks`, {}, '{}', 300);
    expect(result).toMatchObject({ statusCode: null, error: 'no answer within 300 ms', excerpt: '' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
  });

  test('loopback is refused unless allowed, whether written as an address or as a name, and nothing is sent', async () => {
    const target = await serve((_req, res) => res.writeHead(200).end());
    const port = new URL(target.url).port;
    const byAddress = await sender(false).send(`http://127.0.0.1:${port}/hooks`, {}, '{}');
    expect(byAddress).toMatchObject({ statusCode: null, error: expect.stringContaining('a loopback address') });
    const byName = await sender(false).send(`http://localhost:${port}/hooks`, {}, '{}');
    expect(byName).toMatchObject({ statusCode: null, error: expect.stringContaining('a loopback address') });
    expect(target.received).toHaveLength(0);
  });

  test('a private address is refused even where loopback is allowed', async () => {
    const result = await sender(true).send('http://10.1.2.3/hooks', {}, '{}');
    expect(result).toMatchObject({ statusCode: null, error: expect.stringContaining('a private, link-local or reserved address') });
  });

  test('a connection that fails says why', async () => {
    const target = await serve((_req, res) => res.writeHead(200).end());
    const { port } = target.server.address() as AddressInfo;
    await new Promise<void>((resolve) => target.server.close(() => resolve()));
    const result = await sender().send(`http://127.0.0.1:${port}/hooks`, {}, '{}');
    expect(result).toMatchObject({ statusCode: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  test('connections are kept alive between deliveries to one receiver', async () => {
    const sockets = new Set<unknown>();
    const target = await serve((req, res) => (sockets.add(req.socket), res.writeHead(204).end()));
    const send = sender();
    for (let k = 0; k < 10; k++) expect((await send.send(`${target.url}/hooks`, {}, '{}')).statusCode).toBe(204);
    expect(target.received).toHaveLength(10);
    // One after the other, the pool takes turns between at most two of its connections.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });
});
