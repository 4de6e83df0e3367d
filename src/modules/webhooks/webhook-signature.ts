import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks libraries take it. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * One Standard Webhooks signature: HMAC-SHA256, keyed with the secret's base64-decoded bytes, of
 * `{id}.{timestamp}.{body}`, in base64 after `v1,` — what the `standardwebhooks` package's
 * `Webhook.sign` computes (and its `verify` checks, in the tests), with Node's native HMAC.
 */
function signature(secret: string, messageId: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one message: its id (the same on every attempt), the time of
 * this attempt, and one `v1,` signature per secret (two while a rotated secret still signs), so a
 * receiver verifies with any Standard Webhooks library and either secret.
 */
export function signedHeaders(messageId: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((secret) => signature(secret, messageId, timestamp, body)).join(' '),
  };
}
