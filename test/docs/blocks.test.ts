// Every fenced code block of README.md and docs/*.md, found anew on each run (a new page or block is
// picked up by itself), is checked by what its info string says (CONTRIBUTING.md, "Docs are tested"):
//   ```ts                  type-checked (strict, as test/tsconfig.json) and run against a fresh sandbox
//   ```ts typecheck-only   type-checked only: it needs a real shop, a framework, Redis or a receiver
//   ```sh                  every `shop-mgmt` command line parsed by the CLI's own strict check (no run)
//   ```sh synopsis         a usage line: every --flag must be one of the command's, and the reverse
//   ```sh run              run with bash; each `# ` line after a command is output it must print
//   ```json                parsed
//   `no-run` on any block  not checked (an install line, a shell session with placeholders)
// A block may use the names of test/docs/context.ts (`shop`, `sandbox`, ids that exist...) undeclared.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { checkArgs } from '../../src/cli/strict.js';
import { ShopClient } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { CONTEXT_NAMES, type DocContext, FACTORIES } from './context.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One fenced block of a page. */
interface DocBlock {
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly tags: readonly string[];
  readonly code: string;
}

const TAGS = new Set(['typecheck-only', 'no-run', 'synopsis', 'run']);

/** The fenced blocks of a markdown text (``` fences at the start of a line). */
function blocksOf(file: string, markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const fence = /^```([^\n`]*)\n([\s\S]*?)^```[ \t]*$/gm;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) {
    const [lang = '', ...tags] = match[1]!.trim().split(/\s+/).filter(Boolean);
    const line = markdown.slice(0, match.index).split('\n').length;
    blocks.push({ file, line, lang, tags, code: match[2]! });
  }
  return blocks;
}

const PAGES = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const BLOCKS = PAGES.flatMap((page) => blocksOf(page, readFileSync(`${ROOT}${page}`, 'utf8')));
const label = (block: DocBlock) => `${block.file}:${block.line} (${[block.lang, ...block.tags].join(' ')})`;
const checked = (block: DocBlock) => !block.tags.includes('no-run');
const TS_BLOCKS = BLOCKS.filter((block) => block.lang === 'ts' && checked(block));
const RUN_BLOCKS = TS_BLOCKS.filter((block) => !block.tags.includes('typecheck-only'));

// ---------------------------------------------------------------------------------------------------------
// TypeScript: the names a block declares at its top level, and the context names it uses without declaring.

/** Top-level names a block declares (imports, const/let, functions, classes). */
function declaredNames(code: string): Set<string> {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true);
  const names = new Set<string>();
  const bind = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations) bind(d.name);
    else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name)
      names.add(statement.name.text);
    else if (ts.isImportDeclaration(statement) && statement.importClause) {
      const clause = statement.importClause;
      if (clause.name) names.add(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
    }
  }
  return names;
}

/** Identifiers a block reads as names (not property names, not in comments or strings). */
function usedNames(code: string): Set<string> {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true);
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isPropertyName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isQualifiedName(parent) && parent.right === node);
      if (!isPropertyName) names.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The context names a block uses and does not declare itself. */
function contextNamesOf(block: DocBlock): (keyof DocContext)[] {
  const declared = declaredNames(block.code);
  const used = usedNames(block.code);
  return CONTEXT_NAMES.filter((name) => !declared.has(name) && used.has(name));
}

/** Where the type check finds the package's entry points: the sources (tsup.config.ts's entries). */
const ENTRY_SOURCES: Record<string, string> = {
  'shop-mgmt': 'src/index.ts',
  'shop-mgmt/webhooks': 'src/webhooks/index.ts',
  'shop-mgmt/webhooks/verify': 'src/webhooks/verify-only.ts',
  'shop-mgmt/webhooks/redis': 'src/webhooks/redis.ts',
  'shop-mgmt/redis': 'src/redis.ts',
  'shop-mgmt/schemas': 'src/schemas.ts',
  'shop-mgmt/testing': 'src/testing/index.ts',
  'shop-mgmt/testing/msw': 'src/testing/msw-entry.ts',
  'shop-mgmt/sync': 'src/sync/engine/index.ts',
  'shop-mgmt/inbox': 'src/sync/inbox/index.ts',
  'shop-mgmt/inbox/sqlite': 'src/sync/inbox/sqlite.ts',
  'shop-mgmt/inbox/postgres': 'src/sync/inbox/postgres.ts',
  'shop-mgmt/inbox/redis': 'src/sync/inbox/redis.ts',
};

/** The file a block is checked as (in examples/, so `./otel-tracing.js` is the example it names). */
const virtualPath = (block: DocBlock, index: number) =>
  `${ROOT}examples/__doc_${block.file.replace(/\W/g, '_')}_${block.line}_${index}.ts`;

/** The block, then declarations of the context names it uses (types only; hoisted, so lines stay put). */
function checkedSource(block: DocBlock): string {
  const declarations = contextNamesOf(block).map(
    (name) => `declare const ${name}: import('../test/docs/context.js').DocContext['${name}'];`,
  );
  return `${block.code}\nexport {};\n${declarations.join('\n')}\n`;
}

/** Type errors of every block, by block, in one program. */
function typeErrors(blocks: readonly DocBlock[]): Map<DocBlock, string[]> {
  const parsed = ts.getParsedCommandLineOfConfigFile(`${ROOT}test/tsconfig.json`, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  })!;
  const options: ts.CompilerOptions = {
    ...parsed.options,
    baseUrl: ROOT,
    paths: Object.fromEntries(Object.entries(ENTRY_SOURCES).map(([name, file]) => [name, [file]])),
  };
  const files = new Map(blocks.map((block, index) => [virtualPath(block, index), block]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.readFile = (name) => (files.has(name) ? checkedSource(files.get(name)!) : readFile(name));
  host.getSourceFile = (name, language, ...rest) =>
    files.has(name)
      ? ts.createSourceFile(name, checkedSource(files.get(name)!), language)
      : getSourceFile(name, language, ...rest);
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const result = new Map<DocBlock, string[]>();
  for (const [path, block] of files) {
    const file = program.getSourceFile(path)!;
    result.set(
      block,
      ts.getPreEmitDiagnostics(program, file).map((diagnostic) => {
        const where =
          diagnostic.file && diagnostic.start !== undefined
            ? `line ${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: `
            : '';
        return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      }),
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Running a block: its imports are the package's sources; `vitest` is a small runner of the block's own
// hooks and tests, run in order inside this test.

type Hook = () => unknown;
interface MiniSuite {
  beforeAll: Hook[];
  afterAll: Hook[];
  beforeEach: Hook[];
  afterEach: Hook[];
  tests: { name: string; fn: Hook }[];
}

function miniVitest(suite: MiniSuite) {
  const register = (list: Hook[]) => (fn: Hook) => {
    list.push(fn);
  };
  const test = (name: string, fn: Hook) => {
    suite.tests.push({ name, fn });
  };
  return {
    expect,
    vi,
    it: test,
    test,
    describe: (_name: string, body: () => void) => body(),
    beforeAll: register(suite.beforeAll),
    afterAll: register(suite.afterAll),
    beforeEach: register(suite.beforeEach),
    afterEach: register(suite.afterEach),
  };
}

async function runSuite(suite: MiniSuite): Promise<void> {
  try {
    for (const hook of suite.beforeAll) await hook();
    for (const test of suite.tests) {
      try {
        for (const hook of suite.beforeEach) await hook();
        await test.fn();
      } catch (error) {
        throw new Error(`the block's test "${test.name}" failed: ${(error as Error).message}`, {
          cause: error,
        });
      } finally {
        for (const hook of suite.afterEach) await hook();
      }
    }
  } finally {
    for (const hook of suite.afterAll) await hook();
  }
}

const MODULES: Record<string, () => Promise<unknown>> = {
  'shop-mgmt': () => import('../../src/index.js'),
  'shop-mgmt/webhooks': () => import('../../src/webhooks/index.js'),
  'shop-mgmt/webhooks/verify': () => import('../../src/webhooks/verify-only.js'),
  'shop-mgmt/webhooks/redis': () => import('../../src/webhooks/redis.js'),
  'shop-mgmt/redis': () => import('../../src/redis.js'),
  'shop-mgmt/schemas': () => import('../../src/schemas.js'),
  'shop-mgmt/testing': () => import('../../src/testing/index.js'),
  'shop-mgmt/testing/msw': () => import('../../src/testing/msw-entry.js'),
  'shop-mgmt/sync': () => import('../../src/sync/engine/index.js'),
  'shop-mgmt/inbox': () => import('../../src/sync/inbox/index.js'),
  'shop-mgmt/inbox/sqlite': () => import('../../src/sync/inbox/sqlite.js'),
  'msw/node': () => import('msw/node'),
};

async function runBlock(block: DocBlock): Promise<void> {
  const sandbox = createSandbox();
  const server = await sandbox.listen();
  const apiKey = sandbox.createKey();
  vi.stubEnv('SHOP_API_KEY', apiKey);
  vi.stubEnv('SHOP_API_BASE_URL', server.url);
  vi.stubEnv('SHOP_WEBHOOK_SECRET', 'whsec_docs_secret');
  const shop = new ShopClient({ apiKey, baseUrl: server.url, logLevel: 'off' });
  const suite: MiniSuite = { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [], tests: [] };
  const modules = new Map<string, unknown>([['vitest', miniVitest(suite)]]);
  const specifiers = [...block.code.matchAll(/^import[\s\S]*?from '([^']+)'/gm)].map((match) => match[1]!);
  for (const specifier of specifiers) {
    if (modules.has(specifier)) continue;
    const load = MODULES[specifier] ?? (specifier.startsWith('node:') ? () => import(specifier) : undefined);
    if (!load)
      throw new Error(`${label(block)} imports ${specifier}: map it in MODULES or mark it typecheck-only`);
    modules.set(specifier, await load());
  }
  const names = contextNamesOf(block);
  const values: Record<string, unknown> = { shop, sandbox };
  for (const name of names) {
    if (name in values) continue;
    const make = FACTORIES[name];
    if (!make) throw new Error(`${label(block)} uses ${name}, which has no value: mark it typecheck-only`);
    values[name] = await make({ sandbox, shop });
  }
  const { outputText } = ts.transpileModule(block.code, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  });
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const body = new AsyncFunction('require', 'exports', ...names, `{\n${outputText}\n}`);
  const require = (specifier: string) => {
    if (!modules.has(specifier)) throw new Error(`${label(block)}: require(${specifier}) not mapped`);
    return modules.get(specifier);
  };
  try {
    await body(require, {}, ...names.map((name) => values[name]));
    await runSuite(suite);
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------------------

describe('the doc blocks', () => {
  it('are found, and each has a language and only known tags', () => {
    expect(RUN_BLOCKS.length).toBeGreaterThan(20);
    for (const block of BLOCKS) {
      if (block.lang === '') continue; // output shown as text
      expect(['ts', 'sh', 'json', 'text'], label(block)).toContain(block.lang);
      for (const tag of block.tags) expect(TAGS.has(tag), `${label(block)}: unknown tag ${tag}`).toBe(true);
    }
  });

  let errors: Map<DocBlock, string[]>;
  beforeAll(() => {
    errors = typeErrors(TS_BLOCKS);
  }, 180_000);

  it('type-check, every ts block (strict, as test/tsconfig.json)', () => {
    const failures = TS_BLOCKS.filter((block) => errors.get(block)!.length > 0).map(
      (block) => `${label(block)}\n  ${errors.get(block)!.join('\n  ')}`,
    );
    expect(failures.join('\n')).toBe('');
  });

  describe('run against a fresh sandbox', () => {
    afterEach(() => {
      vi.unstubAllEnvs();
      vi.restoreAllMocks();
    });
    for (const block of RUN_BLOCKS) {
      it(label(block), async () => {
        vi.spyOn(console, 'log').mockImplementation(() => undefined);
        await runBlock(block);
      });
    }
  });

  describe('sh blocks', () => {
    const shBlocks = BLOCKS.filter((block) => block.lang === 'sh' && checked(block));
    for (const block of shBlocks) {
      it(label(block), () => {
        if (block.tags.includes('run')) return runShell(block);
        if (block.tags.includes('synopsis')) return checkSynopsis(block);
        const lines = commandLines(block.code);
        for (const argv of lines) {
          expect(
            () => checkArgs(COMMANDS, argv),
            `${label(block)}: shop-mgmt ${argv.join(' ')}`,
          ).not.toThrow();
        }
      });
    }
  });

  it('catch a block that stops working: a type error, a failing call, an unknown flag', async () => {
    const [typo, failing] = blocksOf(
      'synthetic.md',
      [
        '```ts',
        "await shop.range.reservations.list({ status: 'booked', limt: 5 });",
        '```',
        '```ts',
        'await shop.range.rentals.retrieve(77);',
        '```',
      ].join('\n'),
    );
    expect(typeErrors([typo!]).get(typo!)!.join('\n')).toMatch(/limt/);
    await expect(runBlock(failing!)).rejects.toMatchObject({ status: 404 });
    expect(() => checkArgs(COMMANDS, commandLines('npx shop-mgmt sandbox --prot 5000')[0]!)).toThrow(
      /--port/,
    );
  }, 60_000);

  it('json blocks parse', () => {
    for (const block of BLOCKS.filter((b) => b.lang === 'json' && checked(b))) {
      expect(() => JSON.parse(block.code), label(block)).not.toThrow();
    }
  });
});

/** The arguments of every `shop-mgmt ...` command in a shell text (comments and line continuations dropped). */
function commandLines(code: string): string[][] {
  const joined = code.replace(/\\\n/g, ' ');
  const lines: string[][] = [];
  for (const line of joined.split('\n')) {
    const command = line.replace(/\s#.*$/, '').trim();
    const match = /(?:^|\s|\$\()(?:npx\s+)?shop-mgmt\s+(.*?)(?:\)|$)/.exec(command);
    if (!match) continue;
    // Words as the shell splits them: '...' and "..." are one word each.
    const words = [...match[1]!.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
      (word) => word[1] ?? word[2] ?? word[3]!,
    );
    lines.push(words);
  }
  return lines;
}

/** A usage line: the command's flags and the synopsis's are the same set. */
function checkSynopsis(block: DocBlock): void {
  const text = block.code.replace(/\n\s+/g, ' ');
  const [name, sub] = commandLines(text)[0] ?? [];
  let command = COMMANDS[name as keyof typeof COMMANDS] as
    | { args?: unknown; subCommands?: unknown }
    | undefined;
  const nested = command?.subCommands as Record<string, typeof command> | undefined;
  if (nested && sub) command = nested[sub]; // `logs tail`
  expect(command, `${label(block)}: no command`).toBeDefined();
  const documented = new Set([...text.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!));
  const flags = Object.entries((command!.args ?? {}) as Record<string, unknown>)
    .filter(([, spec]) => (spec as { type: string }).type !== 'positional')
    .map(([flag]) => flag);
  expect([...documented].sort(), label(block)).toEqual([...flags].sort());
}

/** Runs each command of a `sh run` block and compares its output with the `# ` lines after it. */
function runShell(block: DocBlock): void {
  let command: string | null = null;
  let expected: string[] = [];
  const check = () => {
    if (command === null) return;
    const result = spawnSync('bash', ['-c', command], { encoding: 'utf8', cwd: ROOT });
    expect(result.status, `${label(block)}: ${command}\n${result.stderr}`).toBe(0);
    expect(result.stdout.trim(), `${label(block)}: ${command}`).toBe(expected.join('\n'));
  };
  for (const line of block.code.split('\n')) {
    if (line.startsWith('# ')) expected.push(line.slice(2));
    else if (line.trim() !== '') {
      check();
      command = line;
      expected = [];
    }
  }
  check();
}
