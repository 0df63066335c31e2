import { SandboxUsageError } from './errors.js';
import { noteWrites } from './state/table.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `'90s'`, `'5m'`, `'2h'`, `'1d'`, `'1h30m'` or a number of milliseconds. */
export function parseDuration(duration: string | number): number {
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration) || duration < 0) throw new SandboxUsageError(`Bad duration: ${duration}`);
    return duration;
  }
  const parts = [...duration.trim().matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  const consumed = parts.map((part) => part[0]).join('');
  if (parts.length === 0 || consumed !== duration.replace(/\s+/g, '')) {
    throw new SandboxUsageError(
      `Bad duration "${duration}": use e.g. '90s', '5m', '2h', '1d' or milliseconds`,
    );
  }
  return parts.reduce((total, part) => total + Number(part[1]) * UNIT_MS[part[2]!]!, 0);
}

/** How the sandbox clock moves between `advance` and `set` calls. */
export type ClockMode = 'frozen' | 'real';

interface ScheduledJob {
  readonly at: number;
  readonly run: () => void;
}

/**
 * The sandbox's time. Every timestamp, idempotency window, rate window, retry schedule and background
 * process (card reversals, renewals) reads it, so a test moves hours ahead with one call.
 */
export class SandboxClock {
  private baseMs: number;
  private realStart = Date.now();
  private jobs: ScheduledJob[] = [];

  /** @internal */
  constructor(
    start: Date,
    private readonly mode: ClockMode,
    private readonly speed = 1,
  ) {
    this.baseMs = start.getTime();
  }

  /** The sandbox's current time. */
  now(): Date {
    return new Date(this.nowMs());
  }

  /** The current time in milliseconds since the epoch. */
  nowMs(): number {
    return this.mode === 'real' ? this.baseMs + (Date.now() - this.realStart) * this.speed : this.baseMs;
  }

  /** @internal How long `ms` of sandbox time lasts on the wall clock: shorter on a clock running fast. */
  wallMs(ms: number): number {
    // A frozen clock never reaches a later time by waiting: the wait in real time is none.
    return this.mode === 'real' ? ms / this.speed : 0;
  }

  /** Moves time forward (`'2h'`, `'30m'`, or milliseconds) and runs the background work now due. */
  advance(duration: string | number): Date {
    this.baseMs += parseDuration(duration);
    this.runDue();
    return this.now();
  }

  /** Jumps to a moment; it may not lie in the sandbox's past, where records already exist. */
  set(date: Date | string | number): Date {
    const target = new Date(date).getTime();
    if (Number.isNaN(target)) throw new SandboxUsageError(`Bad date: ${String(date)}`);
    if (target < this.nowMs()) throw new SandboxUsageError('The sandbox clock cannot move backwards');
    this.restore(target);
    return this.now();
  }

  /**
   * @internal Stands the clock at a saved moment (restoring a snapshot): where the clock was, even if
   * rebuilding the base shop took longer than the saved clock had run, so this may move it back by that
   * much. Only before the saved records replace the seeded ones.
   */
  restore(ms: number): void {
    this.baseMs += ms - this.nowMs();
    this.runDue();
  }

  /** The current time as the reference writes it: ISO-8601 UTC with a trailing Z. */
  iso(): string {
    return this.now().toISOString();
  }

  /**
   * @internal Runs `run` once the clock reaches `at` (on advance, set, or the next request). Used for
   * time-driven behaviour such as the 10-minute reversal of unattached card charges.
   */
  schedule(at: Date | number, run: () => void): void {
    this.jobs.push({ at: typeof at === 'number' ? at : at.getTime(), run });
    this.jobs.sort((a, b) => a.at - b.at);
  }

  /** @internal Runs every scheduled job whose time has come, oldest first. */
  runDue(): void {
    const now = this.nowMs();
    while (this.jobs.length > 0 && this.jobs[0]!.at <= now) {
      // A job changes records in place: the tables' list indexes re-check their rows.
      noteWrites();
      this.jobs.shift()!.run();
    }
  }
}
