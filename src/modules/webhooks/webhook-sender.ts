import type { OnApplicationShutdown } from '@nestjs/common';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { literalRefusal, resolveReceiver } from './receiver-address';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer; the rest is discarded. */
export const MAX_RESPONSE_BYTES = 4_096;
export const USER_AGENT = 'buyer-intelligence-webhooks/1.0';
/** Connections kept per receiver origin and process. */
const CONNECTIONS_PER_ORIGIN = 64;

export interface SendResult {
  statusCode: number | null;
  /** Why no status came back (timeout, refused address, connection error). */
  error: string | null;
  latencyMs: number;
  /** The start of the answer's body, as text. */
  excerpt: string;
}

/**
 * Connections only to allowed addresses: a host name is resolved by the connection's own lookup,
 * every address checked, and the socket goes to those addresses (no second lookup to rebind); an
 * address written in the URL is checked before connecting. A kept-alive connection stays with the
 * address checked when it was opened.
 */
function checkedConnector(allowLoopback: boolean): buildConnector.connector {
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolveReceiver(hostname, allowLoopback).then(
      (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)),
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
  const connect = buildConnector({ lookup });
  return (options, callback) => {
    const refusal = literalRefusal(options.hostname, allowLoopback);
    if (refusal) callback(refusal, null);
    else connect(options, callback);
  };
}

/**
 * One webhook POST through undici (Node's own HTTP client library): connections checked as above
 * and kept alive per origin; no redirect is followed; the answer is read up to 4 KiB; the whole
 * exchange has 10 s.
 */
export class WebhookSender implements OnApplicationShutdown {
  private readonly agent: Agent;

  constructor(allowLoopback: boolean) {
    this.agent = new Agent({ connections: CONNECTIONS_PER_ORIGIN, connect: checkedConnector(allowLoopback) });
  }

  async send(url: string, headers: Record<string, string>, body: string, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<SendResult> {
    const started = Date.now();
    const target = new URL(url);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    const excerpt = () => Buffer.concat(chunks).toString('utf8');
    try {
      const answer = await this.agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body,
        signal: abort.signal,
      });
      statusCode = answer.statusCode;
      let size = 0;
      // Enough is read at 4 KiB: leaving the loop destroys the rest of a large answer.
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
        size += chunk.length;
        if (size >= MAX_RESPONSE_BYTES) break;
      }
      return { statusCode, error: null, excerpt: excerpt(), latencyMs: Date.now() - started };
    } catch (error) {
      // Out of time, even with the status read: no answer within the time allowed.
      if (abort.signal.aborted)
        return { statusCode: null, error: `no answer within ${timeoutMs} ms`, excerpt: '', latencyMs: Date.now() - started };
      return { statusCode, error: (error as Error).message, excerpt: excerpt(), latencyMs: Date.now() - started };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.agent.destroy();
  }

  /**
   * As a provider, closed at the application's shutdown: after the delivery workers have
   * finished the jobs in hand (they close before it), so that no delivery in flight is cut off.
   */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
