/**
 * The one generator entry. spec/openapi.yaml -> src/generated/ (zod schemas and types, params, the endpoint
 * table, events, error codes, the sync schema), src/resources/ (wholly generated: resource classes, the
 * client's getters, index.ts; see resource-files.ts), docs/resources.md (the method list), and the sandbox's
 * route index src/testing/features/routes.ts (from its route files and rule tables; sandbox-routes.ts).
 *
 *   npm run generate          rewrite all of it
 *   npm run generate:check    generate into a temporary directory; exit 1, naming each file, on any drift
 *   options: --spec <file> (default spec/openapi.yaml), --out <dir> (default src/generated)
 *
 * Why a focused generator rather than a well-kept one: @hey-api/openapi-ts (zod plugin) and orval both emit
 * `z.object` (unknown fields stripped) and closed `z.enum`s, have no notion of `x-known-values`, and produce
 * a client or per-endpoint functions rather than an endpoint table carrying our `x-permission`,
 * `x-idempotency`, `x-pagination`, `x-error-codes` and `x-shape`; making them meet the house rules (loose
 * objects, open enums typed `'a' | (string & {})` over a plain `z.string()` so the JIT object parser stays on
 * its fast path, `z.iso.datetime()` requiring Z, the event and error-code tables) would mean post-processing
 * their output, which is more code than this and breaks on their upgrades. Neither is installed either.
 * So this is a generator of our own over a real parser: @readme/openapi-parser validates the spec against the OpenAPI
 * 3.1 schema and parses it (keeping `$ref` names), and Biome formats the output so it is lint-clean.
 * The layout of what it emits is fixed by the team's contract; see scripts/generator/*.ts.
 *
 * Request params are closed where the reference documents the operation: `z.strictObject`, so a key it does
 * not name (`{ stauts: 'booked' }`) is a type error and, from JavaScript, a local `ParamsValidationError`
 * naming the key, with nothing sent. Refused rather than stripped: a misspelled filter dropped in silence
 * returns the wrong records. Operations marked `x-shape: undocumented` keep loose params (other fields are
 * passed through). Response schemas stay loose everywhere (reference section 9).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatSource } from './generator/format.js';
import { diffFiles, generate, writeFiles } from './generator/index.js';
import { LLMS_FILE, llmsText } from './generator/llms.js';
import { buildModel } from './generator/model.js';
import { diffResourceFiles, generateResources, writeResourceFiles } from './generator/resource-files.js';
import { RESOURCES_DOC } from './generator/resources-doc.js';
import { SANDBOX_ROUTES_FILE, sandboxRoutesText } from './generator/sandbox-routes.js';
import { loadSpec } from './generator/spec.js';
import { desiredTables, historyText, nextHistory, readHistory, syncModel } from './generator/sync-schema.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Cli {
  readonly check: boolean;
  readonly spec: string;
  readonly out: string;
}

function parseArgs(argv: readonly string[]): Cli {
  let check = false;
  let spec = path.join(root, 'spec/openapi.yaml');
  let out = path.join(root, 'src/generated');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--check') check = true;
    else if (arg === '--spec' && argv[i + 1]) spec = path.resolve(argv[++i]!);
    else if (arg === '--out' && argv[i + 1]) out = path.resolve(argv[++i]!);
    else throw new Error(`unknown argument ${arg}; usage: generate.ts [--check] [--spec file] [--out dir]`);
  }
  return { check, spec, out };
}

async function main(): Promise<number> {
  const cli = parseArgs(process.argv.slice(2));
  // src/resources/ and docs/resources.md: only beside the SDK's own src/generated (a fixture spec written to
  // another --out has no resource groups).
  const resourcesDir = path.join(root, 'src/resources');
  const ownOut = cli.out === path.join(root, 'src/generated');
  // The sync schema's versions: the SDK's own history file, extended (never rewritten) by each run.
  const historyPath = ownOut ? path.join(root, 'spec/sync-schema.json') : undefined;
  const files = await generate({
    specPath: cli.spec,
    targetDir: cli.out,
    root,
    ...(historyPath ? { syncHistoryPath: historyPath } : {}),
  });
  const shown = path.relative(process.cwd(), cli.out) || '.';
  const history = historyPath ? await syncHistory(cli.spec, historyPath) : null;
  const resources = ownOut ? await generateResources(cli.spec, root, files) : null;
  const docPath = path.join(root, RESOURCES_DOC);
  const llmsPath = path.join(root, LLMS_FILE);
  const llms = ownOut ? await llmsText(root, buildModel(await loadSpec(cli.spec)).operations) : null;
  const routesPath = path.join(root, SANDBOX_ROUTES_FILE);
  const routes = ownOut ? await sandboxRoutesText(root) : null;
  if (!cli.check) {
    if (llms !== null) await writeFile(llmsPath, llms);
    if (routes !== null) await writeFile(routesPath, routes);
    if (resources) await writeResourceFiles(resourcesDir, resources.files);
    await writeFiles(cli.out, files);
    if (resources) await writeFile(docPath, resources.doc);
    if (history && history.text !== history.before) await writeFile(historyPath!, history.text);
    console.log(`generated ${files.size} files in ${shown} from ${path.relative(process.cwd(), cli.spec)}`);
    return 0;
  }

  const scratch = await mkdtemp(path.join(tmpdir(), 'shop-mgmt-generate-'));
  await writeFiles(scratch, files);
  const differences = [
    ...(await diffFiles(cli.out, files)),
    ...(resources ? await diffResourceFiles(resourcesDir, resources.files) : []),
    ...(resources && (await readFile(docPath, 'utf8').catch(() => '')) !== resources.doc
      ? [`${RESOURCES_DOC} (differs)`]
      : []),
    ...(history && history.text !== history.before ? ['spec/sync-schema.json (a new schema version)'] : []),
    ...(llms !== null && (await readFile(llmsPath, 'utf8').catch(() => '')) !== llms
      ? [`${LLMS_FILE} (differs)`]
      : []),
    ...(routes !== null && (await readFile(routesPath, 'utf8').catch(() => '')) !== routes
      ? [`${SANDBOX_ROUTES_FILE} (differs)`]
      : []),
  ];
  if (differences.length === 0) {
    await rm(scratch, { recursive: true, force: true });
    console.log(
      `${shown}${resources ? ', src/resources and docs/resources.md are' : ' is'} up to date with ${path.relative(process.cwd(), cli.spec)}`,
    );
    return 0;
  }
  console.error(`generated files are out of date with the spec; run \`npm run generate\`. Differing files:`);
  for (const line of differences) console.error(`  ${line}`);
  console.error(`(fresh output kept in ${scratch} for diffing)`);
  return 1;
}

/** The history file as it is and as this spec extends it. */
async function syncHistory(spec: string, file: string): Promise<{ before: string; text: string }> {
  const doc = await loadSpec(spec);
  const before = await readFile(file, 'utf8').catch(() => '');
  const next = nextHistory(
    await readHistory(file),
    desiredTables(syncModel(doc, buildModel(doc).operations).tables),
  );
  // Formatted as Biome formats JSON, so `npm run lint` passes on it.
  return { before, text: await formatSource(historyText(next), 'sync-schema.json', root) };
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
