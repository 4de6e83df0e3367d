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

  it('signs with both secrets during a rotation: either verifies', () => {
    const [next, previous] = [newSigningSecret(), newSigningSecret()];
    const headers = signedHeaders('evt_2', new Date(), body, [next, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });
});
