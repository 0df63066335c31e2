// What the per-operation test tables read from the spec for an operation that has no hand-written row: its
// method, path and path parameters, the call of its `x-codeSamples` example, and the record its answer
// carries. test/resources/operation-table.ts and test/e2e/support/sweep.ts add a row built from these for
// each such operation, so a new endpoint is covered by its spec entry alone.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

type Node = Record<string, unknown>;

/** One operation as the spec states it, with its example call's arguments. */
export interface SpecOperation {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path template, `/v1/coupons/{id}`. */
  readonly path: string;
  /** The path parameters, in the order of the template (and of the method's leading arguments). */
  readonly pathParams: readonly string[];
  /** The `x-codeSamples` TypeScript example's source (read by `exampleArguments` when a row is derived). */
  readonly example: string;
  /** The `components/schemas` name of the record the answer's `data` holds (a list's item), or null. */
  readonly record: string | null;
}

const SPEC = new URL('../../spec/openapi.yaml', import.meta.url);
const METHODS = ['get', 'post', 'patch', 'delete'] as const;

/** The text between the parenthesis after `shop.<id>` and its match. */
function callArguments(source: string, id: string): string {
  const start = source.indexOf(`shop.${id}(`);
  if (start < 0) throw new Error(`${id}: its x-codeSamples example does not call shop.${id}(...)`);
  let depth = 0;
  for (let i = start + `shop.${id}`.length; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return source.slice(start + `shop.${id}(`.length, i);
  }
  throw new Error(`${id}: unbalanced parentheses in its x-codeSamples example`);
}

/** The example's arguments as values. */
export interface Example {
  /** The path ids, in order. */
  readonly ids: readonly (number | string)[];
  /** The params argument (query or JSON body), or undefined when it passes none. */
  readonly params: Record<string, unknown> | undefined;
}

/**
 * The example's arguments as values: path ids, then a params object, then request options (ignored). Read
 * as a YAML flow sequence, so only literals qualify (`{ reason: 'Weather' }`, not `new Date()`); anything
 * else is refused naming the operation, and that operation then needs a hand-written row.
 */
export function exampleArguments({
  example: source,
  id,
  pathParams,
}: Pick<SpecOperation, 'example' | 'id' | 'pathParams'>): Example {
  const text = callArguments(source, id);
  // Left once strings and keys are taken out, a name (`lastSync`, `new Date()`) is not a literal.
  const bare = text
    .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''")
    .replace(/[A-Za-z_$][\w$]*\s*:/g, '');
  const names = (bare.match(/[A-Za-z_$][\w$]*/g) ?? []).filter(
    (name) => !['true', 'false', 'null'].includes(name),
  );
  const args = names.length === 0 ? (parse(`[${text}]`) as unknown[]) : null;
  const ids = args?.slice(0, pathParams.length) ?? [];
  const params = args?.[pathParams.length];
  const idsOk =
    ids.length === pathParams.length && ids.every((v) => typeof v === 'number' || typeof v === 'string');
  const paramsOk =
    params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params));
  if (!args || !idsOk || !paramsOk)
    throw new Error(`${id}: its example's arguments are not literals (${text}); write a hand-written row`);
  return { ids: ids as (number | string)[], params: params as Record<string, unknown> | undefined };
}

function recordOf(op: Node): string | null {
  const success = Object.entries(op.responses as Node).find(([status]) => /^2\d\d$/.test(status))?.[1] as
    | Node
    | undefined;
  const content = (success?.content as Node | undefined)?.['application/json'] as Node | undefined;
  const data = ((content?.schema as Node | undefined)?.properties as Node | undefined)?.data as
    | Node
    | undefined;
  const ref = (data?.items as Node | undefined)?.$ref ?? data?.$ref;
  return typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : null;
}

/** Every operation of a spec (spec/openapi.yaml unless another file is named), in the spec's order. */
export function specOperations(file: URL | string = SPEC): SpecOperation[] {
  const spec = parse(readFileSync(file, 'utf8')) as { paths: Record<string, Node> };
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => {
      const op = item[method] as Node;
      const id = String(op.operationId);
      const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const samples = (op['x-codeSamples'] ?? []) as { lang?: string; source?: string }[];
      const source = samples.find((sample) => sample.lang === 'TypeScript')?.source ?? '';
      return {
        id,
        method: method.toUpperCase() as SpecOperation['method'],
        path,
        pathParams,
        example: source,
        record: recordOf(op),
      };
    }),
  );
}

/** The path with the example's ids in place of its parameters. */
export function filledPath(op: SpecOperation, example: Example): string {
  return op.pathParams.reduce(
    (path, name, i) => path.replace(`{${name}}`, encodeURIComponent(String(example.ids[i]))),
    op.path,
  );
}
