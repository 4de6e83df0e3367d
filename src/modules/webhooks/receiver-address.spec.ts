import { addressRefusal, hostRefusal, resolveReceiver, ReceiverRefused } from './receiver-address';

describe('receiver addresses', () => {
  test('private, link-local, metadata and IPv4-mapped addresses are refused; loopback only when allowed', () => {
    for (const address of ['10.0.0.1', '172.16.5.5', '192.168.1.1', '169.254.169.254', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1']) {
      expect(addressRefusal(address, true)).not.toBeNull();
    }
    expect(addressRefusal('127.0.0.1', false)).toBe('a loopback address');
    expect(addressRefusal('::1', true)).toBeNull();
    expect(addressRefusal('93.184.216.34', false)).toBeNull();
  });

  test('at creation a name resolving to a refused address is refused', async () => {
    // `localhost` resolves through the hosts file on every machine, without a DNS server.
    expect(await hostRefusal('localhost', false)).toMatch(/^localhost resolves to a loopback address$/);
    expect(await hostRefusal('localhost', true)).toBeNull();
    expect(await hostRefusal('10.1.2.3', false)).toMatch(/private/);
    expect(await hostRefusal('[fd00::1]', false)).toMatch(/private/);
  });

  test('at creation a name that does not resolve is not refused; a delivery to it fails', async () => {
    // `.invalid` never resolves (RFC 2606).
    expect(await hostRefusal('hooks.example.invalid', false)).toBeNull();
    const delivery = resolveReceiver('hooks.example.invalid', false);
    await expect(delivery).rejects.toThrow();
    await expect(delivery).rejects.not.toBeInstanceOf(ReceiverRefused);
  });
});
