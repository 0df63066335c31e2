// The "With vitest and msw" example of docs/testing.md, type-checked and run as it stands in the doc, so the
// doc cannot drift from the SDK: the fenced block is read at test time, its imports are pointed at
// ../../src, and its own hooks and `it` become this file's. Two more tests check that it compiles under the
// project's strict settings and that it does what its title says.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';
import * as testing from '../../src/testing/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HEADING = '## With vitest and msw';

/** The first ```ts block under the heading. */
function exampleBlock(markdown: string): string {
  const section = markdown.indexOf(`\n${HEADING}\n`);
  if (section < 0) throw new Error(`docs/testing.md has no "${HEADING}" section`);
  const match = /```ts\n([\s\S]*?)\n```/.exec(markdown.slice(section));
  if (!match) throw new Error(`"${HEADING}" has no ts block`);
  return match[1]!;
}

const source = exampleBlock(readFileSync(`${ROOT}docs/testing.md`, 'utf8'));

/** Every request the example's sandboxes answered, as `METHOD /path`, in order. */
const requests: string[] = [];

/** `shop-mgmt/testing` as the example sees it: the real module, with its sandboxes' requests noted. */
const observedTesting = {
  ...testing,
  createSandbox(options?: testing.SandboxOptions): testing.Sandbox {
    const sandbox = testing.createSandbox(options);
    const handle = sandbox.handle;
    sandbox.handle = (request, info) => {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      return handle(request, info);
    };
    return sandbox;
  },
};

const MODULES: Record<string, unknown> = {
  'msw/node': await import('msw/node'),
  vitest: await import('vitest'),
  'shop-mgmt': await import('../../src/index.js'),
  'shop-mgmt/testing': observedTesting,
};
/** Where the type check finds the package's entry points: the sources, as the tests import them. */
const SOURCES: Record<string, string> = {
  'shop-mgmt': '../../src/index.js',
  'shop-mgmt/testing': '../../src/testing/index.js',
};

const requireMapped = (specifier: string): unknown => {
  if (!(specifier in MODULES)) {
    throw new Error(
      `docs/testing.md example imports "${specifier}": map it in test/docs/testing-example.test.ts`,
    );
  }
  return MODULES[specifier];
};
const { outputText } = ts.transpileModule(source, {
  compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
});
// The example registers its hooks and its `it` here, in this file's collection.
new Function('require', 'exports', outputText)(requireMapped, {});

/** Type errors of the block, checked as a file in test/docs with test/tsconfig.json's options. */
function typeErrors(code: string): string[] {
  const mapped = code.replace(
    /from '(shop-mgmt(?:\/testing)?)'/g,
    (_, name: string) => `from '${SOURCES[name]}'`,
  );
  const parsed = ts.getParsedCommandLineOfConfigFile(`${ROOT}test/tsconfig.json`, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  })!;
  const file = `${ROOT}test/docs/docs-testing-example.ts`;
  const host = ts.createCompilerHost(parsed.options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => name === file || fileExists(name);
  host.readFile = (name) => (name === file ? mapped : readFile(name));
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, mapped, language) : getSourceFile(name, language, ...rest);
  const program = ts.createProgram({ rootNames: [file], options: parsed.options, host });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

it('the example compiles under the project settings (strict, noUncheckedIndexedAccess)', () => {
  expect(typeErrors(source)).toEqual([]);
}, 60_000);

it('the example looks at availability again after booking, so "sees it leave availability" is checked', () => {
  const booking = requests.indexOf('POST /v1/range/reservations');
  expect(booking).toBeGreaterThan(0);
  expect(requests.slice(0, booking)).toContain('GET /v1/range/availability');
  expect(requests.slice(booking + 1)).toContain('GET /v1/range/availability');
});
