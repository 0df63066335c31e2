import type { ClockMode } from './clock.js';
import { SandboxUsageError } from './errors.js';

/** The shop's plan: sets the rate limits of reference section 8. */
export type SandboxPlan = 'established' | 'enterprise';

/** The service the sandbox pretends to be: keys of the other environment get 401 WRONG_ENVIRONMENT. */
export type SandboxEnvironment = 'sandbox' | 'live';

/**
 * The shop's subscription state. Anything but `active` answers every call with the matching 402 code of
 * reference section 5 (`trial_expired` -> TRIAL_EXPIRED, `api_not_in_plan` -> API_NOT_IN_PLAN, ...).
 */
export type SandboxSubscription =
  | 'active'
  | 'api_not_in_plan'
  | 'trial_expired'
  | 'billing_past_due'
  | 'subscription_canceled'
  | 'plan_required';

/**
 * The shop's request budget, overriding the plan's figures (Established: 60 a minute and 10,000 a UTC day;
 * Enterprise: 600 a minute, no daily cap). A small budget lets a test reach 429 in a few requests.
 */
export interface SandboxRateLimits {
  /** Requests a minute, per shop. @default the plan's */
  perMinute?: number;
  /** Requests a UTC day, per shop; `null` for no daily cap (and no daily headers). @default the plan's */
  perDay?: number | null;
}

/** Options of `createSandbox`. Everything is optional: all features on, Established plan, sandbox keys. */
export interface SandboxOptions {
  /** The shop has the Range add-on; without it every /v1/range/* call is 402 RANGE_ADDON_REQUIRED. @default true */
  rangeAddon?: boolean;
  /** The shop processes cards (card transactions exist, link billing is allowed). @default true */
  cardProcessing?: boolean;
  /** The shop has memberships on. @default true */
  memberships?: boolean;
  /** @default 'established' */
  plan?: SandboxPlan;
  /** Rate limits that replace the plan's, whichever plan is set (`setPlan` keeps them). */
  rateLimits?: SandboxRateLimits;
  /** @default 'sandbox' */
  environment?: SandboxEnvironment;
  /** Seed of the generated shop: the same seed builds the same records. @default 1 */
  seed?: number;
  /**
   * Lets webhook endpoints on loopback (`http://127.0.0.1:port`) through, so tests can run a local
   * receiver. The real service refuses them. @default true
   */
  allowLoopback?: boolean;
  /** Start time of the sandbox clock. @default the current time */
  now?: Date | string | number;
  /**
   * `frozen`: time moves only through `clock.advance` and `clock.set` (deterministic tests).
   * `real`: time also flows at wall-clock speed (times `clockSpeed`) from `now`. @default 'frozen'
   */
  clock?: ClockMode;
  /**
   * With `clock: 'real'`, sandbox seconds per wall-clock second: at 60 a minute of rate limits passes in a
   * second. Waits the sandbox asks for (`Retry-After`) are then given in wall-clock seconds, the time the
   * client actually waits (at least 1). @default 1
   */
  clockSpeed?: number;
  /** Origin that `sandbox.handlers` intercept in msw. @default 'https://sandbox.shop.test' */
  baseUrl?: string;
  /**
   * Sends deliveries as they fall due without `webhooks.flush()`: after each change, request, and (while
   * `listen()` serves) on an unref'd timer. @default true with `clock: 'real'`, false with the frozen clock
   */
  autoDeliver?: boolean;
  /**
   * Draw event and delivery ids from `seed` (reproducible runs); by default each sandbox starts at random, so
   * a dedupe store that outlives it never sees a repeated id. @default false
   */
  reproducibleIds?: boolean;
  /**
   * Whose time `t=` of `Service-Signature` carries: `'wall'` (as the service signs) or `'sandbox'` (verify
   * with `now: () => sandbox.clock.now()`). @default 'wall'
   */
  signatureClock?: 'wall' | 'sandbox';
  /** The fetch used for webhook deliveries. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** How long a webhook receiver may take to answer, in ms. @default 10000 (reference section 6) */
  webhookTimeoutMs?: number;
  /**
   * Bulk records for load tests, added to the seeded shop: `{ reservations: 50_000, customers: 5_000 }`
   * (completed lane visits over the past 30 days, and customers). @default none
   */
  records?: SandboxRecords;
}

/** Options with every default filled in. */
export interface ResolvedOptions {
  rangeAddon: boolean;
  cardProcessing: boolean;
  memberships: boolean;
  plan: SandboxPlan;
  rateLimits: SandboxRateLimits;
  environment: SandboxEnvironment;
  seed: number;
  allowLoopback: boolean;
  now: Date;
  clock: ClockMode;
  clockSpeed: number;
  baseUrl: string;
  autoDeliver: boolean;
  reproducibleIds: boolean;
  signatureClock: 'wall' | 'sandbox';
  fetch: typeof fetch;
  webhookTimeoutMs: number;
  records: Required<SandboxRecords>;
}

/** The options with every default filled in. */
export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  return {
    rangeAddon: options.rangeAddon ?? true,
    cardProcessing: options.cardProcessing ?? true,
    memberships: options.memberships ?? true,
    plan: options.plan ?? 'established',
    rateLimits: checkRateLimits(options.rateLimits ?? {}),
    environment: options.environment ?? 'sandbox',
    seed: options.seed ?? 1,
    allowLoopback: options.allowLoopback ?? true,
    now: options.now === undefined ? new Date() : new Date(options.now),
    clock: options.clock ?? 'frozen',
    clockSpeed: checkClockSpeed(options.clockSpeed ?? 1),
    autoDeliver: options.autoDeliver ?? options.clock === 'real',
    baseUrl: (options.baseUrl ?? 'https://sandbox.shop.test').replace(/\/+$/, ''),
    reproducibleIds: options.reproducibleIds ?? false,
    signatureClock: checkSignatureClock(options.signatureClock ?? 'wall'),
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
    records: checkRecords(options.records),
  };
}

function checkSignatureClock(clock: 'wall' | 'sandbox'): 'wall' | 'sandbox' {
  if (clock !== 'wall' && clock !== 'sandbox') {
    throw new SandboxUsageError(`signatureClock must be 'wall' or 'sandbox', got ${JSON.stringify(clock)}`);
  }
  return clock;
}

function checkClockSpeed(speed: number): number {
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0 || speed > 100_000) {
    throw new SandboxUsageError('clockSpeed must be a positive number up to 100000');
  }
  return speed;
}

function checkRateLimits(limits: SandboxRateLimits): SandboxRateLimits {
  const count = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
  if (limits.perMinute !== undefined && !count(limits.perMinute)) {
    throw new SandboxUsageError('rateLimits.perMinute must be a whole number of requests, at least 1');
  }
  if (limits.perDay !== undefined && limits.perDay !== null && !count(limits.perDay)) {
    throw new SandboxUsageError('rateLimits.perDay must be a whole number of requests, at least 1, or null');
  }
  return { ...limits };
}

/**
 * Extra records for load tests (`--records reservations=50000`): completed history over the 30 days before
 * the start, taking no lane time a test books, recording no events.
 */
export interface SandboxRecords {
  /** Completed lane reservations in the past 30 days. */
  reservations?: number;
  /** Customers (lane reservations are spread over them too). */
  customers?: number;
}

/** The kinds `records` takes. */
export const RECORD_KINDS = ['reservations', 'customers'] as const;
/** The most of one kind a sandbox takes: a snapshot of more would not fit a JSON string. */
export const MAX_RECORDS = 500_000;

/** Checks `records` and fills the defaults. */
export function checkRecords(records: SandboxRecords | undefined): Required<SandboxRecords> {
  const checked = { reservations: 0, customers: 0 };
  for (const [kind, count] of Object.entries(records ?? {})) {
    if (!(RECORD_KINDS as readonly string[]).includes(kind)) {
      throw new SandboxUsageError(
        `records.${kind}: the sandbox bulk-seeds ${RECORD_KINDS.join(' and ')} only`,
      );
    }
    if (count === undefined) continue;
    if (!Number.isSafeInteger(count) || count < 0 || count > MAX_RECORDS) {
      throw new SandboxUsageError(
        `records.${kind} must be a whole number from 0 to ${MAX_RECORDS}, got ${count}`,
      );
    }
    checked[kind as keyof SandboxRecords] = count;
  }
  return checked;
}
