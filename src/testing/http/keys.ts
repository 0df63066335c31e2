import type { SandboxClock } from '../clock.js';
import { apiError, type SandboxApiError, SandboxUsageError } from '../errors.js';
import { ipAllowed } from '../ip.js';
import type { SandboxEnvironment } from '../options.js';
import { secretHex } from '../random.js';
import { rateLimited } from './status.js';

/** The resources a key holds a permission on (reference section 5). */
export const PERMISSION_RESOURCES = [
  'products',
  'inventory',
  'locations',
  'orders',
  'purchase_orders',
  'customers',
  'customer_dob',
  'returns',
  'range',
  'memberships',
  'accounts',
  'store_credit',
  'gift_certificates',
  'coupons',
  'card_transactions',
] as const;

/** A permission name as the reference writes it: `range:read`, `customers:write`. */
export type Permission = `${(typeof PERMISSION_RESOURCES)[number]}:${'read' | 'write'}`;

/** What `sandbox.createKey` accepts. With no argument: write on every resource, every location. */
export interface CreateKeyOptions {
  /** e.g. `['range:write', 'customers:read']`. A write permission also grants read (the sandbox's choice). */
  permissions?: readonly Permission[];
  /** Location ids the key is limited to; omitted or null for every location. */
  locations?: readonly number[] | null;
  /** @default the sandbox's own environment */
  environment?: SandboxEnvironment;
  /** Caller IPs or CIDR ranges (IPv4 or IPv6) allowed to use the key; others get 403 IP_NOT_ALLOWED. */
  ipAllowlist?: readonly string[];
  /** After this moment (sandbox clock) the key is 401 INVALID_API_KEY. */
  expiresAt?: Date | string | number;
}

/** What `sandbox.rollKey` accepts. */
export interface RollKeyOptions {
  /**
   * How long the old key keeps working, on the sandbox clock: 0 to 168 hours (the reference gives no range
   * for keys; the sandbox takes the one it gives for webhook secrets). @default 24
   */
  graceHours?: number;
}

/** A key as the sandbox keeps it; rolling gives it a new secret and keeps everything else. */
export interface ApiKey {
  readonly id: string;
  /** The current secret. */
  secret: string;
  readonly environment: SandboxEnvironment;
  readonly permissions: ReadonlyMap<string, 'read' | 'write'>;
  readonly locations: ReadonlySet<number> | null;
  readonly ipAllowlist: readonly string[] | null;
  readonly expiresAtMs: number | null;
  revoked: boolean;
}

/** A secret of a key: the current one, or a rolled one that works until its grace period ends. */
interface Credential {
  readonly key: ApiKey;
  retiresAtMs: number | null;
}

const PREFIX: Record<SandboxEnvironment, string> = { sandbox: 'sk_test_', live: 'sk_live_' };
const MAX_GRACE_HOURS = 168;
const FAILED_ATTEMPT_LIMIT = 30;
const MINUTE_MS = 60_000;

/** Issues keys and decides who a request is (reference section 5, rules 1 to 8). */
export class KeyStore {
  private readonly credentials = new Map<string, Credential>();

  /** How many addresses have a failed key attempt in the last minute (bounded by traffic, not by history). */
  get trackedAddresses(): number {
    return this.failedAttempts.size;
  }
  private count = 0;

  /** How many keys the sandbox has issued (revoked ones included). */
  get size(): number {
    return new Set([...this.credentials.values()].map((credential) => credential.key.id)).size;
  }

  private readonly failedAttempts: Map<string, number[]>;
  private readonly attemptClock: SandboxClock;

  /**
   * @param attempts failed key attempts per caller IP and the clock they are timed on: the shops of a
   * many-shop sandbox share them, as the service counts an address's failures whichever shop's key it
   * tried (reference section 5, rule 8). By default this store's own.
   */
  constructor(
    private readonly clock: SandboxClock,
    private readonly environment: SandboxEnvironment,
    attempts?: { readonly failed: Map<string, number[]>; readonly clock: SandboxClock },
  ) {
    this.failedAttempts = attempts?.failed ?? new Map();
    this.attemptClock = attempts?.clock ?? clock;
  }

  /** Whether `secret` is a key this store issued (current or rolled, revoked or not). */
  issued(secret: string): boolean {
    return this.credentials.has(secret);
  }

  create(options: CreateKeyOptions = {}): string {
    const permissions = new Map<string, 'read' | 'write'>();
    if (options.permissions === undefined) {
      for (const resource of PERMISSION_RESOURCES) permissions.set(resource, 'write');
    } else {
      for (const permission of options.permissions) {
        const [resource, level] = permission.split(':');
        if (!PERMISSION_RESOURCES.includes(resource as never) || (level !== 'read' && level !== 'write')) {
          throw new SandboxUsageError(`Unknown permission "${permission}": use e.g. 'range:read'`);
        }
        if (permissions.get(resource!) !== 'write') permissions.set(resource!, level);
      }
    }
    const environment = options.environment ?? this.environment;
    const expiresAtMs = options.expiresAt === undefined ? null : new Date(options.expiresAt).getTime();
    if (expiresAtMs !== null && Number.isNaN(expiresAtMs)) throw new SandboxUsageError('Bad expiresAt');
    const key: ApiKey = {
      id: `key_${++this.count}`,
      secret: `${PREFIX[environment]}${secretHex(24)}`,
      environment,
      permissions,
      locations: options.locations ? new Set(options.locations) : null,
      ipAllowlist: options.ipAllowlist ? [...options.ipAllowlist] : null,
      expiresAtMs,
      revoked: false,
    };
    this.credentials.set(key.secret, { key, retiresAtMs: null });
    return key.secret;
  }

  /** Revokes the key this secret belongs to: its current secret and any rolled one still in grace. */
  revoke(secret: string): void {
    const credential = this.credentials.get(secret);
    if (!credential) throw new SandboxUsageError('No such key in this sandbox');
    credential.key.revoked = true;
  }

  /**
   * Rolls a key: it gets a new secret (returned) and keeps its id, permissions, locations, allowlist and
   * expiry, so its Idempotency-Keys carry over; the old secret works until the grace period ends.
   */
  roll(secret: string, options: RollKeyOptions = {}): string {
    const credential = this.credentials.get(secret);
    if (!credential) throw new SandboxUsageError('No such key in this sandbox');
    const { key } = credential;
    if (credential.retiresAtMs !== null) {
      throw new SandboxUsageError('This key was already rolled: roll the key that replaced it');
    }
    const now = this.clock.nowMs();
    if (key.revoked || (key.expiresAtMs !== null && key.expiresAtMs <= now)) {
      throw new SandboxUsageError('This key is revoked or expired: create a new one instead of rolling it');
    }
    const grace = options.graceHours ?? 24;
    if (typeof grace !== 'number' || !(grace >= 0 && grace <= MAX_GRACE_HOURS)) {
      throw new SandboxUsageError(`graceHours must be between 0 and ${MAX_GRACE_HOURS}`);
    }
    credential.retiresAtMs = now + grace * 3_600_000;
    key.secret = `${PREFIX[key.environment]}${secretHex(24)}`;
    this.credentials.set(key.secret, { key, retiresAtMs: null });
    return key.secret;
  }

  /**
   * Finds the calling key or throws the reference's 401/429. Failed attempts are counted per IP, and more
   * than 30 in a minute locks that IP out until the oldest leaves the window.
   */
  authenticate(authorization: string | null, ip: string): ApiKey {
    const now = this.clock.nowMs();
    const attemptAt = this.attemptClock.nowMs();
    // Only addresses with a failure in the last minute hold an entry: callers choose their address through
    // X-Forwarded-For, so an entry per address seen would grow without bound.
    const recent = (this.failedAttempts.get(ip) ?? []).filter((at) => at > attemptAt - MINUTE_MS);
    if (recent.length === 0) this.failedAttempts.delete(ip);
    if (recent.length >= FAILED_ATTEMPT_LIMIT) {
      const waitMs = recent[0]! + MINUTE_MS - attemptAt;
      throw rateLimited(
        'Too many failed key attempts from this address',
        waitMs,
        this.attemptClock.wallMs(waitMs),
      );
    }
    try {
      return this.find(authorization, now);
    } catch (error) {
      recent.push(attemptAt);
      this.failedAttempts.set(ip, recent);
      throw error;
    }
  }

  private find(authorization: string | null, now: number): ApiKey {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw invalidKey('Missing or malformed Authorization header: use Bearer <API_KEY>');
    const secret = match[1]!;
    const credential = this.credentials.get(secret);
    const key = credential?.key;
    const otherEnvironment = this.environment === 'sandbox' ? 'live' : 'sandbox';
    if (key?.environment === otherEnvironment || (!key && secret.startsWith(PREFIX[otherEnvironment]))) {
      throw apiError(
        'WRONG_ENVIRONMENT',
        `A ${otherEnvironment} key cannot be used on the ${this.environment} service`,
      );
    }
    if (!key) throw invalidKey('Unknown API key');
    if (key.revoked) throw invalidKey('This API key was revoked');
    if (key.expiresAtMs !== null && key.expiresAtMs <= now) throw invalidKey('This API key has expired');
    if (credential!.retiresAtMs !== null && credential!.retiresAtMs <= now) {
      throw invalidKey('This API key was rolled and its grace period is over: use the key that replaced it');
    }
    return key;
  }

  /** 403 IP_NOT_ALLOWED when the key has an allowlist the caller is not on. */
  checkIp(key: ApiKey, ip: string): void {
    if (key.ipAllowlist && !key.ipAllowlist.some((entry) => ipAllowed(entry, ip))) {
      throw apiError('IP_NOT_ALLOWED', `Calls from ${ip} are not allowed for this key`);
    }
  }
}

function invalidKey(message: string): SandboxApiError {
  return apiError('INVALID_API_KEY', message);
}

/** Whether the key holds `permission` (write also grants read). */
export function hasPermission(key: ApiKey, permission: string): boolean {
  const [resource, level] = permission.split(':');
  const held = key.permissions.get(resource!);
  return held === 'write' || (held === 'read' && level === 'read');
}

/** 403 INSUFFICIENT_SCOPE naming the missing permission in details.required. */
export function requirePermission(key: ApiKey, permission: string): void {
  if (!hasPermission(key, permission)) {
    throw apiError('INSUFFICIENT_SCOPE', `This key lacks the ${permission} permission`, {
      required: permission,
    });
  }
}
