import { array, compile, config, safeParse, unknown, validate as validates } from 'zod/mini';
import type * as core from 'zod/v4/core';
import { $ZodCheckOverwrite } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import type { z } from '../../internal/schema-types.js';
import type { ResponseIssue } from '../errors/transport-errors.js';

// Schema checks on the hot path. Each schema is compiled once (`z.compile`, zod's code-generated fast path)
// and cached. Where the schema cannot change a valid value (no transforms, defaults, coercion), the check
// runs as an assert-only validator and the parsed JSON is returned as is: no copy of a 200-item page is
// built. For a generated operation that is told, not found out: the generator marks each one
// (`OperationSchemas.resultIsInput`), so the hot path looks at no schema's structure. A schema of the
// caller's own (`defineOperation`, `shop.get(..., { result })`) is looked at once, through zod's public
// members only (`schema.def`, a check's class): see `outputIsInput`. Request params, whose output nobody
// reads, always take the validator (`validate`). Either way the slower runtime parser runs only to describe
// a failure. Nothing here reads zod's private `_zod` fields.

/** The outcome of checking one value. */
export type CheckResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: ResponseIssue[] };

type Check = (value: unknown) => CheckResult<unknown>;

/** The public `def` of a classic or zod/mini schema: the fields {@link outputIsInput} reads. */
interface PublicDef {
  readonly type: string;
  readonly coerce?: boolean;
  readonly checks?: readonly unknown[];
  readonly [child: string]: unknown;
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

/**
 * True when a value that passes a schema of the caller's own is also its output (no transform, default,
 * coercion or overwriting check), so returning the input is exact; false when unsure (a schema without a
 * public `def`), which takes the parser. Read once per schema, never for a generated operation (the tests
 * hold the generator's `resultIsInput` to it).
 */
export function outputIsInput(schema: unknown, seen: Set<unknown> = new Set()): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = (schema as { readonly def?: PublicDef }).def;
  if (def === undefined) return false;
  if (def.coerce) return false;
  if (def.checks?.some((check) => check instanceof $ZodCheckOverwrite)) return false;
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

function compiled(schema: z.ZodType): z.ZodType {
  // `new Function` is refused on some edge runtimes; z.compile then hands back the schema unchanged.
  return config().jitless ? schema : compile(schema);
}

/** The check of `schema`: assert-only when `asIs` (its output is its input), else the compiled parser. */
function buildCheck(schema: z.ZodType, asIs: boolean): Check {
  const fast = compiled(schema);
  if (asIs) {
    return (value) =>
      validates(fast, value) ? { ok: true, value } : { ok: false, issues: issuesOf(schema, value) };
  }
  return (value) => {
    const result = safeParse(fast, value);
    return result.success ? { ok: true, value: result.data } : { ok: false, issues: issuesOf(schema, value) };
  };
}

// An operation without a result schema (`defineOperation` without `result`) checks its answer as zod's
// `unknown()`: anything passes (as it is), and a list's `data` must still be an array.
const UNCHECKED: z.ZodType = unknown();

/** Compiled checks by schema: of schemas the generator vouched for, and of the caller's own (looked at). */
const checks = { told: new WeakMap<z.ZodType, Check>(), other: new WeakMap<z.ZodType, Check>() };
const listChecks = { told: new WeakMap<z.ZodType, Check>(), other: new WeakMap<z.ZodType, Check>() };
const validators = new WeakMap<z.ZodType, (value: unknown) => ResponseIssue[] | null>();

/**
 * Checks `value` against `schema`; the compiled check is built on first use and cached. `told`: the
 * generator says the schema changes no valid value (`OperationSchemas.resultIsInput`), so `value` itself is
 * returned; else (a schema of the caller's own) {@link outputIsInput} decides, once.
 */
export function check(schema: z.ZodType | null, value: unknown, told: boolean): CheckResult<unknown> {
  const cache = told || !schema ? checks.told : checks.other;
  schema ??= UNCHECKED;
  let run = cache.get(schema);
  if (!run) {
    run = buildCheck(schema, cache === checks.told || outputIsInput(schema, new Set()));
    cache.set(schema, run);
  }
  return run(value);
}

/** Checks a page's `data` against the schema of ONE item (what a list operation's `result` holds). */
export function checkList(
  itemSchema: z.ZodType | null,
  value: unknown,
  told: boolean,
): CheckResult<unknown[]> {
  const cache = told || !itemSchema ? listChecks.told : listChecks.other;
  itemSchema ??= UNCHECKED;
  let run = cache.get(itemSchema);
  if (!run) {
    run = buildCheck(array(itemSchema), cache === listChecks.told || outputIsInput(itemSchema, new Set()));
    cache.set(itemSchema, run);
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
    const fast = compiled(schema);
    run = (input) => (validates(fast, input) ? null : issuesOf(schema, input));
    validators.set(schema, run);
  }
  return run(value);
}
