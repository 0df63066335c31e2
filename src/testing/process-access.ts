import type { ActivityLog } from './activity.js';
import { PERMISSION_RESOURCES } from './http/keys.js';
import type { Sandbox } from './sandbox.js';

/**
 * @internal What the CLI's sandbox process needs beyond the public API (activity log, control key check,
 * `trigger --override`, restored counts, endpoint secrets); not exported, so the CLI never reaches into the world.
 */
export interface SandboxProcessAccess {
  /** The live log of requests, deliveries and events (`/_sandbox/logs` streams it). */
  readonly activity: ActivityLog;
  /** Checks a key as the API does (failed attempts count toward its lockout), without a request's rate cost. */
  authenticate(authorization: string | null): boolean;
  /**
   * What the key of `authorization` lacks of a full key (empty for a full key); triggers act as staff, so the
   * control surface runs one only for a full key.
   */
  shortOfFullKey(authorization: string | null): string[];
  /** Changes the payload of the next event of `type` with `apply`; `done` is told when it happened. */
  armOverride(type: string, apply: (object: Record<string, unknown>) => void, done: () => void): void;
  /** Drops an armed override that no event used. */
  disarmOverride(): void;
  /** How many API keys the sandbox holds (a restored `--state` reports it). */
  keyCount(): number;
  /** How many events the feed holds. */
  eventCount(): number;
  /** The secrets a webhook endpoint accepts deliveries signed with, as it holds them; empty for an unknown id. */
  endpointSecrets(id: string): readonly string[];
}

/** @internal The CLI's door into `sandbox` (see `SandboxProcessAccess`). */
export function processAccess(sandbox: Sandbox): SandboxProcessAccess {
  const world = sandbox.world;
  return {
    activity: world.activity,
    authenticate: (authorization) => {
      try {
        world.keys.authenticate(authorization, '127.0.0.1');
        return true;
      } catch {
        return false;
      }
    },
    shortOfFullKey: (authorization) => {
      const key = world.keys.authenticate(authorization, '127.0.0.1');
      const missing: string[] = PERMISSION_RESOURCES.filter(
        (resource) => key.permissions.get(resource) !== 'write',
      ).map((resource) => `${resource}:write`);
      if (key.locations) missing.push('every location');
      return missing;
    },
    armOverride: (type, apply, done) => world.overrides.arm(type, apply, done),
    disarmOverride: () => world.overrides.disarm(),
    keyCount: () => world.keys.size,
    eventCount: () => world.events.all().length,
    endpointSecrets: (id) => [...(world.endpoints.find(id)?.secrets ?? [])],
  };
}
