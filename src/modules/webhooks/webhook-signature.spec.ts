import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signedHeaders } from './webhook-signature';

describe('signedHeaders', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'signal.created' });

  it('verifies with the standardwebhooks library, and a tampered body does not', () => {
    const secret = newSigningSecret();
    const headers = signedHeaders('evt_1', new Date(), body, [secret]);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('signal', 'buyer'), headers)).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });

  it('signs exactly as the standardwebhooks library does, non-ASCII bodies included', () => {
    const secret = newSigningSecret();
    const at = new Date('2026-11-28T12:00:00.999Z');
    for (const text of [body, JSON.stringify({ name: 'Zoë Müller — 東京', note: 'a\u2028b' }), '']) {
      expect(signedHeaders('evt_3', at, text, [secret])['webhook-signature']).toBe(new Webhook(secret).sign('evt_3', at, text));
    }
  });

  it('signs with both secrets during a rotation: either verifies', () => {
    const [next, previous] = [newSigningSecret(), newSigningSecret()];
    const headers = signedHeaders('evt_2', new Date(), body, [next, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });
});
