import { querySchema } from './emit-params.js';
import { GENERATED_HEADER } from './emit-schemas.js';
import { groupFile, groupOf } from './groups.js';
import {
  ANY_FORM,
  applyGuard,
  callForm,
  type FormatName,
  GuardEmitter,
  guardName,
  isoPatterns,
} from './guard-emitter.js';
import type { NamedInlineSchema, OperationModel } from './model.js';
import { jsDoc } from './names.js';
import { deref, type OpenApiDocument, type SchemaObject } from './spec.js';
import { ERROR_CODE_COMPONENT, flattenAllOf } from './zod-emitter.js';

/** The guard files: the format checks, the record guards by part, and the operations' guards by group. */
export interface EmittedGuards {
  /** File name -> source. */
  readonly files: ReadonlyMap<string, string>;
}

const FORMATS_FILE = 'guard-formats';

/**
 * Plain-TypeScript guards (guard-emitter.ts), no zod: the hot path's checks. `guards.<part>.ts` holds one
 * `is<Record>` per record of `schemas.<part>.ts` (the same split, so a group's chunk stays small; the
 * records no call returns, schemas.other.ts, get none); `operation-guards.<group>.ts` holds each endpoint's
 * `query`, `body` and `result` guards beside what its operation-schemas.<group>.ts holds, and the table
 * loads it with `import()` on a group's first call. guard-formats.ts holds zod's ISO patterns, copied from
 * the zod the generator runs with, and the `Date` check of a date-time param.
 */
export function emitGuards(
  doc: OpenApiDocument,
  operations: readonly OperationModel[],
  inline: readonly NamedInlineSchema[],
  hasEvents: boolean,
  /** Each record schema's module, `./schemas.<part>.js` (emitSchemas). */
  moduleOf: ReadonlyMap<string, string>,
): EmittedGuards {
  const files = new Map<string, string>();
  const patterns = isoPatterns();
  files.set(
    `${FORMATS_FILE}.ts`,
    `${GENERATED_HEADER}
${jsDoc(["zod's pattern of `z.iso.datetime()` (UTC, trailing Z), copied from zod when generated."])}export const ISO_DATETIME = /${patterns.datetime.source}/;
${jsDoc(["zod's pattern of `z.iso.date()` (YYYY-MM-DD), copied from zod when generated."])}export const ISO_DATE = /${patterns.date.source}/;
${jsDoc(['A date-time param: any string (the server owns its format), or a valid `Date`.'])}export function isDateInput(v: unknown): boolean {
  return typeof v === 'string' || (v instanceof Date && !Number.isNaN(v.getTime()));
}
`,
  );

  const guardModule = (name: string) => {
    const module = moduleOf.get(name);
    if (!module) throw new Error(`guards: ${name} is not a generated schema`);
    return module.replace('./schemas.', './guards.');
  };
  const override = (path: readonly string[]) =>
    hasEvents && path.length === 2 && path[0] === 'Event' && path[1] === 'type'
      ? "typeof \u00abv\u00bb === 'string'"
      : undefined;

  // Record guards, by part.
  const records: [string, SchemaObject][] = [
    ...Object.entries(doc.components?.schemas ?? {}).filter(([name]) => name !== ERROR_CODE_COMPONENT),
    ...inline.map((item) => [item.name, item.schema] as [string, SchemaObject]),
  ];
  const parts = new Map<
    string,
    { body: string; formats: Set<FormatName>; imports: Map<string, Set<string>> }
  >();
  for (const [name, schema] of records) {
    const module = guardModule(name);
    if (module === './guards.other.js') continue;
    const part = parts.get(module) ?? { body: '', formats: new Set(), imports: new Map() };
    parts.set(module, part);
    const emitter = new GuardEmitter(doc, { mode: 'output', override }, `${name}_`);
    const form = emitter.expr(schema, [name]);
    part.body += `\n${recordFunctions(emitter, form, guardName(name), `\`${name}\`: what its zod schema (${name}Schema) accepts.`)}`;
    for (const format of emitter.formats) part.formats.add(format);
    for (const dep of emitter.refs) {
      const from = guardModule(dep);
      if (from === module) continue;
      part.imports.set(from, (part.imports.get(from) ?? new Set()).add(guardName(dep)));
    }
  }
  for (const [module, part] of parts) {
    files.set(
      module.slice(2).replace(/\.js$/, '.ts'),
      `${GENERATED_HEADER}${importsOf(part.formats, part.imports)}${part.body}`,
    );
  }

  // Operation guards, by group.
  const groups = new Map<
    string,
    { body: string; entries: string; formats: Set<FormatName>; imports: Map<string, Set<string>> }
  >();
  for (const op of operations) {
    const group = groupOf(op.id);
    const part = groups.get(group) ?? { body: '', entries: '', formats: new Set(), imports: new Map() };
    groups.set(group, part);
    const closed = !op.undocumented;
    const payload = op.body ? deref(doc, op.body) : undefined;
    const param = (schema: SchemaObject, role: 'Query' | 'Body', required: boolean): string => {
      const emitter = new GuardEmitter(doc, { mode: 'input', closed }, `${op.pascal}${role}_`);
      const form = emitter.expr(schema, [`${op.pascal}Params`]);
      for (const format of emitter.formats) part.formats.add(format);
      const name = guardName(op.pascal, role);
      const whole = required
        ? form
        : form === ANY_FORM
          ? ANY_FORM
          : `(\u00abv\u00bb === undefined || ${form})`;
      part.body += `\n${recordFunctions(emitter, whole, name, `The ${role.toLowerCase()} of \`${op.id}\`, as its params schema checks it.`, false)}`;
      return name;
    };
    const query =
      op.query.length > 0
        ? param(
            querySchema(doc, op),
            'Query',
            op.query.some((p) => p.required),
          )
        : null;
    const body = payload ? param(payload, 'Body', op.bodyRequired) : null;

    let result: string | null = null;
    if (op.result.kind !== 'unknown') {
      const item = guardName(op.result.name);
      const module = guardModule(op.result.name);
      if (op.result.kind === 'schema' && op.result.partial) {
        // z.partial(<Record>Schema): every field optional, each checked by the record's own forms.
        const schema = doc.components?.schemas?.[op.result.name];
        if (!schema) throw new Error(`${op.id}: partial result ${op.result.name} is not a component`);
        const flat = schema.allOf ? flattenAllOf(doc, schema) : schema;
        const emitter = new GuardEmitter(doc, { mode: 'output', override }, `${op.pascal}Result_`);
        const form = emitter.expr({ type: 'object', properties: flat.properties ?? {}, required: [] }, [
          op.result.name,
        ]);
        for (const format of emitter.formats) part.formats.add(format);
        for (const dep of emitter.refs) {
          const from = guardModule(dep);
          part.imports.set(from, (part.imports.get(from) ?? new Set()).add(guardName(dep)));
        }
        result = guardName(op.pascal, 'Result');
        part.body += `\n${recordFunctions(emitter, form, result, `\`${op.id}\`'s result: ${op.result.name} with every field optional.`, false)}`;
      } else {
        part.imports.set(module, (part.imports.get(module) ?? new Set()).add(item));
        if (op.result.kind === 'array') {
          result = guardName(op.pascal, 'Result');
          part.body += `\n${jsDoc([`\`${op.id}\`'s result: a list of ${op.result.name}.`])}function ${result}(v: unknown): boolean {
if (!Array.isArray(v)) return false;
for (let i = 0; i < v.length; i++) if (!${item}(v[i])) return false;
return true;
}\n`;
        } else {
          result = item;
        }
      }
    }
    part.entries += `${JSON.stringify(op.id).replace(/"/g, "'")}: { query: ${query ?? 'null'}, body: ${body ?? 'null'}, result: ${result ?? 'null'} },\n`;
  }
  for (const [group, part] of groups) {
    files.set(
      `operation-guards.${groupFile(group)}.ts`,
      `${GENERATED_HEADER}import type { OperationGuards } from '../core/api/operation.js';
${importsOf(part.formats, part.imports)}${part.body}
${jsDoc([
  `The guards of the \`${group}\` endpoints of operations.ts, keyed by operationId: plain functions, no zod,`,
  'each accepting exactly what the same entry of operation-schemas.' +
    groupFile(group) +
    '.ts accepts (`result`: the',
  "envelope's `data`; for a cursor list, one item; null: not checked). The table loads this module with",
  '`import()` on the first call of one of these endpoints; the zod schemas load only to describe a refusal.',
])}export const GROUP_GUARDS = {
${part.entries}} as const satisfies Record<string, OperationGuards>;
`,
    );
  }
  const names = [...groups.keys()];
  files.set(
    'operation-guards.ts',
    `${GENERATED_HEADER}${names
      .map(
        (group) =>
          `import { GROUP_GUARDS as ${group}Guards } from './operation-guards.${groupFile(group)}.js';\n`,
      )
      .join('')}
${jsDoc(["The guards of every endpoint of operations.ts, keyed by operationId, gathered from each group's module."])}export const OPERATION_GUARDS = {
${names.map((group) => `...${group}Guards,\n`).join('')}} as const;
`,
  );
  return { files };
}

/**
 * The declarations of one guard named `name`: the emitter's hoisted functions, the one `form` calls renamed
 * `name` (else a function of `name` returning `form`), exported when `exported`.
 */
function recordFunctions(
  emitter: GuardEmitter,
  form: string,
  name: string,
  doc: string,
  exported = true,
): string {
  const call = /^(\w+)\(\u00abv\u00bb\)$/.exec(form)?.[1];
  let out = '';
  const own = call !== undefined && emitter.functions.has(call) ? call : undefined;
  for (const [helper, code] of emitter.functions) {
    const renamed = own ? code.replace(new RegExp(`\\b${own}\\(`, 'g'), `${name}(`) : code;
    if (helper === own) out += `${jsDoc([doc])}${exported ? 'export ' : ''}${renamed}`;
    else out += renamed;
  }
  if (!own) {
    out += `${jsDoc([doc])}${exported ? 'export ' : ''}function ${name}(v: unknown): boolean {\nreturn ${applyGuard(form, 'v')};\n}\n`;
  } else if (form !== callForm(own)) {
    throw new Error(`guards: unexpected form for ${name}`);
  }
  return out;
}

function importsOf(
  formats: ReadonlySet<FormatName>,
  imports: ReadonlyMap<string, ReadonlySet<string>>,
): string {
  let out = '';
  if (formats.size > 0) out += `import { ${[...formats].sort().join(', ')} } from './${FORMATS_FILE}.js';\n`;
  for (const [module, names] of [...imports].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    out += `import { ${[...names].sort().join(', ')} } from '${module}';\n`;
  return out;
}
