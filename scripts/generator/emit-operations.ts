import type { ParamsNames } from './emit-params.js';
import { GENERATED_HEADER, type ImportPaths } from './emit-schemas.js';
import type { OperationModel } from './model.js';
import { jsDoc, literal, quote } from './names.js';

/** The two files of the endpoint table: the table itself and the schemas it loads lazily. */
export interface EmittedOperations {
  /** operations.ts: every endpoint's metadata, with a loader of its schemas. No zod, no schema. */
  readonly table: string;
  /** operation-schemas.ts: every endpoint's query, body and result schemas, loaded on the first call. */
  readonly schemas: string;
}

/**
 * operations.ts: the endpoint table, data rather than code (as Octokit's endpoints are). Each entry
 * satisfies `Operation`; its `schemas` is a loader of its entry in operation-schemas.ts, a module the entry
 * imports with `import()` so that zod and the schemas stay out of an application's first bundle. The loader
 * keeps the entry's precise schema types, so `shop.request(op, ...)` infers the result from the table alone.
 */
export function emitOperations(
  operations: readonly OperationModel[],
  params: ReadonlyMap<string, ParamsNames>,
  paths: ImportPaths,
): EmittedOperations {
  const schemaImports = new Set<string>();
  const paramImports = new Set<string>();
  let usesZ = false;
  let entries = '';
  let schemaEntries = '';

  for (const op of operations) {
    const names = params.get(op.id) ?? { query: null, body: null };
    if (names.query) paramImports.add(names.query);
    if (names.body) paramImports.add(names.body);
    const queryRequired = op.query.some((p) => p.required);
    let result: string;
    if (op.result.kind === 'unknown') {
      usesZ = true;
      result = 'z.unknown()';
    } else {
      schemaImports.add(`${op.result.name}Schema`);
      if (op.result.kind === 'array') usesZ = true;
      result = op.result.kind === 'array' ? `z.array(${op.result.name}Schema)` : `${op.result.name}Schema`;
      if (op.result.kind === 'schema' && op.result.partial) {
        usesZ = true;
        result = `z.partial(${result})`;
      }
    }
    if (names.query && !queryRequired) usesZ = true;
    if (names.body && !op.bodyRequired) usesZ = true;
    const pathParams = op.pathParams
      .map((p) => `{ name: ${quote(p.name)}, type: ${quote(p.type)} }`)
      .join(', ');
    entries += jsDoc(operationDoc(op));
    entries += `${quote(op.id)}: {
      id: ${quote(op.id)},
      method: ${quote(op.method)},
      path: ${quote(op.path)},
      pathParams: [${pathParams}],
      /** Loads its query, body and result schemas (with zod), once: on the first call. */
      schemas: lazy(${quote(op.id)}),
      pagination: ${op.pagination ? quote(op.pagination) : 'null'},
      successStatus: ${op.successStatus},
      permission: ${op.permission === null ? 'null' : quote(op.permission)},
      idempotency: ${op.idempotency ? quote(op.idempotency) : 'null'},
      errorCodes: [${op.errorCodes.map(quote).join(', ')}],
      undocumented: ${op.undocumented},
      summary: ${literal(op.summary)},
    },\n`;
    schemaEntries += `${quote(op.id)}: {
      query: ${optionalUnless(names.query, queryRequired)},
      body: ${optionalUnless(names.body, op.bodyRequired)},
      result: ${result},
    },\n`;
  }

  let imports = usesZ ? "import * as z from 'zod/mini';\n" : '';
  imports += `import type { OperationSchemas } from '${paths.operation}';\n`;
  if (paramImports.size > 0)
    imports += `import { ${[...paramImports].sort().join(', ')} } from './params.js';\n`;
  if (schemaImports.size > 0)
    imports += `import { ${[...schemaImports].sort().join(', ')} } from './schemas.js';\n`;

  const schemas = `${GENERATED_HEADER}${imports}
${jsDoc([
  'The schemas of every endpoint of operations.ts, keyed by operationId: `query` and `body` (checked before',
  "sending; they accept `undefined` where the spec makes that part optional) and `result` (the envelope's",
  '`data`; for a cursor list, one item). The table loads this module with `import()` on the first call.',
])}export const OPERATION_SCHEMAS = {
${schemaEntries}} as const satisfies Record<string, OperationSchemas>;
`;

  const table = `${GENERATED_HEADER}import type { Operation } from '${paths.operation}';
import type { OPERATION_SCHEMAS } from './operation-schemas.js';

type Schemas = typeof OPERATION_SCHEMAS;

${jsDoc([
  "A loader of one endpoint's schemas from operation-schemas.ts, which the bundler puts in a chunk of its",
  'own (with zod). The transport calls it once per operation and caches what it resolves to.',
])}const lazy =
  <Id extends keyof Schemas>(id: Id) =>
  (): Promise<Schemas[Id]> =>
    import('./operation-schemas.js').then((module) => module.OPERATION_SCHEMAS[id]);

${jsDoc([
  'Every endpoint of the API, keyed by operationId (the SDK method path). Resources pass an entry to the',
  'transport, which builds the request, checks params and validates the result from the entry alone (its',
  'schemas loaded on the first call).',
])}export const operations = {
${entries}} as const satisfies Record<string, Operation>;

${jsDoc(['The operationId of any endpoint, e.g. `range.reservations.create`.'])}export type OperationId = keyof typeof operations;
`;
  return { table, schemas };
}

/** A params schema as the table holds it: `z.optional()` unless the spec requires that part. */
function optionalUnless(name: string | null, required: boolean): string {
  if (name === null) return 'null';
  return required ? name : `z.optional(${name})`;
}

/** The JSDoc of one table entry: summary, description, then what a caller must hold and may meet. */
function operationDoc(op: OperationModel): string[] {
  const lines = [
    op.summary ? `${op.summary}${/[.!?]$/.test(op.summary) ? '' : '.'}` : `${op.method} ${op.path}`,
  ];
  if (op.description) lines.push('', op.description);
  lines.push('', `\`${op.method} ${op.path}\``);
  const inferred = ' (inferred, not stated by the reference)';
  lines.push(
    `Permission: ${op.permission ? `\`${op.permission}\`` : 'none'}${op.inferred.includes('permission') ? inferred : ''}.`,
  );
  if (op.inferred.includes('status')) lines.push(`Success: HTTP ${op.successStatus}${inferred}.`);
  if (op.idempotency === 'required') lines.push('Idempotency-Key: required (a balance move).');
  if (op.pagination) lines.push('Cursor-paginated; its `result` schema is of one item.');
  if (op.errorCodes.length > 0) lines.push(`Errors: ${op.errorCodes.map((c) => `\`${c}\``).join(', ')}.`);
  if (op.undocumented)
    lines.push('Part of the request or response shape is not documented by the reference.');
  return lines;
}
