import { loadOnce } from '../../internal/load-once.js';
import type { z } from '../../internal/schema-types.js';
import type { Guard, Operation, OperationGuards, OperationSchemas } from '../api/operation.js';
import type { RequestParams } from '../api/params.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';
import { ShopError } from '../errors/shop-error.js';
import type { CheckResult } from './validation.js';

// Checks loaded on the first call: zod-free guards for generated operations, zod only to describe a refusal.

/** The validators of validation.ts, which import zod. */
export type Validators = typeof import('./validation.js');

/** An operation's schemas and the zod validators. */
export interface ZodChecks {
  readonly schemas: OperationSchemas;
  readonly validators: Validators;
}

/** A call's checks: guards and, once one refused, zod schemas. */
export interface Checker {
  /** Absent: checked with `zod` alone. */
  readonly guards?: OperationGuards;
  /** Loaded up front without guards, else on a guard's first refusal. */
  zod?: ZodChecks;
}

/** A value, or a promise of it while a chunk loads. */
export type MaybePromise<T> = T | Promise<T>;

let validators: Validators | undefined;
const loaded = new WeakMap<object, Checker>();
const loading = new WeakMap<object, Promise<Checker>>();
const describing = new WeakMap<Checker, Promise<ZodChecks>>();

/** validation.ts, imported once; kept in `validators` for synchronous lookups. */
const loadValidators = loadOnce(() =>
  import('./validation.js').then((module) => {
    validators = module;
    return module;
  }),
);

/** The operation's checker once loaded, else undefined. */
export function loadedChecker(operation: Operation): Checker | undefined {
  const { schemas } = operation;
  if (schemas) return loaded.get(schemas);
  if (!validators) return undefined;
  let checker = loaded.get(operation);
  if (!checker) {
    checker = { zod: { schemas: inline(operation), validators } };
    loaded.set(operation, checker);
  }
  return checker;
}

/** The schemas an operation holds itself (`defineOperation`). */
function inline(operation: Operation): OperationSchemas {
  return { query: operation.query ?? null, body: operation.body ?? null, result: operation.result ?? null };
}

/** The operation's checker, or a promise of it on the first call. */
export function checker(operation: Operation): Checker | Promise<Checker> {
  const found = loadedChecker(operation);
  if (found) return found;
  // Concurrent first calls share one load.
  const key = operation.schemas ?? operation;
  let pending = loading.get(key);
  if (!pending) {
    pending = loadChecker(operation).finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

async function loadZod(operation: Operation): Promise<ZodChecks> {
  const { schemas } = operation;
  const [resolved, module] = await Promise.all([
    schemas ? schemas() : inline(operation),
    validators ?? loadValidators(),
  ]);
  return { schemas: resolved, validators: module };
}

/** A split-off chunk failed to load. */
function loadFailure(operation: Operation, cause: unknown, what: string): ShopError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new ShopError(`Could not load the schemas of ${operation.id}, ${what}: ${why}`, { cause });
}

async function loadChecker(operation: Operation): Promise<Checker> {
  const { schemas, guards } = operation;
  let found: Checker;
  try {
    const group = schemas && guards ? await guards() : undefined;
    const own = group && Object.hasOwn(group, operation.id) ? group[operation.id] : undefined;
    found = own ? { guards: own } : { zod: await loadZod(operation) };
  } catch (cause) {
    throw loadFailure(operation, cause, 'nothing was sent');
  }
  loaded.set(schemas ?? operation, found);
  return found;
}

/** The zod side of a checker, loaded on a guard's refusal. */
function zodChecks(operation: Operation, checker: Checker, what: string): MaybePromise<ZodChecks> {
  if (checker.zod) return checker.zod;
  let pending = describing.get(checker);
  if (!pending) {
    pending = loadZod(operation)
      .then((found) => {
        checker.zod = found;
        return found;
      })
      .finally(() => describing.delete(checker));
    describing.set(checker, pending);
  }
  return pending.catch((cause: unknown) => {
    throw loadFailure(operation, cause, what);
  });
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

function zodParams(operation: Operation, { schemas, validators }: ZodChecks, params: RequestParams): void {
  const { query, body } = schemas;
  if (!query && !body) return;
  const details: Record<string, string[]> = {};
  collect(validators.validate, query, params.query, 'query', details);
  collect(validators.validate, body, params.body, 'body', details);
  if (Object.keys(details).length > 0) throw new ParamsValidationError(details, operation.id);
}

/** Refuses a query or body that breaks its schema; async only on a refusal. */
export function checkParams(
  operation: Operation,
  checker: Checker,
  params: RequestParams,
): MaybePromise<void> {
  const { guards } = checker;
  if (guards) {
    const { query, body } = guards;
    if ((query === null || query(params.query ?? {})) && (body === null || body(params.body ?? {}))) return;
    const zod = zodChecks(operation, checker, 'nothing was sent');
    if (zod instanceof Promise) return zod.then((found) => zodParams(operation, found, params));
    return zodParams(operation, zod, params);
  }
  return zodParams(operation, checker.zod!, params);
}

/** `data` is an array and every item passes `item` (null: any). */
export function everyItem(item: Guard | null, data: unknown): boolean {
  if (!Array.isArray(data)) return false;
  if (item === null) return true;
  for (let i = 0; i < data.length; i++) if (!item(data[i])) return false;
  return true;
}

function zodResult({ schemas, validators }: ZodChecks, data: unknown, list: boolean): CheckResult<unknown> {
  const told = schemas.resultIsInput === true;
  return list
    ? validators.checkList(schemas.result, data, told)
    : validators.check(schemas.result, data, told);
}

/** Checks an answer's `data` (each item when `list`). */
export function checkResult(
  operation: Operation,
  checker: Checker,
  data: unknown,
  list: boolean,
): MaybePromise<CheckResult<unknown>> {
  const { guards } = checker;
  if (guards) {
    const { result } = guards;
    if (list ? everyItem(result, data) : result === null || result(data)) return { ok: true, value: data };
    const zod = zodChecks(operation, checker, 'to describe an answer that broke its schema');
    if (zod instanceof Promise) return zod.then((found) => zodResult(found, data, list));
    return zodResult(zod, data, list);
  }
  return zodResult(checker.zod!, data, list);
}
