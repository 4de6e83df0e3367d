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

/** A host name without the brackets of an IPv6 address in a URL. */
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** A host whose addresses may not receive webhooks (as opposed to one that did not resolve). */
export class ReceiverRefused extends Error {}

/**
 * Every address the host resolves to, each allowed; throws with the reason otherwise
 * (`ReceiverRefused` when an address is refused, the lookup's own error when the name did not
 * resolve). Used at every connection to a receiver, which then goes to the addresses checked, so a
 * DNS answer that changes in between cannot point it elsewhere.
 */
export async function resolveReceiver(hostname: string, allowLoopback: boolean): Promise<Array<{ address: string; family: number }>> {
  const host = bare(hostname);
  if (isIP(host)) {
    const refused = literalRefusal(hostname, allowLoopback);
    if (refused) throw refused;
    return [{ address: host, family: isIP(host) }];
  }
  const addresses = await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${hostname} does not resolve`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allowLoopback);
    if (refusal) throw new ReceiverRefused(`${hostname} resolves to ${refusal}`);
  }
  return addresses;
}

/** For a host written as an address (connected to without a lookup): why it is refused, else null. */
export function literalRefusal(hostname: string, allowLoopback: boolean): ReceiverRefused | null {
  const host = bare(hostname);
  const refusal = isIP(host) ? addressRefusal(host, allowLoopback) : null;
  return refusal ? new ReceiverRefused(`${hostname} resolves to ${refusal}`) : null;
}

/** How long the check at creation waits for DNS before it takes the name as not resolving now. */
export const CREATION_LOOKUP_MS = 2_000;

/**
 * The check at creation or update: why the host may not receive webhooks, or null. A name that
 * does not resolve now (not yet published, or DNS unreachable or slower than
 * CREATION_LOOKUP_MS) is not refused: nothing can be sent to it, and every delivery resolves and
 * checks again, failing (and retrying) until it does.
 */
export async function hostRefusal(hostname: string, allowLoopback: boolean): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), CREATION_LOOKUP_MS)));
  const checked = resolveReceiver(hostname, allowLoopback).then(
    () => null,
    (error: unknown) => (error instanceof ReceiverRefused ? error.message : null),
  );
  try {
    return await Promise.race([checked, late]);
  } finally {
    clearTimeout(timer);
  }
}
