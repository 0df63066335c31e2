// How the quickstart talks: numbered steps, indented details, money and times a person can read.
import { isShopError, ShopApiError } from '../../src/index.js';

let step = 0;

/** Starts the next numbered step. */
export function heading(text: string): void {
  step += 1;
  console.log(`\n${step}. ${text}`);
}

/** A line under the current step. */
export function detail(text: string): void {
  console.log(`   ${text}`);
}

/** Cents in the shop's currency (USD) as dollars. */
export function money(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** An ISO window as "Fri 2 Oct, 17:00-18:00 UTC". */
export function window(startsAt: string, endsAt: string): string {
  const start = new Date(startsAt);
  const day = start.toLocaleDateString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  return `${day}, ${startsAt.slice(11, 16)}-${endsAt.slice(11, 16)} UTC`;
}

/** One line for an error, without a stack trace: what a person running the demo needs to act on it. */
export function describeError(error: unknown): string {
  if (error instanceof ShopApiError) {
    const required = error.is('INSUFFICIENT_SCOPE') ? ` (the key needs ${error.details.required})` : '';
    // The SDK's message already leads with the status and code: "403 INSUFFICIENT_SCOPE: ...".
    return `${error.name}: ${error.message}${required}`;
  }
  if (isShopError(error)) return `${error.name}: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
