import { GENERATED_HEADER, type ImportPaths } from './emit-schemas.js';
import { groupFile, groupOf } from './groups.js';
import type { OperationModel } from './model.js';
import { jsDoc } from './names.js';
import { deref, type OpenApiDocument, type SchemaObject } from './spec.js';
import { TypeEmitter } from './type-emitter.js';
import { flattenAllOf, type HelperName, ZodEmitter } from './zod-emitter.js';

/** The identifiers params.ts exports for one operation, as operations.ts refers to them. */
export interface ParamsNames {
  /** The schema of the query, e.g. `RangeReservationsListParamsSchema`, or null. */
  readonly query: string | null;
  readonly body: string | null;
}

/** params.ts (every group's file re-exported), the files per resource group, and each operation's names. */
export interface EmittedParams {
  readonly source: string;
  /** `params.<group>.ts` -> source. */
  readonly parts: ReadonlyMap<string, string>;
  readonly names: Map<string, ParamsNames>;
  /** params-index.ts: every params type by its name, for the test that holds each to its schema. */
  readonly index: string;
}

/**
 * params.ts: per operation with a query or a body, `<Op>ParamsSchema` (query and body merged, path
 * parameters left out) and `interface <Op>Params`, the fields it accepts, each under its doc comment. When an operation has both, the separate
 * `<Op>QuerySchema` and `<Op>BodySchema` are exported too, for the transport to check each part. They are
 * declared in `params.<group>.ts`, one file per resource group (see groups.ts), which params.ts re-exports.
 */
export function emitParams(
  doc: OpenApiDocument,
  operations: readonly OperationModel[],
  paths: ImportPaths,
  knownList: (values: readonly string[]) => string | undefined,
): EmittedParams {
  const names = new Map<string, ParamsNames>();
  const groups = new Map<string, { body: string; helpers: Set<HelperName>; lists: Set<string> }>();
  const declared: string[] = [];

  for (const op of operations) {
    const group = groupFile(groupOf(op.id));
    const part = groups.get(group) ?? { body: '', helpers: new Set<HelperName>(), lists: new Set<string>() };
    groups.set(group, part);
    const { helpers, lists } = part;
    let body = '';
    const emitter = new ZodEmitter(doc, { mode: 'input', closed: !op.undocumented, knownList });
    const query = op.query.length > 0 ? querySchema(doc, op) : undefined;
    const payload = op.body ? deref(doc, op.body) : undefined;
    const params = `${op.pascal}Params`;
    const summary = op.summary ? `: ${op.summary.replace(/[.]?$/, '.')}` : '.';
    const about = [`Parameters of \`${op.id}\` (${op.method} ${op.path})${summary}`];
    if (op.undocumented)
      about.push('', 'The reference leaves part of this shape open; other fields are passed through.');
    else about.push('', 'A field not listed here is refused before sending (`ParamsValidationError`).');

    const types = new TypeEmitter(doc, emitter, { mode: 'input', closed: !op.undocumented });
    // The interface is what an editor shows; `satisfies` makes what the schema accepts fit it.
    const typed = `satisfies z.ZodMiniType<unknown, ${params}>`;
    if (query && payload) {
      const merged = mergeObjects(doc, query, payload, op.id);
      body += `\n${jsDoc([`Query of \`${op.id}\`.`])}export const ${op.pascal}QuerySchema = ${emitter.expr(query, [params])};\n`;
      body += `\n${jsDoc([`JSON body of \`${op.id}\`.`])}export const ${op.pascal}BodySchema = ${emitter.expr(payload, [params])};\n`;
      body += `\n${types.declaration(params, merged, jsDoc(about))}`;
      body += `${jsDoc(about)}export const ${params}Schema = ${emitter.expr(merged, [params])} ${typed};\n`;
      names.set(op.id, { query: `${op.pascal}QuerySchema`, body: `${op.pascal}BodySchema` });
    } else if (query || payload) {
      body += `\n${types.declaration(params, (query ?? payload)!, jsDoc(about))}`;
      body += `${jsDoc(about)}export const ${params}Schema = ${emitter.expr((query ?? payload)!, [params])} ${typed};\n`;
      names.set(op.id, { query: query ? `${params}Schema` : null, body: payload ? `${params}Schema` : null });
    } else {
      names.set(op.id, { query: null, body: null });
      continue;
    }
    declared.push(params);
    part.body += body;
    for (const helper of emitter.helpers) helpers.add(helper);
    for (const list of emitter.lists) lists.add(list);
  }

  const parts = new Map<string, string>();
  for (const [group, { body, helpers, lists }] of groups) {
    if (body === '') continue;
    let imports = "import * as z from 'zod/mini';\n";
    const fromHelpers = (['dateTimeInput', 'openEnum', 'requestEnum'] as const).filter((h) => helpers.has(h));
    if (fromHelpers.length > 0) imports += `import { ${fromHelpers.join(', ')} } from '${paths.helpers}';\n`;
    if (lists.size > 0) imports += `import type { ${[...lists].sort().join(', ')} } from './enums.js';\n`;
    if (helpers.has('ERROR_CODES')) imports += "import { ERROR_CODES } from './error-codes.js';\n";
    parts.set(`params.${group}.ts`, `${GENERATED_HEADER}${imports}${body}`);
  }
  const barrel = [...parts.keys()]
    .sort()
    .map((file) => `export * from './${file.replace(/\.ts$/, '.js')}';\n`)
    .join('');
  const source = `${GENERATED_HEADER}${jsDoc([
    "Every operation's parameter types and schemas, declared per resource group in the files re-exported here.",
  ])}${barrel}`;
  const entries = declared.map((name) => `  ${name}: P.${name};\n`).join('');
  const index = `${GENERATED_HEADER}import type * as P from './params.js';\n\n${jsDoc([
    'Every params type of params.ts by its name, so test/types/params.test.ts holds each to its `<Name>Schema`',
    'without a list of its own. Imported by no entry: not part of the package.',
  ])}export interface ParamsTypes {\n${entries}}\n`;
  return { source, parts, names, index };
}

/** The query parameters as one object schema, each parameter's description carried onto its field. */
export function querySchema(doc: OpenApiDocument, op: OperationModel): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  for (const param of op.query) {
    const schema = deref(doc, param.schema ?? {});
    properties[param.name] = { ...schema, description: param.description ?? schema.description };
    if (param.required) required.push(param.name);
  }
  return { type: 'object', properties, required };
}

function mergeObjects(
  doc: OpenApiDocument,
  query: SchemaObject,
  body: SchemaObject,
  id: string,
): SchemaObject {
  const flat = body.allOf ? flattenAllOf(doc, body) : body;
  if (!flat.properties || flat.oneOf || flat.anyOf) {
    throw new Error(`${id}: a query together with a body that is not a plain object is not supported`);
  }
  for (const name of Object.keys(flat.properties)) {
    if (name in query.properties!)
      throw new Error(`${id}: ${name} is both a query parameter and a body field`);
  }
  return {
    type: 'object',
    properties: { ...query.properties, ...flat.properties },
    required: [...(query.required ?? []), ...(flat.required ?? [])],
  };
}
