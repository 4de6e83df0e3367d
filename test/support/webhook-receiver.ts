import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** What the receiver answers to the n-th request (from 1): a status, or 'hang' to never answer. */
export type Behaviour = (n: number, request: Received) => number | 'hang';

/** A real local HTTP server that records every webhook it gets. */
export interface WebhookReceiver {
  url: string;
  received: Received[];
  setBehaviour(behaviour: Behaviour): void;
  /** Answers every request held by 'hang' so far with `status`. */
  release(status: number): void;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 200): Promise<WebhookReceiver> {
  let current = behaviour;
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(request);
      const answer = current(received.length, request);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 200 && answer < 300 ? 'ok' : `failing with ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    setBehaviour: (next) => (current = next),
    release: (status) => {
      for (const res of hanging) res.writeHead(status, { 'content-type': 'text/plain' }).end('released');
      hanging.clear();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
