import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveReceiver } from './receiver-address';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer; the rest is discarded. */
export const MAX_RESPONSE_BYTES = 4_096;
export const USER_AGENT = 'buyer-intelligence-webhooks/1.0';

export interface SendResult {
  statusCode: number | null;
  /** Why no status came back (timeout, refused address, connection error). */
  error: string | null;
  latencyMs: number;
  /** The start of the answer's body, as text. */
  excerpt: string;
}

/**
 * One webhook POST: the host is resolved and every address checked before connecting, and the
 * connection goes to the address checked (no second lookup to rebind); no redirect is followed;
 * the answer is read up to 4 KiB; the whole exchange has 10 s. Connections are kept alive per host.
 */
export class WebhookSender {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 64 });

  constructor(private readonly allowLoopback: boolean) {}

  async send(url: string, headers: Record<string, string>, body: string, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<SendResult> {
    const started = Date.now();
    const done = (partial: Omit<SendResult, 'latencyMs'>): SendResult => ({ ...partial, latencyMs: Date.now() - started });
    const target = new URL(url);
    let addresses: Array<{ address: string; family: number }>;
    try {
      addresses = await resolveReceiver(target.hostname, this.allowLoopback);
    } catch (error) {
      return done({ statusCode: null, error: (error as Error).message, excerpt: '' });
    }
    const lookup: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
    const secure = target.protocol === 'https:';
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(result));
      };
      const req = (secure ? httpsRequest : httpRequest)(
        target,
        {
          method: 'POST',
          agent: secure ? this.https : this.http,
          lookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': USER_AGENT,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
            size += chunk.length;
            if (size >= MAX_RESPONSE_BYTES) {
              // Enough is read; the rest of a large answer is not waited for.
              finish({ statusCode: res.statusCode ?? null, error: null, excerpt: Buffer.concat(chunks).toString('utf8') });
              res.destroy();
            }
          });
          res.on('end', () => finish({ statusCode: res.statusCode ?? null, error: null, excerpt: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (error) =>
            finish({ statusCode: res.statusCode ?? null, error: error.message, excerpt: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `no answer within ${timeoutMs} ms`, excerpt: '' });
        req.destroy();
      }, timeoutMs);
      req.on('error', (error) => finish({ statusCode: null, error: error.message, excerpt: '' }));
      req.end(body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
