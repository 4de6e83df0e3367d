import { redactSecrets } from './secrets';

const KEY = 'svc_live_4fJ2kq9ZxY8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD';

describe('redactSecrets', () => {
  it.each([
    ['a key as it is', `Unknown field "${KEY}".`, 'Unknown field "[redacted]".'],
    ['a key inside a path', `activities[0].${KEY} is not a known field`, 'activities[0].[redacted] is not a known field'],
    ['a key in another letter case', KEY.toUpperCase(), '[redacted]'],
    ['an escaped underscore', `?x=${KEY.replace(/_/g, '%5F')}`, '?x=[redacted]'],
    ['an escaped letter', `?x=%73${KEY.slice(1)}`, '?x=[redacted]'],
    ['escapes of escapes', `?x=%2573${KEY.slice(1)}`, '?x=[redacted]'],
    ['a key in a longer word', `Bearer${KEY}`, '[redacted]'],
    ['a webhook secret with base64 separators', 'secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/a+b=', 'secret [redacted]'],
  ])('replaces %s', (_what, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it.each([
    ['plain text', 'Unknown query parameter "sort".'],
    ['the word svc alone', 'svc is a service'],
    ['other escapes', '/v1/kb/icps?name=caf%C3%A9&x=%ZZ'],
    ['a key prefix split by a space', 'svc live key'],
  ])('leaves %s as it is', (_what, text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});
