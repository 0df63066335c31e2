/** Calendar-date arithmetic in UTC for billing periods, due dates and expiry (YYYY-MM-DD strings). */

export const DAY_MS = 86_400_000;

/** The UTC calendar date of a moment. */
export function dateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Midnight UTC at the start of a calendar date, in ms. */
export function startOfDate(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

export function addDays(date: string, days: number): string {
  return dateOf(startOfDate(date) + days * DAY_MS);
}

/** Adds calendar months; a day the target month lacks becomes its last day (Jan 31 + 1 month = Feb 28). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return dateOf(target.getTime());
}

/** Whether a string is a real YYYY-MM-DD date. */
export function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = startOfDate(value);
  return !Number.isNaN(ms) && dateOf(ms) === value;
}
