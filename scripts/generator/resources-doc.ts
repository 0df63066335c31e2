/**
 * docs/resources.md, the list of every SDK method with its HTTP call, permission and errors, rendered by
 * `npm run generate` from the resource classes it has just emitted and the operation model, so the page cannot
 * drift from the code (`npm run generate:check` covers it). test/resources/docs.test.ts and
 * generated-docs.test.ts read src/resources/ with the same collector.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One resource method as written in src/resources/. */
export interface ResourceMethod {
  readonly operationId: string;
  /** The file, relative to the repository root. */
  readonly file: string;
  readonly className: string;
  readonly name: string;
  /** Each parameter as written, e.g. `id: number`. */
  readonly parameters: readonly string[];
  readonly returnType: string;
  /** The doc comment's text without the comment markers. */
  readonly doc: string;
  /** The doc comment of the method's class. */
  readonly classDoc: string;
  /** Statements in the method body (a thin method has one: its return). */
  readonly statements: number;
}

/** What the page shows of an operation (the generator's model and the runtime table both have it). */
export interface DocOperation {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly summary: string;
  readonly permission: string | null;
  readonly errorCodes: readonly string[];
  readonly pagination: 'cursor' | null;
  readonly idempotency: 'required' | 'optional' | null;
  readonly undocumented: boolean;
}

export const RESOURCES_DOC = 'docs/resources.md';

function docOf(node: ts.Node, text: string): string {
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  const last = ranges.filter((range) => text.startsWith('/**', range.pos)).at(-1);
  if (!last) return '';
  return text
    .slice(last.pos + 3, last.end - 2)
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

/** Every method of every resource class that calls an operation, in file order; `files`: path -> source. */
export function collectResourceMethods(files: ReadonlyMap<string, string>): ResourceMethod[] {
  const methods: ResourceMethod[] = [];
  for (const [file, text] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      for (const member of statement.members) {
        if (!ts.isMethodDeclaration(member) || !member.body) continue;
        const operationId = /endpoints\['([^']+)'\]/.exec(member.body.getText(source))?.[1];
        if (!operationId) continue;
        methods.push({
          operationId,
          file,
          className: statement.name.text,
          name: member.name.getText(source),
          parameters: member.parameters.map((parameter) => parameter.getText(source).replace(/\s+/g, ' ')),
          returnType: member.type?.getText(source) ?? '',
          doc: docOf(member, text),
          classDoc: docOf(statement, text),
          statements: member.body.statements.length,
        });
      }
    }
  }
  return methods;
}

/** The resource methods as src/resources/ holds them now (for tests). */
export function readResourceMethods(root: string): ResourceMethod[] {
  const dir = path.join(root, 'src/resources');
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.ts')) files.set(`src/resources/${name}`, readFileSync(path.join(dir, name), 'utf8'));
  }
  return collectResourceMethods(files);
}

function groupOf(operationId: string): string {
  return `shop.${operationId.split('.').slice(0, -1).join('.')}`;
}

function notes(op: DocOperation): string {
  const out: string[] = [];
  if (op.pagination === 'cursor') out.push('paginated');
  if (op.idempotency === 'required') out.push('balance move: Idempotency-Key always sent (required)');
  else if (op.idempotency === 'optional') out.push('Idempotency-Key always sent');
  if (op.undocumented) out.push('shape partly undocumented: loose types');
  return out.join('; ');
}

function cell(value: string): string {
  return value.replace(/\|/g, '\\|');
}

/** A markdown table with padded columns, as Biome formats it (so `biome check` passes on the page). */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, i) =>
    Math.max(title.length, 3, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((value, i) => value.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

/** The markdown of docs/resources.md: the operations in table order, each with its method. */
export function renderResourcesDoc(
  methods: readonly ResourceMethod[],
  operations: readonly DocOperation[],
): string {
  const byId = new Map(methods.map((method) => [method.operationId, method]));
  const groups = new Map<string, string[][]>();
  for (const op of operations) {
    const rows = groups.get(groupOf(op.id)) ?? [];
    groups.set(groupOf(op.id), rows);
    const method = byId.get(op.id);
    const parameters = (method?.parameters ?? []).filter((parameter) => !parameter.startsWith('options'));
    const signature = method ? `${method.name}(${parameters.join(', ')})` : '(missing)';
    const errors = op.errorCodes.map((code) => `\`${code}\``).join(' ');
    rows.push([
      `\`${cell(signature)}\``,
      op.summary,
      `\`${op.method} ${op.path}\``,
      op.permission ? `\`${op.permission}\`` : 'none',
      `\`${cell(method?.returnType ?? '')}\``,
      errors,
      notes(op),
    ]);
  }
  const lines = [
    '# Resource methods',
    '',
    '<!-- Generated by `npm run generate` (scripts/generator/resources-doc.ts) from the spec and the resource classes. Do not edit. -->',
    '',
    `Every endpoint of the API (${operations.length} in all) is one method. Each method also takes`,
    '`options?: RequestOptions` last (`idempotencyKey`, `timeout`, `maxRetries`, `signal`, `headers`). Path ids',
    'are integers, checked before sending; required parameters are checked before sending too, and a refusal is',
    'a `ParamsValidationError` (`code` `VALIDATION_ERROR`, `details` naming each field) with nothing sent.',
    'Params of documented endpoints are closed: a key the reference does not name (a misspelled filter) is',
    'refused the same way rather than sent and ignored; endpoints whose shape is not shown pass other fields on.',
    'For an endpoint newer than this SDK, `shop.get/post/patch/delete(path, { query, body })` goes through the',
    'same transport.',
    'Every POST carries an Idempotency-Key: yours, or a UUID generated for the call and reused on its retries.',
    'Paginated methods return a `PagePromise` (`await` for the first page, `for await` for every item).',
    'Permissions are the key permissions the reference names; errors are the section 7 codes it lists for the',
    'endpoint (any call can also fail with the authentication, plan and rate-limit codes).',
    '',
  ];
  for (const [group, rows] of groups) {
    const header = ['Method', 'What it does', 'HTTP', 'Permission', 'Returns', 'Errors', 'Notes'];
    lines.push(`## ${group}`, '', ...table(header, rows), '');
  }
  return lines.join('\n');
}
