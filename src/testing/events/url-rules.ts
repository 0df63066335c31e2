import { embeddedIpv4, type IpAddress, inCidr, parseIp } from '../ip.js';

/** Why an address is not public, or null when it is. */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'site-local'
  | 'cgnat'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'nat64'
  | 'reserved'
  | null;

type Range = readonly [base: IpAddress, prefix: number, kind: Exclude<AddressClass, null>];

function ranges(table: readonly (readonly [string, number, Exclude<AddressClass, null>])[]): Range[] {
  return table.map(([base, prefix, kind]) => [parseIp(base)!, prefix, kind]);
}

// First match wins: a single address comes before the block that holds it.
const IPV4_RANGES = ranges([
  ['169.254.169.254', 32, 'metadata'],
  ['255.255.255.255', 32, 'broadcast'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation
  ['203.0.113.0', 24, 'reserved'], // documentation
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
]);

const IPV6_RANGES = ranges([
  ['::1', 128, 'loopback'],
  ['::', 128, 'unspecified'],
  ['fd00:ec2::254', 128, 'metadata'],
  // NAT64 reaches any IPv4 address through a translator, private ones included.
  ['64:ff9b::', 96, 'nat64'],
  ['64:ff9b:1::', 48, 'nat64'],
  ['100::', 64, 'reserved'], // discard-only
  ['2001:db8::', 32, 'reserved'], // documentation
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
]);

function classifyAddress(address: IpAddress): AddressClass {
  const table = address.version === 4 ? IPV4_RANGES : IPV6_RANGES;
  for (const [base, prefix, kind] of table) if (inCidr(address, base, prefix)) return kind;
  // An IPv6 address that carries an IPv4 one (mapped, compatible, 6to4) reaches that IPv4 address.
  const carried = embeddedIpv4(address);
  return carried ? classifyAddress(carried) : null;
}

/**
 * Classifies an IP literal (any spelling the URL parser leaves: `[::ffff:7f00:1]` is 127.0.0.1) or a
 * well-known name; a name the sandbox cannot classify is treated as public (it does not resolve names).
 */
export function classifyHost(hostname: string): AddressClass {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host === 'metadata.google.internal') return 'metadata';
  const address = parseIp(host);
  return address ? classifyAddress(address) : null;
}

/**
 * Checks an endpoint URL against reference section 6: https only, no credentials, public addresses only.
 * With `allowLoopback` the sandbox also accepts http and https on loopback, so a test can run its own
 * receiver; the real service refuses those. Returns the reason it is refused, or null.
 */
export function refuseEndpointUrl(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  const kind = classifyHost(url.hostname);
  const loopbackAllowed = kind === 'loopback' && allowLoopback;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackAllowed)) {
    return 'must use https (the sandbox lets http through only to loopback, with allowLoopback)';
  }
  if (kind !== null && !loopbackAllowed) return `must resolve to a public address (${kind} refused)`;
  return null;
}
