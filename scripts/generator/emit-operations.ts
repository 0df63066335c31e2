import type { ParamsNames } from './emit-params.js';
import { GENERATED_HEADER, type ImportPaths } from './emit-schemas.js';
import type { OperationModel } from './model.js';
import { jsDoc, literal, quote } from './names.js';

/**
 * operations.ts: the endpoint table, data rather than code (as Octokit's endpoints are). Each entry
 * satisfies `Operation` and keeps its precise result schema type, so `shop.request(op, ...)` infers the
 * result from the table alone.
 */
export function emitOperations(
  operations: readonly OperationModel[],
  params: ReadonlyMap<string, ParamsNames>,
  paths: ImportPaths,
): string {
  const schemaImports = new Set<string>();
  const paramImports = new Set<string>();
  let usesZ = false;
  let entries = '';

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
    }
    const pathParams = op.pathParams
      .map((p) => `{ name: ${quote(p.name)}, type: ${quote(p.type)} }`)
      .join(', ');
    entries += jsDoc(operationDoc(op));
    entries += `${quote(op.id)}: {
      id: ${quote(op.id)},
      method: ${quote(op.method)},
      path: ${quote(op.path)},
      pathParams: [${pathParams}],
      query: ${optionalUnless(names.query, queryRequired)},
      body: ${optionalUnless(names.body, op.bodyRequired)},
      result: ${result},
      pagination: ${op.pagination ? quote(op.pagination) : 'null'},
      successStatus: ${op.successStatus},
      permission: ${op.permission === null ? 'null' : quote(op.permission)},
      idempotency: ${op.idempotency ? quote(op.idempotency) : 'null'},
      errorCodes: [${op.errorCodes.map(quote).join(', ')}],
      undocumented: ${op.undocumented},
      summary: ${literal(op.summary)},
    },\n`;
  }

  let imports = usesZ ? "import * as z from 'zod/mini';\n" : '';
  imports += `import type { Operation } from '${paths.operation}';\n`;
  if (paramImports.size > 0)
    imports += `import { ${[...paramImports].sort().join(', ')} } from './params.js';\n`;
  if (schemaImports.size > 0)
    imports += `import { ${[...schemaImports].sort().join(', ')} } from './schemas.js';\n`;

  return `${GENERATED_HEADER}${imports}
${jsDoc([
  'Every endpoint of the API, keyed by operationId (the SDK method path). Resources pass an entry to the',
  'transport, which builds the request, checks params and validates the result from the entry alone.',
  '`query` and `body` accept `undefined` where the spec makes them optional.',
])}export const operations = {
${entries}} as const satisfies Record<string, Operation>;

${jsDoc(['The operationId of any endpoint, e.g. `range.reservations.create`.'])}export type OperationId = keyof typeof operations;
`;
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
  lines.push(`Permission: ${op.permission ? `\`${op.permission}\`` : 'none'}.`);
  if (op.idempotency === 'required') lines.push('Idempotency-Key: required (a balance move).');
  if (op.pagination) lines.push('Cursor-paginated; `result` is the schema of one item.');
  if (op.errorCodes.length > 0) lines.push(`Errors: ${op.errorCodes.map((c) => `\`${c}\``).join(', ')}.`);
  if (op.undocumented)
    lines.push('Part of the request or response shape is not documented by the reference.');
  return lines;
}
