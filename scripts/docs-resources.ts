/**
 * src/resources/ + src/generated/operations.ts -> docs/resources.md, the list of every SDK method with its
 * HTTP call, permission and errors. Read from the code, so the page cannot drift from it.
 *
 *   npx tsx scripts/docs-resources.ts          rewrite docs/resources.md
 *   npx tsx scripts/docs-resources.ts --check  exit 1 when docs/resources.md is stale
 *
 * The methods are generated from the spec (src/resources/README.md); test/resources/docs.test.ts uses the same
 * collector to map one method to each operation, and generated-docs.test.ts to read the generated comments.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import type { Operation } from '../src/core/operation.js';
import { operations } from '../src/generated/operations.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC_PATH = path.join(root, 'docs/resources.md');

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

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

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

/** Every method of every resource class that calls an operation, in file order. */
export function collectResourceMethods(dir = path.join(root, 'src/resources')): ResourceMethod[] {
  const methods: ResourceMethod[] = [];
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      for (const member of statement.members) {
        if (!ts.isMethodDeclaration(member) || !member.body) continue;
        const operationId = /operations\['([^']+)'\]/.exec(member.body.getText(source))?.[1];
        if (!operationId) continue;
        methods.push({
          operationId,
          file: path.relative(root, file),
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

function groupOf(operationId: string): string {
  return `shop.${operationId.split('.').slice(0, -1).join('.')}`;
}

function notes(op: Operation): string {
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

/** The markdown of docs/resources.md. */
export function renderResourcesDoc(methods = collectResourceMethods()): string {
  const byId = new Map(methods.map((method) => [method.operationId, method]));
  const groups = new Map<string, string[][]>();
  for (const id of Object.keys(operations)) {
    const rows = groups.get(groupOf(id)) ?? [];
    groups.set(groupOf(id), rows);
    const op: Operation = operations[id as keyof typeof operations];
    const method = byId.get(id);
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
    '<!-- Generated by scripts/docs-resources.ts from src/resources/ and src/generated/operations.ts. Do not edit. -->',
    '',
    `Every endpoint of the API (${Object.keys(operations).length} in all) is one method. Each method also takes`,
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

function main(): number {
  const rendered = renderResourcesDoc();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(DOC_PATH, 'utf8');
    } catch {}
    if (current === rendered) return 0;
    console.error('docs/resources.md is stale: run `npx tsx scripts/docs-resources.ts`');
    return 1;
  }
  writeFileSync(DOC_PATH, rendered);
  console.log(`wrote ${path.relative(process.cwd(), DOC_PATH)}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();
