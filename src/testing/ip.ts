/** An IP address as one number: 32 bits for IPv4, 128 for IPv6. */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly value: bigint;
}

const WIDTH = { 4: 32, 6: 128 } as const;

/** Parses dotted IPv4 into a 32-bit number, or null for anything else. */
export function ipv4ToNumber(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

/**
 * Parses IPv6 text (compressed or not, with or without a trailing dotted quad, no zone) into 128 bits, or
 * null. The URL parser and sockets write the same address several ways (`::ffff:127.0.0.1` is
 * `::ffff:7f00:1`), so rules compare numbers, never text.
 */
export function ipv6ToBigInt(address: string): bigint | null {
  let text = address.toLowerCase();
  if (text.includes('.')) {
    const split = text.lastIndexOf(':');
    const v4 = ipv4ToNumber(text.slice(split + 1));
    if (v4 === null) return null;
    text = `${text.slice(0, split + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  let value = 0n;
  for (const group of [...head, ...Array<string>(missing).fill('0'), ...tail]) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  }
  return value;
}

/** Parses an IPv4 or IPv6 literal (brackets allowed), or null. */
export function parseIp(text: string): IpAddress | null {
  const bare = text.trim().replace(/^\[|\]$/g, '');
  const v4 = ipv4ToNumber(bare);
  if (v4 !== null) return { version: 4, value: BigInt(v4) };
  if (!bare.includes(':')) return null;
  const v6 = ipv6ToBigInt(bare);
  return v6 === null ? null : { version: 6, value: v6 };
}

/** Whether `address` lies in the CIDR block `base`/`prefix` of the same version: the one mask rule. */
export function inCidr(address: IpAddress, base: IpAddress, prefix: number): boolean {
  if (address.version !== base.version) return false;
  const shift = BigInt(WIDTH[address.version] - prefix);
  return address.value >> shift === base.value >> shift;
}

/**
 * The IPv4 address an IPv6 one carries, or null: `::ffff:0:0/96` (IPv4-mapped), `::/96` save `::` and
 * `::1` (IPv4-compatible, deprecated but still routed by some stacks) and `2002::/16` (6to4).
 */
export function embeddedIpv4(address: IpAddress): IpAddress | null {
  if (address.version !== 6) return null;
  const { value } = address;
  if (value >> 32n === 0xffffn || (value >> 32n === 0n && value > 1n)) {
    return { version: 4, value: value & 0xffffffffn };
  }
  if (value >> 112n === 0x2002n) return { version: 4, value: (value >> 80n) & 0xffffffffn };
  return null;
}

/** Writes an IPv4 address as a dotted quad. */
function dotted(address: IpAddress): string {
  const value = Number(address.value);
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
}

/** The IPv4 form of an IPv4-mapped address (how Node names IPv4 peers of a dual-stack socket), else as given. */
export function normalizeIp(address: string): string {
  const trimmed = address.trim();
  const parsed = parseIp(trimmed);
  return parsed?.version === 6 && parsed.value >> 32n === 0xffffn
    ? dotted({ version: 4, value: parsed.value & 0xffffffffn })
    : trimmed;
}

/** Whether `ip` matches an allowlist entry: an exact address or a CIDR range (IPv4 or IPv6). */
export function ipAllowed(entry: string, ip: string): boolean {
  const caller = parseIp(normalizeIp(ip));
  const [base, bits] = entry.split('/');
  if (bits === undefined) {
    const exact = parseIp(normalizeIp(entry));
    return caller && exact ? caller.version === exact.version && caller.value === exact.value : entry === ip;
  }
  const network = parseIp(normalizeIp(base ?? ''));
  if (!caller || !network || !/^\d{1,3}$/.test(bits)) return false;
  const prefix = Number(bits);
  return prefix <= WIDTH[network.version] && inCidr(caller, network, prefix);
}
