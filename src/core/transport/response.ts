import { preview, redact, redactedCopy, snippet } from '../../internal/redact.js';
import type { Operation } from '../api/operation.js';
import type { ListMeta } from '../api/pagination.js';
import { createApiError } from '../errors/api-errors.js';
import {
  HookError,
  InvalidResponseError,
  RedirectError,
  ResponseValidationError,
} from '../errors/transport-errors.js';
import type { SdkLogger } from '../observe/logger.js';
import { type Checker, checkResult, type MaybePromise } from '../validation/lazy-validation.js';
import type { CheckResult } from '../validation/validation.js';
import type { CallState } from './call.js';

/** The success envelope `{status: 'ok', data, meta}`. */
export interface SuccessEnvelope {
  readonly status: 'ok';
  readonly data: unknown;
  readonly meta?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** One response, read once: its envelope, or the error it stands for. */
export function openEnvelope(
  response: Response,
  text: string,
  apiKeys: readonly string[],
  emptyData?: unknown,
): SuccessEnvelope {
  const { status, headers } = response;
  if (text === '' && emptyData !== undefined && status >= 200 && status < 300) {
    return { status: 'ok', data: emptyData };
  }
  const parsed = parseJson(text);
  if (status >= 200 && status < 300) {
    if (!parsed.ok) {
      throw new InvalidResponseError(
        `Expected a JSON envelope, got ${text === '' ? 'an empty body' : `'${snippet(text, apiKeys)}'`} (HTTP ${status})`,
        status,
        headers,
      );
    }
    const body = parsed.value;
    if (!isRecord(body) || body.status !== 'ok' || !('data' in body)) {
      throw new InvalidResponseError(
        `Expected the envelope {status: 'ok', data}, got '${snippet(text, apiKeys)}' (HTTP ${status})`,
        status,
        headers,
      );
    }
    return body as unknown as SuccessEnvelope;
  }
  // A 3xx (or a browser's opaque redirect, status 0): never followed.
  if (status < 400) throw redirected(response, apiKeys);
  const error =
    parsed.ok && isRecord(parsed.value) && parsed.value.status === 'error' ? parsed.value.error : null;
  if (isRecord(error) && typeof error.code === 'string') {
    // Redacted and cut short: a proxy may echo the request.
    const message = typeof error.message === 'string' ? snippet(error.message, apiKeys, 500) : '';
    const code = snippet(error.code, apiKeys, 100);
    const fields = code === 'VALIDATION_ERROR' ? fieldMessages(error.details, apiKeys) : '';
    return throwApi(
      status,
      code,
      `${status} ${code}${message ? `: ${message}` : ''}${fields}`,
      isRecord(error.details) ? redactedCopy(error.details, apiKeys) : undefined,
      headers,
    );
  }
  const start = text === '' ? 'empty body' : `'${snippet(text, apiKeys)}'`;
  const reason = response.statusText ? `${status} ${response.statusText}` : `HTTP ${status}`;
  return throwApi(status, null, `${reason} without an error envelope: ${start}`, undefined, headers);
}

/** A VALIDATION_ERROR's field reasons, for its message. */
function fieldMessages(details: unknown, apiKeys: readonly string[]): string {
  if (!isRecord(details)) return '';
  const parts: string[] = [];
  for (const [field, messages] of Object.entries(details).slice(0, 10)) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter(
      (message): message is string => typeof message === 'string',
    );
    if (list.length > 0) parts.push(`${field}: ${list.join(', ')}`);
  }
  const text = redact(parts.join('; '), apiKeys);
  return text === '' ? '' : ` (${text.length > 500 ? `${text.slice(0, 500)}...` : text})`;
}

/** The error of a 3xx, naming where it pointed (redacted). */
function redirected(response: Response, apiKeys: readonly string[]): RedirectError {
  const { status, headers } = response;
  if (response.type === 'opaqueredirect') {
    return new RedirectError(
      'The API answered with a redirect, which the SDK does not follow (the API never redirects; this runtime hides where it pointed): check baseUrl',
      status,
      headers,
      null,
    );
  }
  const raw = headers.get('location');
  let location: string | null = null;
  if (raw !== null && raw.trim() !== '') {
    try {
      location = new URL(raw, response.url || undefined).href;
    } catch {
      location = raw;
    }
    location = snippet(location, apiKeys, 300);
  }
  const where = location === null ? ' without a Location' : ` to ${location}`;
  return new RedirectError(
    `The API answered HTTP ${status}${where}; the SDK does not follow redirects (the API never redirects, so nothing was sent there): check baseUrl (https, host, no extra path) and any proxy in between`,
    status,
    headers,
    location,
  );
}

function throwApi(
  status: number,
  code: string | null,
  message: string,
  details: unknown,
  headers: Headers,
): never {
  throw createApiError({ status, code, message, details: isRecord(details) ? details : {}, headers });
}

/** `'strict'` rejects with a ResponseValidationError, `'warn'` returns the data and reports it, `'off'` skips the check. */
export type ResponseValidation = 'strict' | 'warn' | 'off';

/** Told of each response that broke its schema under `'warn'`. */
export type ValidationIssueListener = (error: ResponseValidationError) => void;

const MODES: ReadonlySet<unknown> = new Set(['strict', 'warn', 'off']);

/** True for a {@link ResponseValidation} value. */
export function isResponseValidation(value: unknown): value is ResponseValidation {
  return MODES.has(value);
}

interface PolicyConfig {
  readonly logger: SdkLogger;
  readonly onValidationIssue: ValidationIssueListener | undefined;
  /** Redacted from the kept `data` and message excerpts. */
  readonly apiKeys: readonly string[];
}

/** A single record's `data` under the call's mode; async only when a guard refuses. */
export function validatedRecord(
  operation: Operation,
  checker: Checker,
  response: Response,
  data: unknown,
  mode: ResponseValidation,
  config: PolicyConfig,
): MaybePromise<unknown> {
  if (mode === 'off') return data;
  const result = checkResult(operation, checker, data, false);
  if (result instanceof Promise)
    return result.then((found) => settle(operation, response, data, found, mode, config));
  return settle(operation, response, data, result, mode, config);
}

/** A page's `data` under the call's mode; must be an array in every mode. */
export function validatedList(
  operation: Operation,
  checker: Checker,
  response: Response,
  data: unknown,
  mode: ResponseValidation,
  config: PolicyConfig,
): MaybePromise<unknown[]> {
  if (mode !== 'strict' && !Array.isArray(data)) {
    throw new InvalidResponseError(
      `Expected an array of items from ${operation.id}, got ${data === null ? 'null' : typeof data}`,
      response.status,
      response.headers,
    );
  }
  if (mode === 'off') return data as unknown[];
  const result = checkResult(operation, checker, data, true);
  if (result instanceof Promise)
    return result.then((found) => settle(operation, response, data, found, mode, config) as unknown[]);
  return settle(operation, response, data, result, mode, config) as unknown[];
}

function settle(
  operation: Operation,
  response: Response,
  data: unknown,
  result: CheckResult<unknown>,
  mode: ResponseValidation,
  config: PolicyConfig,
): unknown {
  if (result.ok) return result.value;
  const issues = result.issues.map((issue) => ({ path: ['data', ...issue.path], message: issue.message }));
  // A redacted, depth-bounded copy: the error may be logged anywhere.
  const error = new ResponseValidationError(
    operation.id,
    issues,
    response.status,
    response.headers,
    redactedCopy(data, config.apiKeys),
  );
  if (mode === 'strict') throw error;
  config.logger.warn(`${error.message}; returning the data as received (responseValidation: 'warn')`, {
    operation: operation.id,
    method: operation.method,
    path: operation.path,
    status: response.status,
    issues: issues.length,
  });
  if (config.onValidationIssue) {
    try {
      config.onValidationIssue(error);
    } catch (thrown) {
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      throw new HookError(`onValidationIssue threw: ${message}`, { cause: thrown });
    }
  }
  return data;
}

/** An attempt's checked `data`, and a list's `meta`. */
export interface Accepted {
  readonly data: unknown;
  readonly meta: ListMeta | undefined;
  readonly response: Response;
}

/** One attempt's answer; async only when a guard refused. */
export function accepted(
  call: CallState,
  checker: Checker,
  response: Response,
  envelope: SuccessEnvelope,
  mode: ResponseValidation,
  config: PolicyConfig,
): MaybePromise<Accepted> {
  if (!call.list) {
    const data = validatedRecord(call.spec, checker, response, envelope.data, mode, config);
    if (data instanceof Promise) return data.then((value) => ({ data: value, meta: undefined, response }));
    return { data, meta: undefined, response };
  }
  const meta = envelope.meta;
  if (!isListMeta(meta)) {
    throw new InvalidResponseError(
      `Expected list meta {has_more, next_cursor} from ${call.operation}, got ${preview(meta ?? null, config.apiKeys)}`,
      response.status,
      response.headers,
    );
  }
  const data = validatedList(call.spec, checker, response, envelope.data, mode, config);
  if (data instanceof Promise) return data.then((items) => ({ data: items, meta, response }));
  return { data, meta, response };
}

/** A usable `meta`: a boolean `has_more`, with a cursor when true. */
export function isListMeta(meta: unknown): meta is ListMeta {
  if (typeof meta !== 'object' || meta === null) return false;
  const { has_more: hasMore, next_cursor: cursor } = meta as Record<string, unknown>;
  if (hasMore === true) return typeof cursor === 'string' && cursor !== '';
  return hasMore === false && (cursor === undefined || cursor === null || typeof cursor === 'string');
}
