import type { z } from '../internal/schema-types.js';
import { ParamsValidationError } from './errors/params-validation-error.js';
import type { Checker, Validators } from './lazy-validation.js';
import type { Operation } from './operation.js';

/** The arguments of one call, split the way the operation sends them. */
export interface RequestParams {
  /** Values for the path's `{placeholders}`. */
  readonly path?: Readonly<Record<string, unknown>>;
  /** Query string values; `undefined` and `null` are left out. */
  readonly query?: Readonly<Record<string, unknown>>;
  /** The JSON body. */
  readonly body?: unknown;
}

function collect(
  validate: Validators['validate'],
  schema: z.ZodType | null,
  value: unknown,
  root: string,
  into: Record<string, string[]>,
): void {
  if (!schema) return;
  const issues = validate(schema, value ?? {});
  if (issues === null) return;
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.join('.') : root;
    const messages = into[field] ?? [];
    messages.push(issue.message);
    into[field] = messages;
  }
}

/**
 * Refuses a call whose query or body breaks the operation's schema, before anything is sent, with the
 * fields named as the server would name them. An operation without a schema sends what it is given. The
 * values are sent as the caller gave them (the query encoder turns a `Date` into its ISO string), so only
 * validity is checked: no parsed copy is built.
 */
export function checkParams(operation: Operation, checker: Checker, params: RequestParams): void {
  const { query, body } = checker.schemas;
  if (!query && !body) return;
  const { validate } = checker.validators;
  const details: Record<string, string[]> = {};
  collect(validate, query, params.query, 'query', details);
  collect(validate, body, params.body, 'body', details);
  if (Object.keys(details).length > 0) throw new ParamsValidationError(details, operation.id);
}

/** The arguments of `shop.get` and `shop.delete`, for an endpoint the SDK has no method for yet. */
export interface RawRequestParams<Result extends z.ZodType = z.ZodUnknown> {
  /** Values for the path's `{placeholders}`, each encoded as one segment. */
  readonly path?: Readonly<Record<string, string | number>>;
  /** Query string values, encoded as every method's are; `undefined` and `null` are left out. */
  readonly query?: Readonly<Record<string, unknown>>;
  /** Validates the envelope's `data` and types the result. @default not checked, typed `unknown` */
  readonly result?: Result;
}

/** The arguments of `shop.post` and `shop.patch`: those of {@link RawRequestParams} and a JSON body. */
export interface RawRequestParamsWithBody<Result extends z.ZodType = z.ZodUnknown>
  extends RawRequestParams<Result> {
  /** The JSON body, sent as given. */
  readonly body?: unknown;
}
