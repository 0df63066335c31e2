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

/** Strips the `::ffff:` prefix Node puts on IPv4 peers of a dual-stack socket. */
export function normalizeIp(address: string): string {
  const trimmed = address.trim();
  return trimmed.toLowerCase().startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}

/** Whether `ip` matches an allowlist entry: an exact address or an IPv4 CIDR range. */
export function ipAllowed(entry: string, ip: string): boolean {
  const caller = normalizeIp(ip);
  const [base, bits] = entry.split('/');
  if (bits === undefined) return normalizeIp(entry) === caller;
  const baseValue = ipv4ToNumber(base ?? '');
  const callerValue = ipv4ToNumber(caller);
  const prefix = Number(bits);
  if (baseValue === null || callerValue === null || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) {
    return false;
  }
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (baseValue & mask) >>> 0 === (callerValue & mask) >>> 0;
}
