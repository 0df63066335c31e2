import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';

/** A fixed start time, so seeded records and windows are the same on every run. */
export const START = '2026-10-01T15:20:00.000Z';

export function newSandbox(options: SandboxOptions = {}): Sandbox {
  return createSandbox({ now: START, ...options });
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  json: any;
}

/** One request straight into the simulator core, as a web Request. */
export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers = new Headers(options.headers);
  if (options.key) headers.set('Authorization', `Bearer ${options.key}`);
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  const response = await sandbox.handle(
    new Request(`${sandbox.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

/** Follows next_cursor until has_more is false, collecting every item. */
export async function listAll(sandbox: Sandbox, path: string, key: string): Promise<CallResult['json'][]> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page = await call(sandbox, 'GET', cursor ? `${path}${separator}cursor=${cursor}` : path, { key });
    if (page.status !== 200) throw new Error(`${path}: ${page.status} ${JSON.stringify(page.json)}`);
    items.push(...page.json.data);
    cursor = page.json.meta.has_more ? page.json.meta.next_cursor : null;
  } while (cursor);
  return items;
}

/** An hour-aligned ISO time `hours` from the start time (plus `days`). */
export function at(hours: number, days = 0): string {
  const start = Date.parse(START);
  const hour = start - (start % 3_600_000);
  return new Date(hour + days * 86_400_000 + hours * 3_600_000).toISOString();
}
