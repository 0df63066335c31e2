// What `api` and the resource commands share: the client of a profile or the environment, the request's
// input (--data, --query), the confirmation of a write on a live shop, the output and the errors.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ShopClient } from '../client.js';
import { ShopApiError } from '../core/errors/api-errors.js';
import { ParamsValidationError } from '../core/errors/params-validation-error.js';
import { isShopError } from '../core/errors/shop-error.js';
import { ConnectionError } from '../core/errors/transport-errors.js';
import { CliError, EXIT, usageError } from './exit-codes.js';
import type { Output } from './output.js';
import { type Credentials, isLiveKey, resolveCredentials } from './profiles.js';

/** The flags every API command takes. */
export const API_FLAGS = {
  profile: {
    type: 'string',
    description: 'The profile to use (default: SHOP_PROFILE, else "default"); SHOP_API_KEY still wins',
  },
  json: { type: 'boolean', description: 'One JSON object a line (a list: one record a line)' },
} as const;

/** A client for the command's credentials, with where they came from. */
export async function clientFor(
  profile: string | undefined,
): Promise<{ shop: ShopClient; credentials: Credentials }> {
  const credentials = await resolveCredentials(profile);
  if (!credentials.apiKey) {
    throw usageError(
      'no API key: run `shop-mgmt login` (or pass --profile NAME), or set SHOP_API_KEY and SHOP_API_BASE_URL',
    );
  }
  if (!credentials.baseUrl) {
    throw usageError(
      'no base URL: set SHOP_API_BASE_URL, or store one with `shop-mgmt login --base-url URL`',
    );
  }
  try {
    return {
      shop: new ShopClient({ apiKey: credentials.apiKey, baseUrl: credentials.baseUrl }),
      credentials,
    };
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

/** The body of `--data`: `@file.json`, `-` (stdin) or the JSON itself; an object. */
export function readData(value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let text: string;
  let where: string;
  if (value === '-') {
    where = 'stdin';
    text = readFileSync(0, 'utf8');
  } else if (value.startsWith('@')) {
    where = value.slice(1);
    try {
      text = readFileSync(where, 'utf8');
    } catch (error) {
      throw usageError(
        `--data ${value}: cannot read ${where} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  } else {
    where = 'the --data value';
    text = value;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usageError(`--data: ${where} is not JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw usageError(`--data: ${where} must hold one JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** `--query k=v` flags as a query object (a name given twice keeps both, comma-joined, as lists are sent). */
export function readQuery(pairs: readonly string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw usageError(`--query takes name=value, got ${JSON.stringify(pair)}`);
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  }
  return query;
}

/** A fresh Idempotency-Key, or the one given (at most 100 characters, as the API takes). */
export function idempotencyKey(given: string | undefined): string {
  if (given === undefined) return globalThis.crypto.randomUUID();
  if (given === '' || given.length > 100 || /[^\x21-\x7e]/.test(given)) {
    throw usageError('--idempotency-key takes 1 to 100 printable characters without spaces');
  }
  return given;
}

/**
 * Asks before a write on a live shop when a person is at the terminal (stdin and stderr TTYs); `--yes`
 * skips the question. A sandbox key, or no terminal, asks nothing.
 */
export async function confirmWrite(
  output: Output,
  credentials: Credentials,
  what: string,
  yes: boolean | undefined,
): Promise<void> {
  if (yes || !isLiveKey(credentials.apiKey)) return;
  if (!process.stdin.isTTY || !process.stderr.isTTY) return;
  const shop = credentials.profile ? `profile ${credentials.profile}` : credentials.baseUrl;
  const banner = `\u001b[1;31mLIVE shop\u001b[0m (${shop})`;
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await new Promise<string>((done) => reader.question(`${what} on ${banner}? [y/N] `, done));
  reader.close();
  if (!/^y(es)?$/i.test(answer.trim())) {
    output.note('nothing sent');
    throw new CliError('cancelled: nothing was sent (--yes skips this question)', EXIT.failed);
  }
}

/** Says the Idempotency-Key of a write on stderr, so a retry after a lost answer can send it again. */
export function noteIdempotencyKey(output: Output, key: string, rerun: string): void {
  output.note(
    `idempotency key: ${key} (after a lost answer, run it again with --idempotency-key ${key}${rerun})`,
  );
}

/** The SDK's errors as the CLI says them: the status and code, the fix, and the exit code. */
export function asCliError(error: unknown): unknown {
  if (error instanceof CliError) return error;
  if (error instanceof ParamsValidationError) return usageError(error.message);
  if (error instanceof ShopApiError) {
    // The SDK's message already reads `404 NOT_FOUND: No such ... (field: problem)`.
    const fix = FIXES[error.status];
    return new CliError(`${error.message}${fix ? `; ${fix}` : ''}`, EXIT.failed);
  }
  if (error instanceof ConnectionError) {
    return new CliError(`cannot reach the shop: ${error.message}`, EXIT.unreachable);
  }
  if (isShopError(error)) return new CliError(`${(error as Error).name}: ${(error as Error).message}`);
  return error;
}

const FIXES: Record<number, string> = {
  401: 'check the key (shop-mgmt doctor), or log in again: shop-mgmt login',
  403: 'the key lacks a permission (shop-mgmt whoami lists them)',
  404: 'no such record or path (the ids of a list: shop-mgmt api get /v1/...)',
  409: 'the record is not in a state that allows it; retrieve it to see its status',
  429: 'the shop’s rate limit is spent; wait and run it again',
};

/** Runs `body`, turning the SDK's errors into the CLI's. */
export async function calling<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw asCliError(error);
  }
}

/** Prints a result: JSON lines with --json or when piped, a table (a list) or `field  value` lines on a TTY. */
export function printResult(output: Output, data: unknown): void {
  const human = output.mode.tty && !output.mode.json;
  if (Array.isArray(data)) {
    if (!human) {
      for (const item of data) process.stdout.write(`${JSON.stringify(item)}\n`);
      return;
    }
    process.stdout.write(`${table(data)}\n`);
    return;
  }
  if (!human || typeof data !== 'object' || data === null) {
    process.stdout.write(`${JSON.stringify(data)}\n`);
    return;
  }
  const entries = Object.entries(data as Record<string, unknown>);
  const width = Math.max(...entries.map(([key]) => key.length));
  for (const [key, value] of entries) {
    process.stdout.write(`${output.paint('dim', key.padEnd(width))}  ${cell(value, 100)}\n`);
  }
}

/** A list as a table of its first scalar columns (the whole record: --json). */
function table(rows: readonly unknown[]): string {
  if (rows.length === 0) return '(no records)';
  const columns: string[] = [];
  for (const row of rows.slice(0, 20)) {
    for (const [key, value] of Object.entries((row ?? {}) as Record<string, unknown>)) {
      if (key === 'object' || columns.includes(key) || columns.length >= 7) continue;
      if (value === null || typeof value !== 'object') columns.push(key);
    }
  }
  const cells = rows.map((row) =>
    columns.map((column) => cell((row as Record<string, unknown>)[column], 32)),
  );
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...cells.map((line) => line[index]!.length)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.toUpperCase())), ...cells.map(line)].join('\n');
}

function cell(value: unknown, max: number): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
