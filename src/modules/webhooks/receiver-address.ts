import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/**
 * Where a webhook may be sent. Never to private, link-local, shared, multicast, reserved or cloud
 * metadata addresses; to loopback only when insecure receivers are allowed (local development).
 */
const NEVER = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NEVER.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NEVER.addSubnet(network, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** IPv4 written as IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Why an address may not receive webhooks, or null when it may. */
export function addressRefusal(raw: string, allowLoopback: boolean): string | null {
  const { address, family } = unmapped(raw);
  if (LOOPBACK.check(address, family)) return allowLoopback ? null : 'a loopback address';
  if (NEVER.check(address, family)) return 'a private, link-local or reserved address';
  return null;
}

export interface UrlCheck {
  /** The URL as it will be called. */
  url: URL;
  /** Why it may not be used, or null. */
  problem: string | null;
}

/** The URL's own rules: https (http only when insecure receivers are allowed), no credentials, a host. */
export function checkReceiverUrl(value: string, allowInsecure: boolean): UrlCheck | { url: null; problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { url: null, problem: 'url must be an absolute https:// URL' };
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) return { url, problem: 'url must use https://' };
  if (url.username || url.password) return { url, problem: 'url must not contain credentials' };
  if (!url.hostname) return { url, problem: 'url must name a host' };
  return { url, problem: null };
}

/**
 * Every address the host resolves to, each allowed; throws with the reason otherwise. Used at
 * creation and again at every delivery (where the connection then goes to the address checked, so
 * a DNS answer that changes in between cannot point it elsewhere).
 */
export async function resolveReceiver(hostname: string, allowLoopback: boolean): Promise<Array<{ address: string; family: number }>> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${hostname} does not resolve`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allowLoopback);
    if (refusal) throw new Error(`${hostname} resolves to ${refusal}`);
  }
  return addresses;
}
