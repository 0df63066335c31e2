import type { DomainWorld } from './world.js';

/**
 * What a seeder gets: the world (state, seeded random, options) and the start time. Seeders run in order
 * before the clock starts; they write records straight into state and record no events.
 */
export interface SeedContext {
  readonly world: DomainWorld;
  /** The sandbox clock's start, in ms. */
  readonly nowMs: number;
}

/** Fills one domain of the shop. */
export type Seeder = (context: SeedContext) => void;

/** ISO timestamp `offsetMs` from the seed's start time. */
export function isoAt(context: SeedContext, offsetMs: number): string {
  return new Date(context.nowMs + offsetMs).toISOString();
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
