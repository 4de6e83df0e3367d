import { createHash } from 'node:crypto';
import { apiKeyHashText, displayPrefix, generateApiKey, hashApiKey, isApiKeyShaped } from './api-key';

describe('API keys', () => {
  it('are svc_live_ and 40 base62 characters, different every time', () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
      expect(isApiKeyShaped(key)).toBe(true);
    }
  });

  it('are hashed with SHA-256 over their UTF-8 bytes, as the stored hashes were made', () => {
    for (const key of [generateApiKey(), 'svc_live_short', 'svc_live_é€😀']) {
      const expected = createHash('sha256').update(key, 'utf8').digest();
      expect(Buffer.isBuffer(hashApiKey(key))).toBe(true);
      expect(hashApiKey(key).equals(expected)).toBe(true);
    }
    expect(hashApiKey('svc_live_a').equals(hashApiKey('svc_live_b'))).toBe(false);
  });

  it('give the same hash as text, in base64', () => {
    for (const key of [generateApiKey(), 'svc_live_short', 'svc_live_é€😀']) {
      expect(apiKeyHashText(key)).toBe(createHash('sha256').update(key, 'utf8').digest('base64'));
    }
    expect(apiKeyHashText('svc_live_a')).not.toBe(apiKeyHashText('svc_live_b'));
  });

  it('show only the prefix and four characters of the secret', () => {
    expect(displayPrefix('svc_live_abcdefgh')).toBe('svc_live_abcd');
  });

  it.each(['', 'svc_live_', 'svc_test_abcdefghijklmnopqrstuvwxyz', 'svc_live_abc def ghijklmnopqrstuvwx'])(
    'refuse a malformed key %p',
    (key) => {
      expect(isApiKeyShaped(key)).toBe(false);
    },
  );
});
