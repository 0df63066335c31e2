import { preview, redactedCopy } from '../internal/redact.js';
import type { CallState } from './call.js';
import type { SuccessEnvelope } from './envelope.js';
import { HookError, InvalidResponseError, ResponseValidationError } from './errors/transport-errors.js';
import type { Checker } from './lazy-validation.js';
import type { SdkLogger } from './logger.js';
import type { Operation } from './operation.js';
import type { ListMeta } from './pagination.js';
import type { CheckResult } from './validation.js';

/**
 * What a response whose `data` breaks the operation's schema does: `'strict'` rejects with a
 * ResponseValidationError, `'warn'` returns the data as received and reports the error through
 * `onValidationIssue` and the logger, `'off'` returns it unchecked.
 */
export type ResponseValidation = 'strict' | 'warn' | 'off';

/** Told of each response that broke its schema under `'warn'`; the error carries the issues and the `data`. */
export type ValidationIssueListener = (error: ResponseValidationError) => void;

const MODES: ReadonlySet<unknown> = new Set(['strict', 'warn', 'off']);

/** True for a {@link ResponseValidation} value. */
export function isResponseValidation(value: unknown): value is ResponseValidation {
  return MODES.has(value);
}

interface PolicyConfig {
  readonly logger: SdkLogger;
  readonly onValidationIssue: ValidationIssueListener | undefined;
  /** Redacted from the `data` an error keeps and from message excerpts. */
  readonly secrets: readonly string[];
}

/** A single record's `data` under the call's validation mode, checked with the call's loaded `checker`. */
export function validatedRecord(
  operation: Operation,
  { schemas, validators }: Checker,
  response: Response,
  data: unknown,
  mode: ResponseValidation,
  config: PolicyConfig,
): unknown {
  if (mode === 'off') return data;
  return settle(operation, response, data, validators.check(schemas.result, data, schemas.resultIsInput === true), mode, config);
}

/** A page's `data` under the call's validation mode; an array in every mode, else InvalidResponseError. */
export function validatedList(
  operation: Operation,
  { schemas, validators }: Checker,
  response: Response,
  data: unknown,
  mode: ResponseValidation,
  config: PolicyConfig,
): unknown[] {
  if (mode !== 'strict' && !Array.isArray(data)) {
    throw new InvalidResponseError(
      `Expected an array of items from ${operation.id}, got ${data === null ? 'null' : typeof data}`,
      response.status,
      response.headers,
    );
  }
  if (mode === 'off') return data as unknown[];
  return settle(
    operation,
    response,
    data,
    validators.checkList(schemas.result, data, schemas.resultIsInput === true),
    mode,
    config,
  ) as unknown[];
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
  // The error keeps a redacted, depth-bounded copy of `data`: it may be logged or serialized anywhere.
  const error = new ResponseValidationError(
    operation.id,
    issues,
    response.status,
    response.headers,
    redactedCopy(data, config.secrets),
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

/** What an attempt resolves to: `data` checked under the call's mode, and a list's `meta`. */
export interface Accepted {
  readonly data: unknown;
  readonly meta: ListMeta | undefined;
  readonly response: Response;
}

/** The answer of one attempt, opened: a record's `data`, or a page's items and its checked `meta`. */
export function accepted(
  call: CallState,
  checker: Checker,
  response: Response,
  envelope: SuccessEnvelope,
  mode: ResponseValidation,
  config: PolicyConfig,
): Accepted {
  if (!call.list) {
    return {
      data: validatedRecord(call.spec, checker, response, envelope.data, mode, config),
      meta: undefined,
      response,
    };
  }
  const meta = envelope.meta;
  if (!isListMeta(meta)) {
    throw new InvalidResponseError(
      `Expected list meta {has_more, next_cursor} from ${call.operation}, got ${preview(meta ?? null, config.secrets)}`,
      response.status,
      response.headers,
    );
  }
  return { data: validatedList(call.spec, checker, response, envelope.data, mode, config), meta, response };
}

/** A usable `meta`: a boolean `has_more`, and a cursor to follow whenever it is true. */
export function isListMeta(meta: unknown): meta is ListMeta {
  if (typeof meta !== 'object' || meta === null) return false;
  const { has_more: hasMore, next_cursor: cursor } = meta as Record<string, unknown>;
  if (hasMore === true) return typeof cursor === 'string' && cursor !== '';
  return hasMore === false && (cursor === undefined || cursor === null || typeof cursor === 'string');
}
