// Small pieces of the inbox worker (inbox.ts): its clock, its bounds on waiting, the closable tx, and how it
// reports and checks options.
import { ShopError } from '../../core/errors/shop-error.js';
import type { InboxWorkerOptions } from './options.js';
import type { InboxTransaction } from './types.js';

/** The wall clock read once, then advanced by the monotonic one: a step of the wall clock moves nothing. */
export function monotonicWallClock(): () => number {
  const origin = Date.now() - performance.now();
  return () => Math.round(origin + performance.now());
}

/** `tx` refusing every statement once `over()` gives the error that cut its handler off. */
export function closable(tx: InboxTransaction, over: () => ShopError | undefined): InboxTransaction {
  const check = () => {
    const error = over();
    if (error) {
      throw new ShopError(
        `The inbox transaction is over (${error.message}): use tx only while the handler runs.`,
      );
    }
  };
  return {
    dialect: tx.dialect,
    query: async (sql, params) => {
      check();
      return tx.query(sql, params);
    },
    execute: async (sql, params) => {
      check();
      return tx.execute(sql, params);
    },
  };
}

/** True when `work` settled within `ms`. */
export async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return done;
}

/** An onError that cannot throw: a failing logger must not stop the worker or leave a rejection behind. */
export function safely(
  onError: NonNullable<InboxWorkerOptions['onError']>,
): NonNullable<InboxWorkerOptions['onError']> {
  return (error, entry) => {
    try {
      onError(error, entry);
    } catch {
      // The worker goes on.
    }
  };
}

export function defaultOnError(error: unknown, entry: { eventId: string; attempt: number } | null): void {
  console.error(
    `shop-mgmt: inbox ${entry ? `event ${entry.eventId} attempt ${entry.attempt}` : 'worker'}`,
    error,
  );
}

export function whole(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new ShopError(`${name} must be a whole number, ${min} or more, got ${value}.`);
  }
  return value;
}
