import type { z } from '../../internal/schema-types.js';
import type { Operation, OperationSchemas } from '../api/operation.js';
import type { RequestParams } from '../api/params.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';
import { ShopError } from '../errors/shop-error.js';

// zod and the validators (validation.ts), and the generated operations' schemas, are loaded with `import()`
// on the first call instead of with the entry, so that an application's first bundle carries neither (the
// ESM build puts them in chunks of their own). Once loaded, everything here answers synchronously from a
// cache: a call after the first awaits nothing it did not await before. No Node-only API: the chunks are
// plain ES modules that Workers, Deno and Bun import as they import the entry. The checker a call loads
// checks its params here (`checkParams`) and then travels with the call to check its answer.

/** The validators of validation.ts, which import zod. */
export type Validators = typeof import('./validation.js');

/** What a call checks with: the operation's schemas and the validators. */
export interface Checker {
  readonly schemas: OperationSchemas;
  readonly validators: Validators;
}

let validators: Validators | undefined;
let loadingValidators: Promise<Validators> | undefined;
const loaded = new WeakMap<object, Checker>();
const loading = new WeakMap<object, Promise<Checker>>();

function loadValidators(): Promise<Validators> {
  loadingValidators ??= import('./validation.js').then(
    (module) => {
      validators = module;
      return module;
    },
    (error: unknown) => {
      loadingValidators = undefined; // a failed chunk load (a network blip in a browser) is tried again
      throw error;
    },
  );
  return loadingValidators;
}

/** The operation's checker if it is loaded (always after its first call), else undefined. */
export function loadedChecker(operation: Operation): Checker | undefined {
  const { schemas } = operation;
  if (schemas) return loaded.get(schemas);
  if (!validators) return undefined;
  let checker = loaded.get(operation);
  if (!checker) {
    checker = { schemas: inline(operation), validators };
    loaded.set(operation, checker);
  }
  return checker;
}

/** The schemas an operation holds itself (`defineOperation`, or one written by hand). */
function inline(operation: Operation): OperationSchemas {
  return { query: operation.query ?? null, body: operation.body ?? null, result: operation.result ?? null };
}

/** The operation's checker: synchronous once loaded, else a promise of it (the first call). */
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

async function loadChecker(operation: Operation): Promise<Checker> {
  const { schemas } = operation;
  let resolved: OperationSchemas;
  let module: Validators;
  try {
    [resolved, module] = await Promise.all([
      schemas ? schemas() : inline(operation),
      validators ?? loadValidators(),
    ]);
  } catch (cause) {
    // A chunk the bundler split off could not be loaded (a deploy removed it, the network failed): the call
    // is not sent, and the next call tries again.
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ShopError(`Could not load the schemas of ${operation.id}, nothing was sent: ${why}`, { cause });
  }
  const found: Checker = { schemas: resolved, validators: module };
  loaded.set(schemas ?? operation, found);
  return found;
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
