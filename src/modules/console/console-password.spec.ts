import { generatePassword, hashPassword, UNUSABLE_PASSWORD_HASH, verifyPassword } from './console-password';

describe('console passwords', () => {
  it('hashes with scrypt, a salt per password and the parameters stored with the hash', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse');
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse ', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
    await expect(verifyPassword(42, stored)).resolves.toBe(false);
  });

  it('matches nothing against a malformed or unusable hash', async () => {
    await expect(verifyPassword('x', 'plain-text')).resolves.toBe(false);
    await expect(verifyPassword('x', 'scrypt$3$8$1$AAAA$AAAA')).resolves.toBe(false);
    await expect(verifyPassword('', UNUSABLE_PASSWORD_HASH)).resolves.toBe(false);
    await expect(verifyPassword('anything', UNUSABLE_PASSWORD_HASH)).resolves.toBe(false);
  });

  it('generates random one-time passwords', () => {
    const passwords = new Set(Array.from({ length: 50 }, generatePassword));
    expect(passwords.size).toBe(50);
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });
});
