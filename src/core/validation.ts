import { array, compile, config, safeParse, unknown, validate as validates } from 'zod/mini';
import type * as core from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import type { z } from '../internal/schema-types.js';
import type { ResponseIssue } from './errors/transport-errors.js';

// Schema checks on the hot path. Each schema is compiled once (`z.compile`, zod's code-generated fast path)
// and cached. Where the schema cannot change a valid value (no transforms, defaults, coercion: true of every
// generated response schema), the check runs as an assert-only validator and the parsed JSON is returned
// as is: no copy of a 200-item page is built. Elsewhere the compiled parser builds the output; request
// params, whose output nobody reads, always take the validator (`validate`). Either way the slower runtime
// parser runs only to describe a failure.

/** The outcome of checking one value. */
export type CheckResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: ResponseIssue[] };

type Check = (value: unknown) => CheckResult<unknown>;

interface SchemaInternals {
  _zod: {
    def: Record<string, unknown> & { type: string; checks?: Array<{ _zod: { def: { check: string } } }> };
  };
}

const SCALARS = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'undefined',
  'literal',
  'enum',
  'unknown',
  'any',
  'template_literal',
  'never',
  'nan',
  'bigint',
  'symbol',
  'void',
  'date',
  'custom',
]);

/** True when a value that passes `schema` is also its output, so returning the input is exact. */
function outputIsInput(schema: unknown, seen: Set<unknown>): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = (schema as SchemaInternals)._zod.def;
  if (def.coerce) return false;
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) return false;
  const child = (value: unknown) => value === undefined || outputIsInput(value, seen);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'nonoptional':
      return child(def.innerType);
    case 'array':
      return child(def.element);
    case 'object':
      // Strip-mode objects would drop unknown keys; keeping them is what the SDK promises anyway.
      return Object.values(def.shape as Record<string, unknown>).every(child) && child(def.catchall);
    case 'union':
      return (def.options as unknown[]).every(child);
    case 'intersection':
      return child(def.left) && child(def.right);
    case 'record':
      return child(def.keyType) && child(def.valueType);
    case 'tuple':
      return (def.items as unknown[]).every(child) && child(def.rest);
    default:
      return SCALARS.has(def.type);
  }
}

const UNKNOWN_KEY = 'is not a parameter of this endpoint';

// zod/mini loads no locale, so its messages would read "Invalid input". The English map is passed to each
// describing parse rather than installed with z.config(), which would change a caller's own zod setup.
const ENGLISH: core.ParseContext<core.$ZodIssue> = { error: en().localeError };

function issuesOf(schema: z.ZodType, value: unknown): ResponseIssue[] {
  const result = safeParse(schema, value, ENGLISH);
  return result.success ? [] : flatten(result.error.issues, []);
}

/**
 * Names fields, not "Invalid input": a value that matches no branch of a union (a reservation that is neither
 * a lane booking nor a class-session booking) is described by the branch it came closest to, the one with the
 * fewest issues (the first on a tie), with that branch's own paths.
 */
function flatten(issues: readonly core.$ZodIssue[], prefix: readonly PropertyKey[]): ResponseIssue[] {
  const out: ResponseIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
      out.push(...flatten(closest, path));
    } else if (issue.code === 'unrecognized_keys') {
      // Only closed params objects refuse keys: name each one, as a misspelled field, not the object.
      for (const key of issue.keys)
        out.push({ path: [...path, key] as (string | number)[], message: UNKNOWN_KEY });
    } else {
      out.push({ path: path as (string | number)[], message: issue.message });
    }
  }
  return out;
}

function buildCheck(schema: z.ZodType): Check {
  // `new Function` is refused on some edge runtimes; z.compile then hands back the schema unchanged.
  const fast = config().jitless ? schema : compile(schema);
  if (outputIsInput(schema, new Set())) {
    return (value) =>
      validates(fast, value) ? { ok: true, value } : { ok: false, issues: issuesOf(schema, value) };
  }
  return (value) => {
    const result = safeParse(fast, value);
    return result.success ? { ok: true, value: result.data } : { ok: false, issues: issuesOf(schema, value) };
  };
}

// An operation without a result schema (`defineOperation` without `result`) checks its answer as zod's
// `unknown()`: anything passes, and a list's `data` must still be an array.
const UNCHECKED: z.ZodType = unknown();

const checks = new WeakMap<z.ZodType, Check>();
const listChecks = new WeakMap<z.ZodType, Check>();
const validators = new WeakMap<z.ZodType, (value: unknown) => ResponseIssue[] | null>();

/** Checks `value` against `schema`; the compiled check is built on first use and cached. */
export function check(schema: z.ZodType | null, value: unknown): CheckResult<unknown> {
  schema ??= UNCHECKED;
  let run = checks.get(schema);
  if (!run) {
    run = buildCheck(schema);
    checks.set(schema, run);
  }
  return run(value);
}

/** Checks a page's `data` against the schema of ONE item (what a list operation's `result` holds). */
export function checkList(itemSchema: z.ZodType | null, value: unknown): CheckResult<unknown[]> {
  itemSchema ??= UNCHECKED;
  let run = listChecks.get(itemSchema);
  if (!run) {
    run = buildCheck(array(itemSchema));
    listChecks.set(itemSchema, run);
  }
  return run(value) as CheckResult<unknown[]>;
}

/**
 * Whether `value` passes `schema`, for a caller that never reads the output (request params): always the
 * assert-only validator, even where a transform (a `Date` turned into its ISO string) makes the parser
 * build a new value. Exact: zod's `validate` answers what a parse would. Null when valid, else the issues.
 */
export function validate(schema: z.ZodType, value: unknown): ResponseIssue[] | null {
  let run = validators.get(schema);
  if (!run) {
    const fast = config().jitless ? schema : compile(schema);
    run = (input) => (validates(fast, input) ? null : issuesOf(schema, input));
    validators.set(schema, run);
  }
  return run(value);
}
