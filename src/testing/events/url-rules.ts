import { ipv4ToNumber } from '../http/ip.js';

/** Why an address is not public, or null when it is. */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'unspecified'
  | null;

const IPV4_RANGES: readonly (readonly [string, number, Exclude<AddressClass, null>])[] = [
  ['169.254.169.254', 32, 'metadata'],
  ['127.0.0.0', 8, 'loopback'],
  ['10.0.0.0', 8, 'private'],
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['169.254.0.0', 16, 'link-local'],
  ['100.64.0.0', 10, 'cgnat'],
  ['0.0.0.0', 8, 'unspecified'],
];

/** Classifies an IP literal or a well-known name; a name the sandbox cannot classify is treated as public. */
export function classifyHost(hostname: string): AddressClass {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host === 'metadata.google.internal') return 'metadata';
  const v4 = ipv4ToNumber(host.startsWith('::ffff:') ? host.slice(7) : host);
  if (v4 !== null) {
    for (const [base, bits, kind] of IPV4_RANGES) {
      const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
      if ((v4 & mask) >>> 0 === (ipv4ToNumber(base)! & mask) >>> 0) return kind;
    }
    return null;
  }
  if (!host.includes(':')) return null;
  if (host === '::1') return 'loopback';
  if (host === '::') return 'unspecified';
  if (host === 'fd00:ec2::254') return 'metadata';
  if (/^f[cd]/.test(host)) return 'private';
  if (/^fe[89ab]/.test(host)) return 'link-local';
  return null;
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
