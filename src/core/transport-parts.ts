import type { KyInstance } from 'ky';
import { countProblem, timeoutProblem } from '../internal/limits.js';
import { redact, redactedCause } from '../internal/redact.js';
import { ParamsValidationError } from './errors/params-validation-error.js';
import { ConnectionError } from './errors/transport-errors.js';
import type { Operation } from './operation.js';
import type { RequestParams } from './params.js';
import { encodeQuery } from './query.js';
import { isResponseValidation, type ResponseValidation } from './response-policy.js';
import type { Prepared } from './transport.js';

// The transport's small pure helpers: request building, the checks of per-call options, error wording.

/** `prepared` with `extra` added to its query string. */
export function withQuery(prepared: Prepared, extra: Readonly<Record<string, unknown>>): Prepared {
  const added = encodeQuery(extra);
  if (added === '') return prepared;
  const url = prepared.url.includes('?') ? `${prepared.url}&${added.slice(1)}` : prepared.url + added;
  return { ...prepared, url };
}

/**
 * What a DELETE answered with no body resolves to: `{ id, deleted: true }`, the id taken from the path's
 * last parameter (a number where the path takes an integer), the shape the API's deletion events carry.
 */
export function deletedStub(operation: Operation, params: RequestParams): Record<string, unknown> {
  const last = operation.pathParams[operation.pathParams.length - 1];
  const value = last === undefined ? undefined : params.path?.[last.name];
  if (value === undefined) return { deleted: true };
  return { id: last?.type === 'integer' ? Number(value) : value, deleted: true };
}

/** The JSON body of a request; a body JSON cannot hold (a cycle, a BigInt) is refused before sending. */
export function serialise(operation: Operation, body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ParamsValidationError(
      { body: [`cannot be sent as JSON: ${(error as Error).message}`] },
      operation.id,
    );
  }
}

/**
 * A failed fetch as a ConnectionError. The runtime's text may quote the URL or headers, so the message and
 * the kept `cause` (which util.inspect prints, chain and all) are redacted copies, never the raw error.
 */
export function connectionError(cause: unknown, secrets: readonly string[], url?: string): ConnectionError {
  const reason = redact(cause instanceof Error ? cause.message : String(cause), secrets);
  const code = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const where = url === undefined ? '' : ` to ${redact(urlWithoutQuery(url), secrets)}`;
  return new ConnectionError(
    `Connection error${where}: ${reason}${typeof code === 'string' ? ` (${code})` : ''}`,
    {
      cause: redactedCause(cause, secrets),
    },
  );
}

/** Origin and path of a request URL: no query string (it may carry values) and no credentials. */
function urlWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(an unparsable URL)';
  }
}

/** How a failed attempt reads in a log line: its HTTP status, else the error's name. */
export function describe(error: Error): string {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? `HTTP ${status}` : error.name;
}

/** A per-call `maxRetries`: a non-negative integer. */
export function checkCount(value: number): number {
  const problem = countProblem(value);
  if (problem !== null) throw new ParamsValidationError({ maxRetries: [problem] });
  return value;
}

/** A per-call `timeout`: positive milliseconds no larger than setTimeout accepts. */
export function checkTimeout(value: number): number {
  const problem = timeoutProblem(value);
  if (problem !== null) throw new ParamsValidationError({ timeout: [problem] });
  return value;
}

/** A per-call `deadline`: positive milliseconds no larger than setTimeout accepts. */
export function checkDeadline(value: number): number {
  const problem = timeoutProblem(value);
  if (problem !== null) throw new ParamsValidationError({ deadline: [problem] });
  return value;
}

/** A per-call `responseValidation`: one of the three modes. */
export function checkValidation(value: unknown): ResponseValidation {
  if (isResponseValidation(value)) return value;
  throw new ParamsValidationError({
    responseValidation: [`must be 'strict', 'warn' or 'off', got ${String(value)}`],
  });
}

/** ky passes options it does not know to fetch as they are: how the attempt's signal reaches the fetch below. */
export interface AttemptInit {
  shopSdkSignal?: AbortSignal;
}

/**
 * The runtime's fetch, looked up per request (msw and polyfills replace it later), with the attempt's own
 * signal. Given to ky's `signal`, it would be linked to ky's internal one with AbortSignal.any on every
 * call, ~15-40 us of a loopback call (bench/transport.ts); ky's retry and timeout are off, so its own signal
 * never fires and the attempt's, which covers headers and body, replaces it here.
 */
export function fetchWithAttemptSignal(input: Request | URL | string, init?: RequestInit): Promise<Response> {
  const signal = (init as AttemptInit | undefined)?.shopSdkSignal;
  return globalThis.fetch(input, signal ? { signal } : init);
}

let kyLoading: Promise<KyInstance> | undefined;

/** ky's default instance, imported once for every client of the process. */
export function loadKy(): Promise<KyInstance> {
  kyLoading ??= import('ky').then(
    // From the CJS build the import is of a CommonJS chunk, whose namespace's `default` is its exports object:
    // ky is one `default` further in.
    (module) => {
      const exported = module.default as KyInstance | { readonly default: KyInstance };
      return 'create' in exported ? exported : exported.default;
    },
    (error: unknown) => {
      kyLoading = undefined;
      throw error;
    },
  );
  return kyLoading;
}
