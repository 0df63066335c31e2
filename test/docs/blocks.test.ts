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
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { checkArgs } from '../../src/cli/strict.js';
import { ShopClient } from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { builtBin, CliRunner, Receiver, startSandbox } from '../cli/helpers.js';
import { builtTypes, entrySources, publishedEntries } from './built-types.js';
import { CONTEXT_NAMES, type DocContext, FACTORIES } from './context.js';
import { NOT_RUN, runCommand, shellCommands } from './shell.js';

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

/**
 * The fenced blocks of a markdown text: ``` fences at the start of a line, or indented (a block inside a list
 * item), closed by a fence of the same indent; an indented block's lines lose that indent.
 */
function blocksOf(file: string, markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const fence = /^([ \t]*)```([^\n`]*)\n([\s\S]*?)^\1```[ \t]*$/gm;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) {
    const indent = match[1]!;
    const [lang = '', ...tags] = match[2]!.trim().split(/\s+/).filter(Boolean);
    const line = markdown.slice(0, match.index).split('\n').length;
    const code = match[3]!
      .split('\n')
      .map((text) => (text.startsWith(indent) ? text.slice(indent.length) : text.trimStart()))
      .join('\n');
    blocks.push({ file, line, lang, tags, code });
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

/** Where the type check finds the package: its built .d.ts (built-types.ts), as a partner's project does. */
interface PackageTypes {
  /** The folder of the .d.ts files (dist/, or a build of the current sources). */
  readonly dir: string;
  /** Each entry name and its .d.ts in `dir`. */
  readonly entries: Record<string, string>;
  /** Each entry name and its source (to read context-types.ts against the package). */
  readonly sources: Record<string, string>;
}

/** The file a block is checked as (in examples/, so `./otel-tracing.js` is the example it names). */
const virtualPath = (block: DocBlock, index: number) =>
  `${ROOT}examples/__doc_${block.file.replace(/\W/g, '_')}_${block.line}_${index}.ts`;
const CONTEXT_PATH = `${ROOT}examples/__doc_context.ts`;

/** context-types.ts as a partner's file: each import of an entry's source names the package entry instead. */
function contextSource(types: PackageTypes): string {
  const byFile = new Map(Object.entries(types.sources).map(([name, file]) => [file, name]));
  return readFileSync(`${ROOT}test/docs/context-types.ts`, 'utf8').replace(
    /from '\.\.\/\.\.\/(src\/[^']+)\.js'/g,
    (_import, file: string) => {
      const entry = byFile.get(`${file}.ts`);
      if (!entry)
        throw new Error(`test/docs/context-types.ts imports ${file}, which is no entry of the package`);
      return `from '${entry}'`;
    },
  );
}

/** The block, then declarations of the context names it uses (types only; hoisted, so lines stay put). */
function checkedSource(block: DocBlock): string {
  const declarations = contextNamesOf(block).map(
    (name) => `declare const ${name}: import('./__doc_context.js').DocContext['${name}'];`,
  );
  return `${block.code}\nexport {};\n${declarations.join('\n')}\n`;
}

/**
 * The compiler options a strict partner uses: test/tsconfig.json's (strict, noUncheckedIndexedAccess), with
 * `exactOptionalPropertyTypes` on and `skipLibCheck` off, so the package's own .d.ts are checked too.
 */
function partnerOptions(types: PackageTypes): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(`${ROOT}test/tsconfig.json`, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  })!;
  return {
    ...parsed.options,
    exactOptionalPropertyTypes: true,
    skipLibCheck: false,
    noEmit: true,
    paths: Object.fromEntries(
      Object.entries(types.entries).map(([name, file]) => [name, [`${types.dir}/${file}`]]),
    ),
  };
}

const describeDiagnostic = (diagnostic: ts.Diagnostic) => {
  const where =
    diagnostic.file && diagnostic.start !== undefined
      ? `line ${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: `
      : '';
  return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
};

/** Type errors of every block, by block, in one program; and those of the package's .d.ts and the context. */
function typeErrors(
  blocks: readonly DocBlock[],
  types: PackageTypes,
): { byBlock: Map<DocBlock, string[]>; declarations: string[] } {
  const options = partnerOptions(types);
  const files = new Map(blocks.map((block, index) => [virtualPath(block, index), block]));
  const context = contextSource(types);
  const textOf = (name: string) =>
    name === CONTEXT_PATH ? context : files.has(name) ? checkedSource(files.get(name)!) : undefined;
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => textOf(name) !== undefined || fileExists(name);
  host.readFile = (name) => textOf(name) ?? readFile(name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = textOf(name);
    return text !== undefined
      ? ts.createSourceFile(name, text, language)
      : getSourceFile(name, language, ...rest);
  };
  const program = ts.createProgram({ rootNames: [...files.keys(), CONTEXT_PATH], options, host });
  const byBlock = new Map<DocBlock, string[]>();
  for (const [path, block] of files) {
    byBlock.set(
      block,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(path)!).map(describeDiagnostic),
    );
  }
  // skipLibCheck off: what a partner's tsc reports in the package's .d.ts (and in the context's types).
  const declarations = program
    .getSourceFiles()
    .filter((file) => file.fileName.startsWith(`${types.dir}/`) || file.fileName === CONTEXT_PATH)
    .flatMap((file) =>
      ts
        .getPreEmitDiagnostics(program, file)
        .map((diagnostic) => `${file.fileName.replace(ROOT, '')}: ${describeDiagnostic(diagnostic)}`),
    );
  return { byBlock, declarations: [...new Set(declarations)] };
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

/**
 * Runs a block against `sandbox` (a fresh one unless given), served on 127.0.0.1 for the block's run, and
 * compares what it prints with what it says it prints (unless `printed` is false: a second run of a block).
 */
async function runBlock(
  block: DocBlock,
  {
    sandbox = createSandbox(),
    apiKey = sandbox.createKey(),
    printed = true,
  }: { sandbox?: Sandbox; apiKey?: string; printed?: boolean } = {},
): Promise<void> {
  const server = await sandbox.listen();
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
  const claims = printClaims(block.code);
  const { outputText } = ts.transpileModule(claims.code, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  });
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const body = new AsyncFunction('require', 'exports', PRINTED, ...names, `{\n${outputText}\n}`);
  const require = (specifier: string) => {
    if (!modules.has(specifier)) throw new Error(`${label(block)}: require(${specifier}) not mapped`);
    return modules.get(specifier);
  };
  try {
    await body(require, {}, claims.print, ...names.map((name) => values[name]));
    await runSuite(suite);
  } finally {
    await server.close();
  }
  if (printed) claims.check(label(block));
}

const PRINTED = '__docsPrinted';

/**
 * What a block says it prints: a line `console.log(...); // text` claims that the call prints `text`
 * (`...` in it stands for anything). Such a call is routed to a recorder, and after the run each claim must
 * have printed at least once, and only lines that match.
 */
function printClaims(code: string): {
  code: string;
  print: (claim: number, ...args: unknown[]) => void;
  check: (where: string) => void;
} {
  const claims: { line: number; expected: string; printed: string[] }[] = [];
  const lines = code.split('\n').map((text, index) => {
    const match = /^(\s*)console\.log\((.*)\);[ \t]*\/\/ (.+)$/.exec(text);
    if (!match) return text;
    claims.push({ line: index + 1, expected: match[3]!.trim(), printed: [] });
    return `${match[1]}${PRINTED}(${claims.length - 1}, ${match[2]});`;
  });
  return {
    code: lines.join('\n'),
    print: (claim, ...args) => {
      claims[claim]!.printed.push(format(...args));
    },
    check(where) {
      for (const { line, expected, printed } of claims) {
        const pattern = new RegExp(
          `^${expected
            .split('...')
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*')}$`,
          's',
        );
        expect(
          printed.length,
          `${where}, line ${line}: it says it prints "${expected}"; it printed nothing`,
        ).toBeGreaterThan(0);
        for (const output of printed) {
          expect(output, `${where}, line ${line}: it says it prints "${expected}"`).toMatch(pattern);
        }
      }
    },
  };
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

  let types: PackageTypes;
  let errors: ReturnType<typeof typeErrors>;
  beforeAll(async () => {
    types = { dir: await builtTypes(), entries: publishedEntries(), sources: await entrySources() };
    errors = typeErrors(TS_BLOCKS, types);
  }, 900_000); // building the package's .d.ts when dist/ is missing or stale: about 2.5 min on a busy machine

  it('type-check, every ts block, against the built .d.ts (strict, exactOptionalPropertyTypes, skipLibCheck off)', () => {
    const failures = TS_BLOCKS.filter((block) => errors.byBlock.get(block)!.length > 0).map(
      (block) => `${label(block)}\n  ${errors.byBlock.get(block)!.join('\n  ')}`,
    );
    expect(failures.join('\n')).toBe('');
  });

  it("type-check the package's own .d.ts and the context's types as a partner's tsc does (skipLibCheck off)", () => {
    expect(errors.declarations.join('\n')).toBe('');
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

  it("README's tour runs twice against one shop: its Idempotency-Key is built from what it books", async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const tour = BLOCKS.find(
      (block) => block.file === 'README.md' && block.code.includes('booking-web-1042'),
    );
    expect(tour, 'the tour of README.md').toBeDefined();
    const sandbox = createSandbox();
    const owner = new ShopClient({
      apiKey: sandbox.createKey(),
      baseUrl: sandbox.baseUrl,
      fetch: sandbox.fetch,
    });
    const upcoming = async () =>
      (await owner.range.reservations.list({ status: 'booked', from: new Date() }).toArray()).length;
    const before = await upcoming();
    const apiKey = sandbox.createKey(); // one partner: idempotency keys are scoped to the API key
    await runBlock(tour!, { sandbox, apiKey });
    // The first run's lane is taken now: the second books another lane, which a fixed key refused (422
    // IDEMPOTENCY_MISMATCH). Its booking has another id, so what it prints is not compared.
    await runBlock(tour!, { sandbox, apiKey, printed: false });
    expect(await upcoming()).toBe(before + 2);
  }, 60_000);

  describe('sh blocks', () => {
    const shBlocks = BLOCKS.filter((block) => block.lang === 'sh' && checked(block));
    // The files a block's command names: `trigger --fixture scenario.json` is cli.md's scenario block.
    const scenario = BLOCKS.find((block) => block.lang === 'json' && block.code.includes('"steps"'));
    let bin = '';
    const cli = new CliRunner(() => bin);
    const scratches: string[] = [];
    beforeAll(async () => {
      expect(scenario, "docs/cli.md's scenario.json").toBeDefined();
      bin = (await builtBin()).bin;
    }, 300_000);
    const receivers: Receiver[] = [];
    afterEach(async () => {
      await cli.killAll();
      await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    });
    afterAll(() => {
      for (const scratch of scratches) rmSync(scratch, { recursive: true, force: true });
    });

    for (const block of shBlocks) {
      const runs = !block.tags.includes('run') && !block.tags.includes('synopsis');
      it(
        label(block),
        async () => {
          if (block.tags.includes('run')) return runShell(block);
          if (block.tags.includes('synopsis')) return checkSynopsis(block);
          const commands = shellCommands(block.code);
          expect(commands.length, `${label(block)}: no shop-mgmt command`).toBeGreaterThan(0);
          for (const { argv, text } of commands) {
            expect(() => checkArgs(COMMANDS, argv), `${label(block)}: ${text}`).not.toThrow();
          }
          // Then each runs: against this block's own sandbox process, in a folder of its own.
          // Its deliveries go to a receiver, so events are recorded and a trigger's overrides applied.
          const receiver = await new Receiver().start();
          receivers.push(receiver);
          const shop = await startSandbox(cli, ['--forward-to', receiver.url]);
          const cwd = mkdtempSync(join(tmpdir(), 'shop-mgmt-docs-sh-'));
          scratches.push(cwd);
          // docs/many-shops.md's registry: this block's sandbox shop, its key read from the environment.
          const shopsFile = { shops: [{ name: 'docs-shop', apiKey: 'env:SHOP_API_KEY', baseUrl: shop.url }] };
          const files = { 'scenario.json': scenario!.code, 'shops.json': JSON.stringify(shopsFile) };
          for (const command of commands) {
            const run = await runCommand(command, { bin, cwd, shop, files });
            if (run.skipped) continue; // NOT_RUN, with its reason (checked below to match a command of the docs)
            expect(run.stderr, `${label(block)}: ${command.text}`).not.toMatch(/override not applied/);
            expect(
              run.code,
              `${label(block)}: ${command.text}\nstdout:\n${run.stdout.slice(-2000)}\nstderr:\n${run.stderr.slice(-2000)}`,
            ).toBe(0);
          }
        },
        runs ? 240_000 : undefined,
      );
    }

    it('list every command they do not run, with its reason, and nothing more', () => {
      const texts = shBlocks.flatMap((block) => shellCommands(block.code).map((command) => command.text));
      for (const entry of NOT_RUN) {
        expect(
          texts.filter((text) => entry.pattern.test(text)).length,
          `NOT_RUN ${entry.pattern}: no command of the docs`,
        ).toBeGreaterThan(0);
        expect(entry.reason.length).toBeGreaterThan(20);
      }
    });
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
    expect(typeErrors([typo!], types).byBlock.get(typo!)!.join('\n')).toMatch(/limt/);
    await expect(runBlock(failing!)).rejects.toMatchObject({ status: 404 });
    expect(() => checkArgs(COMMANDS, commandLines('npx shop-mgmt sandbox --prot 5000')[0]!)).toThrow(
      /--port/,
    );
  }, 60_000);

  it('are as strict as a partner: indented blocks, real stub types, optional properties exact, printed output', async () => {
    const blocks = blocksOf(
      'synthetic.md',
      [
        '- In a list item:',
        '',
        '  ```ts',
        '  const n: number = shop;',
        '  ```',
        '```ts',
        "metrics.histogram('ms', null as number | null, {});",
        '```',
        '```ts',
        'const cursor: string | undefined = undefined;',
        'shop.events.list({ cursor });',
        '```',
        '```ts',
        "console.log(40 + 2, 'booked'); // 43 booked",
        '```',
      ].join('\n'),
    );
    expect(blocks.map((block) => [block.line, block.code.split('\n')[0]])).toEqual([
      [3, 'const n: number = shop;'],
      [6, "metrics.histogram('ms', null as number | null, {});"],
      [9, 'const cursor: string | undefined = undefined;'],
      [13, "console.log(40 + 2, 'booked'); // 43 booked"],
    ]);
    const [indented, stub, optional, printing] = blocks;
    const found = typeErrors(blocks, types).byBlock;
    expect(found.get(indented!)!.join('\n')).toMatch(/ShopClient.*not assignable to type 'number'/);
    expect(found.get(stub!)!.join('\n')).toMatch(/'null' is not assignable to type 'number'/);
    expect(found.get(optional!)!.join('\n')).toMatch(/exactOptionalPropertyTypes/);
    expect(found.get(printing!)).toEqual([]);
    await expect(runBlock(printing!)).rejects.toThrow(/line 1: it says it prints "43 booked"/);
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
