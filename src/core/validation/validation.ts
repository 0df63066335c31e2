import { array, compile, config, safeParse, unknown, validate as validates } from 'zod/mini';
import type * as core from 'zod/v4/core';
import { $ZodCheckOverwrite } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import type { z } from '../../internal/schema-types.js';
import type { ResponseIssue } from '../errors/transport-errors.js';

// Checks compiled once per schema. Where a schema cannot change a valid value, an assert-only check runs
// and the parsed JSON is returned as is; the slower parser only describes a failure.

/** The outcome of checking one value. */
export type CheckResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: ResponseIssue[] };

type Check = (value: unknown) => CheckResult<unknown>;

/** The fields of a schema's public `def` that {@link outputIsInput} reads. */
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

/** True when a caller's schema surely outputs what it accepts (no transform, default, coercion). */
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

// zod/mini loads no locale; the English map goes to each describing parse, not z.config().
const ENGLISH: core.ParseContext<core.$ZodIssue> = { error: en().localeError };

function issuesOf(schema: z.ZodType, value: unknown): ResponseIssue[] {
  const result = safeParse(schema, value, ENGLISH);
  return result.success ? [] : flatten(result.error.issues, []);
}

/** Describes a union mismatch by the branch with the fewest issues. */
function flatten(issues: readonly core.$ZodIssue[], prefix: readonly PropertyKey[]): ResponseIssue[] {
  const out: ResponseIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
      out.push(...flatten(closest, path));
    } else if (issue.code === 'unrecognized_keys') {
      // Only closed params objects refuse keys: name each as a misspelled field.
      for (const key of issue.keys)
        out.push({ path: [...path, key] as (string | number)[], message: UNKNOWN_KEY });
    } else {
      out.push({ path: path as (string | number)[], message: issue.message });
    }
  }
  return out;
}

function compiled(schema: z.ZodType): z.ZodType {
  // `new Function` is refused on some edge runtimes; z.compile then returns the schema unchanged.
  return config().jitless ? schema : compile(schema);
}

/** The check of `schema`: assert-only when `asIs`, else the compiled parser. */
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

// No result schema: anything passes, but a list's `data` must still be an array.
const UNCHECKED: z.ZodType = unknown();

/** Compiled checks by schema. */
const checks = { told: new WeakMap<z.ZodType, Check>(), other: new WeakMap<z.ZodType, Check>() };
const listChecks = { told: new WeakMap<z.ZodType, Check>(), other: new WeakMap<z.ZodType, Check>() };
const validators = new WeakMap<z.ZodType, (value: unknown) => ResponseIssue[] | null>();

/** Checks `value` against `schema`; `told`: the generator says the output is the input. */
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

/** Checks a page's `data` against the schema of ONE item. */
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

/** The issues of request params against `schema`, assert-only; null when valid. */
export function validate(schema: z.ZodType, value: unknown): ResponseIssue[] | null {
  let run = validators.get(schema);
  if (!run) {
    const fast = compiled(schema);
    run = (input) => (validates(fast, input) ? null : issuesOf(schema, input));
    validators.set(schema, run);
  }
  return run(value);
}
