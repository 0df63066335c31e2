import { SandboxUsageError } from './errors.js';
import type { SandboxOptions } from './options.js';
import { Sandbox } from './sandbox.js';
import { DecodeError, decode, type Encoded, encode, hydrate } from './snapshot-codec.js';
import type { SandboxWorld } from './world.js';

/** The `format` of every sandbox state file. */
export const SNAPSHOT_FORMAT = 'shop-mgmt-sandbox-state';
/** The snapshot version this SDK writes and reads. */
export const SNAPSHOT_VERSION = 1;

/**
 * A sandbox's shop as JSON (`sandboxSnapshot`), for `restoreSandbox` in a later process. It holds the
 * shop's records, API keys (sandbox keys, secrets included), webhook endpoints (with their whsec_ secrets),
 * the event feed and the clock: keep the file private.
 */
export interface SandboxSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly version: number;
  /** Wall time it was taken. */
  readonly savedAt: string;
  /** The options the sandbox was made with (seed, plan, start time...), so the restore rebuilds the same base. */
  readonly options: SnapshotOptions;
  /** The sandbox clock when saved, ms since the epoch. */
  readonly clockMs: number;
  /** The encoded parts (records, keys, endpoints, events, id streams). */
  readonly parts: Readonly<Record<string, Encoded>>;
}

/** The creation options a snapshot keeps: everything but functions. */
export type SnapshotOptions = Omit<SandboxOptions, 'fetch' | 'now'> & { readonly now: string };

/** The parts saved, by name; each is restored onto the same part of a freshly seeded sandbox. */
function parts(world: SandboxWorld): Record<string, object> {
  return {
    state: world.state,
    keys: world.keys,
    endpoints: world.endpoints,
    events: world.events,
    random: world.random,
    deliveryIds: (world.deliveries as unknown as { random: object }).random,
  };
}

/**
 * Takes a snapshot of a sandbox's shop. Not kept: deliveries under way and their retries, Idempotency-Keys,
 * rate-limit counters and background work scheduled after the seed (a card reversal under way).
 */
export function sandboxSnapshot(sandbox: Sandbox): SandboxSnapshot {
  const { world } = sandbox;
  const named = parts(world);
  const shared = new Set<object>([
    world.clock,
    world.deliveries,
    world.rateLimiter,
    world.idempotency,
    world.faults,
  ]);
  for (const part of Object.values(named)) shared.add(part);
  const encoded: Record<string, Encoded> = {};
  for (const [name, part] of Object.entries(named)) {
    shared.delete(part);
    encoded[name] = encode(part, shared);
    shared.add(part);
  }
  const { fetch: _fetch, ...options } = world.options;
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    savedAt: new Date().toISOString(),
    options: { ...options, now: world.options.now.toISOString() },
    clockMs: world.clock.nowMs(),
    parts: encoded,
  };
}

/**
 * Rebuilds a sandbox from a snapshot: the same seed builds the base shop, then the saved state replaces it;
 * `overrides` sets what belongs to the new process. Throws SandboxUsageError for anything else.
 */
export function restoreSandbox(snapshot: unknown, overrides: SandboxOptions = {}): Sandbox {
  const checked = checkSnapshot(snapshot);
  // The bulk records are in the saved state: seeding them again would only be overwritten.
  const sandbox = new Sandbox({ ...checked.options, ...overrides, now: checked.options.now, records: {} });
  // Where the clock was saved, even when the rebuild above took longer than the saved clock had run (a
  // sandbox stopped moments after it started): the seeded records it made are replaced below.
  sandbox.clock.restore(checked.clockMs);
  const named = parts(sandbox.world);
  try {
    for (const [name, part] of Object.entries(named)) {
      const saved = checked.parts[name];
      if (saved === undefined) throw new DecodeError(`the part "${name}" is missing`);
      hydrate(part, decode(saved));
    }
  } catch (error) {
    throw new SandboxUsageError(
      `The sandbox state is damaged and cannot be restored: ${(error as Error).message}`,
    );
  }
  return sandbox;
}

function checkSnapshot(value: unknown): SandboxSnapshot {
  const snapshot = value as Partial<SandboxSnapshot> | null;
  if (typeof snapshot !== 'object' || snapshot === null || snapshot.format !== SNAPSHOT_FORMAT) {
    throw new SandboxUsageError(`Not a sandbox state file: it has no "format": "${SNAPSHOT_FORMAT}"`);
  }
  if (snapshot.version !== SNAPSHOT_VERSION) {
    throw new SandboxUsageError(
      `Sandbox state version ${JSON.stringify(snapshot.version)} is not one this shop-mgmt reads (it reads ${SNAPSHOT_VERSION}); start without it or use the shop-mgmt that wrote it`,
    );
  }
  if (
    typeof snapshot.clockMs !== 'number' ||
    typeof snapshot.options !== 'object' ||
    snapshot.options === null ||
    typeof snapshot.options.now !== 'string' ||
    typeof snapshot.parts !== 'object' ||
    snapshot.parts === null
  ) {
    throw new SandboxUsageError('The sandbox state is damaged: clockMs, options or parts is missing');
  }
  // A clock only moves forward from the start: a saved time before it is not one this sandbox could have had.
  const start = Date.parse(snapshot.options.now);
  if (!Number.isFinite(snapshot.clockMs) || Number.isNaN(start) || snapshot.clockMs < start) {
    throw new SandboxUsageError('The sandbox state is damaged: its clock is not a time after its start');
  }
  return snapshot as SandboxSnapshot;
}
