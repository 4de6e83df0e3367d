import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks libraries take it. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one message: its id (the same on every attempt), the time of
 * this attempt, and one `v1,` signature per secret (two while a rotated secret still signs), so a
 * receiver verifies with any Standard Webhooks library and either secret.
 */
export function signedHeaders(messageId: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
