import type { ParamsNames } from './emit-params.js';
import { GENERATED_HEADER, type ImportPaths } from './emit-schemas.js';
import { groupFile, groupOf } from './groups.js';
import type { OperationModel } from './model.js';
import { jsDoc, literal, quote } from './names.js';

/** The files of the endpoint table: the table itself and the schemas it loads lazily, per resource group. */
export interface EmittedOperations {
  /**
   * endpoints.ts: what the transport needs of every endpoint (method, path, its params' names, pagination),
   * with a loader of its schemas. No zod, no schema, no prose: the table resource methods send through.
   */
  readonly endpoints: string;
  /** operations.ts: `endpoints` with what the reference says of each (permission, errors, ...), for tools. */
  readonly table: string;
  /** operation-schemas.ts: every group's schemas gathered in one map (for tests and tools, not the table). */
  readonly schemas: string;
  /** `operation-schemas.<group>.ts` -> source: one group's query, body and result schemas. */
  readonly parts: ReadonlyMap<string, string>;
}

/**
 * Whether `op`'s result schema leaves every value that passes it as it is, so the transport may check an
 * answer without building a copy (`OperationSchemas.resultIsInput`): the fact the hot path needs about a
 * schema, told here rather than read out of zod's internals at run time. Every result the generator emits
 * is: response schemas are built in the zod emitter's `output` mode, which emits no transform, default or
 * coercion (loose objects keep unknown keys), and `z.unknown()`, `z.array()` and `z.partial()` around them
 * change nothing either. A result form that could change a value must answer false here.
 */
function resultIsInput(op: OperationModel): boolean {
  switch (op.result.kind) {
    case 'unknown':
    case 'schema':
    case 'array':
      return true;
  }
}

/**
 * operations.ts: the endpoint table, data rather than code (as Octokit's endpoints are). Each entry
 * satisfies `Operation`; its `schemas` is a loader of its entry in its resource group's
 * operation-schemas.<group>.ts, a module the table imports with `import()` so that zod and the schemas stay
 * out of an application's first bundle, and a first call loads its own group's schemas only. The loader
 * keeps the entry's precise schema types, so `shop.request(op, ...)` infers the result from the table alone.
 */
export function emitOperations(
  operations: readonly OperationModel[],
  params: ReadonlyMap<string, ParamsNames>,
  paths: ImportPaths,
  /** Each record schema's module, `./schemas.<part>.js` (emitSchemas). */
  moduleOf: ReadonlyMap<string, string>,
): EmittedOperations {
  const groups = new Map<
    string,
    { entries: string; usesZ: boolean; paramImports: Set<string>; schemaImports: Map<string, Set<string>> }
  >();
  let entries = '';
  let facts = '';

  for (const op of operations) {
    const group = groupOf(op.id);
    const part = groups.get(group) ?? {
      entries: '',
      usesZ: false,
      paramImports: new Set<string>(),
      schemaImports: new Map<string, Set<string>>(),
    };
    groups.set(group, part);
    const names = params.get(op.id) ?? { query: null, body: null };
    if (names.query) part.paramImports.add(names.query);
    if (names.body) part.paramImports.add(names.body);
    const queryRequired = op.query.some((p) => p.required);
    let result: string;
    if (op.result.kind === 'unknown') {
      part.usesZ = true;
      result = 'z.unknown()';
    } else {
      const module = moduleOf.get(op.result.name);
      if (!module) throw new Error(`${op.id}: its result ${op.result.name} is not a generated schema`);
      const imported = part.schemaImports.get(module) ?? new Set<string>();
      imported.add(`${op.result.name}Schema`);
      part.schemaImports.set(module, imported);
      if (op.result.kind === 'array') part.usesZ = true;
      result = op.result.kind === 'array' ? `z.array(${op.result.name}Schema)` : `${op.result.name}Schema`;
      if (op.result.kind === 'schema' && op.result.partial) {
        part.usesZ = true;
        result = `z.partial(${result})`;
      }
    }
    if (names.query && !queryRequired) part.usesZ = true;
    if (names.body && !op.bodyRequired) part.usesZ = true;
    const pathParams = op.pathParams
      .map((p) => `{ name: ${quote(p.name)}, type: ${quote(p.type)} }`)
      .join(', ');
    entries += `${quote(op.id)}: {
      method: ${quote(op.method)},
      path: ${quote(op.path)},
      pathParams: [${pathParams}],
      /** Loads its query, body and result schemas (with zod), once: on the first call of its group. */
      schemas: lazy(${loaderName(group)}, ${quote(op.id)}),
      /** Loads its group's guards (plain functions, no zod), once: on the first call of its group. */
      guards: ${guardsLoaderName(group)},
      pagination: ${op.pagination ? quote(op.pagination) : 'null'},
    },\n`;
    facts += jsDoc(operationDoc(op));
    facts += `${quote(op.id)}: {
      successStatus: ${op.successStatus},
      permission: ${op.permission === null ? 'null' : quote(op.permission)},
      idempotency: ${op.idempotency ? quote(op.idempotency) : 'null'},
      errorCodes: [${op.errorCodes.map(quote).join(', ')}],
      undocumented: ${op.undocumented},
      summary: ${literal(op.summary)},
    },\n`;
    part.entries += `${quote(op.id)}: {
      query: ${optionalUnless(names.query, queryRequired)},
      body: ${optionalUnless(names.body, op.bodyRequired)},
      result: ${result},
      resultIsInput: ${resultIsInput(op)},
    },\n`;
  }

  const parts = new Map<string, string>();
  for (const [group, part] of groups) {
    let imports = part.usesZ ? "import * as z from 'zod/mini';\n" : '';
    imports += `import type { OperationSchemas } from '${paths.operation}';\n`;
    if (part.paramImports.size > 0)
      imports += `import { ${[...part.paramImports].sort().join(', ')} } from './params.${groupFile(group)}.js';\n`;
    for (const [module, names] of [...part.schemaImports].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      imports += `import { ${[...names].sort().join(', ')} } from '${module}';\n`;
    parts.set(
      `operation-schemas.${groupFile(group)}.ts`,
      `${GENERATED_HEADER}${imports}
${jsDoc([
  `The schemas of the \`${group}\` endpoints of operations.ts, keyed by operationId: \`query\` and \`body\``,
  '(checked before sending; they accept `undefined` where the spec makes that part optional) and `result` (the',
  "envelope's `data`; for a cursor list, one item). The table loads this module with `import()` on the first",
  'call of one of these endpoints.',
])}export const GROUP_SCHEMAS = {
${part.entries}} as const satisfies Record<string, OperationSchemas>;
`,
    );
  }

  const groupNames = [...groups.keys()];
  const schemas = `${GENERATED_HEADER}${groupNames
    .map(
      (group) =>
        `import { GROUP_SCHEMAS as ${loaderName(group)} } from './operation-schemas.${groupFile(group)}.js';\n`,
    )
    .join('')}
${jsDoc([
  'The schemas of every endpoint of operations.ts, keyed by operationId, gathered from the modules of each',
  'resource group (operation-schemas.<group>.ts), which the table loads one by one with `import()`.',
])}export const OPERATION_SCHEMAS = {
${groupNames.map((group) => `...${loaderName(group)},\n`).join('')}} as const;
`;

  const endpoints = `${GENERATED_HEADER}import { type Operation, type OperationGuards, type OperationSchemas, withIds } from '${paths.operation}';

${groupNames
  .map(
    (group) =>
      `const ${loaderName(group)} = () => import('./operation-schemas.${groupFile(group)}.js');\n` +
      `const ${guardsLoaderName(group)} = () => import('./operation-guards.${groupFile(group)}.js').then(guardsOf);\n`,
  )
  .join('')}
${jsDoc([
  "A loader of one endpoint's schemas from its group's operation-schemas.<group>.ts, which the bundler puts",
  'in a chunk of its own (with zod). The transport calls it once per operation and caches what it resolves to.',
])}const lazy =
  <Schemas extends Record<string, OperationSchemas>, Id extends keyof Schemas>(
    load: () => Promise<{ readonly GROUP_SCHEMAS: Schemas }>,
    id: Id,
  ) =>
  (): Promise<Schemas[Id]> =>
    load().then((module) => module.GROUP_SCHEMAS[id]);

${jsDoc([
  "Each entry's `guards` loads its group's operation-guards.<group>.ts (a chunk of its own, no zod), the guards",
  'of every endpoint of the group by operationId: what a call checks its params and answer with; the schemas',
  'load only when a guard refuses, to describe why. One loader per group, shared by its entries.',
])}const guardsOf = (module: {
  readonly GROUP_GUARDS: Readonly<Record<string, OperationGuards>>;
}): Readonly<Record<string, OperationGuards>> => module.GROUP_GUARDS;

${jsDoc([
  'Every endpoint of the API, keyed by operationId (the SDK method path): what the transport needs to send',
  'it. Resources pass an entry to the transport, which builds the request, checks params and validates the',
  'result from the entry alone (its schemas loaded on the first call of its group). What the reference says',
  'of each endpoint besides (permission, errors, summary) is in operations.ts.',
])}export const endpoints = withIds({
${entries}} as const satisfies Record<string, Omit<Operation, 'id'>>);
`;

  const table = `${GENERATED_HEADER}import { type OperationFacts, withFacts } from '${paths.operation}';
import { endpoints } from './endpoints.js';

${jsDoc([
  'Every endpoint of the API, keyed by operationId (the SDK method path): its entry of endpoints.ts, which',
  '`shop.request(operations[id], ...)` sends, with what the reference says of it (permission, success',
  'status, idempotency, error codes, summary), for tools, the sandbox and the docs. A bundle that never reads',
  'it leaves it out.',
])}export const operations = /* @__PURE__ */ withFacts(endpoints, {
${facts}} as const satisfies Record<keyof typeof endpoints, OperationFacts>);

${jsDoc(['The operationId of any endpoint, e.g. `range.reservations.create`.'])}export type OperationId = keyof typeof operations;
`;
  return { endpoints, table, schemas, parts };
}

/** The identifier of a group's guards loader in endpoints.ts: `range` -> `rangeGuards`. */
function guardsLoaderName(group: string): string {
  return `${group}Guards`;
}

/** The identifier of a group's loader and of its schemas in operation-schemas.ts: `range` -> `rangeGroup`. */
function loaderName(group: string): string {
  return `${group}Group`;
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
