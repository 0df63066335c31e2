// Measures what a partner meets: the names each public entry exports (at run time, and with types from the
// built declarations, through the TypeScript compiler), and the packed package (size, files, source maps).
// Run after `npm run build`: `node scripts/check-package-surface.mjs [--json]`. With `--check` it fails when
// the root entry or the package outgrows the bounds below (check-package.sh runs it so).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));

// The root entry is the front door (issue 34): the client, the errors, pagination and a few helpers.
const BOUNDS = { rootRuntime: 45, rootTyped: 110, sourceMaps: 0, unpackedBytes: 8_000_000 };

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object')
  .map(([subpath, target]) => ({
    name: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
    js: join(root, target.import.default),
    dts: join(root, target.import.types),
  }));

const program = ts.createProgram(
  entries.map((entry) => entry.dts),
  {
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
  },
);
const checker = program.getTypeChecker();
function typedNames(file) {
  const source = program.getSourceFile(file);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`no module symbol for ${file}`);
  return checker.getExportsOfModule(symbol).map((exported) => exported.name);
}

const surface = [];
for (const entry of entries) {
  const runtime = Object.keys(await import(pathToFileURL(entry.js).href));
  const typed = typedNames(entry.dts);
  surface.push({
    entry: entry.name,
    runtime: runtime.length,
    typed: typed.length,
    allCapsRuntime: runtime.filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name)).length,
  });
}

const [packed] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
);
const maps = packed.files.filter((file) => file.path.endsWith('.map'));
const pack = {
  packedBytes: packed.size,
  unpackedBytes: packed.unpackedSize,
  files: packed.entryCount,
  sourceMaps: maps.length,
  sourceMapBytes: maps.reduce((sum, file) => sum + file.size, 0),
};

if (args.has('--json')) {
  console.log(JSON.stringify({ surface, pack }, null, 2));
} else {
  console.table(surface);
  console.table([pack]);
}

if (args.has('--check')) {
  const rootEntry = surface.find((entry) => entry.entry === pkg.name);
  const failures = [
    rootEntry.runtime > BOUNDS.rootRuntime &&
      `root entry: ${rootEntry.runtime} runtime names > ${BOUNDS.rootRuntime}`,
    rootEntry.typed > BOUNDS.rootTyped &&
      `root entry: ${rootEntry.typed} names with types > ${BOUNDS.rootTyped}`,
    pack.sourceMaps > BOUNDS.sourceMaps && `package: ${pack.sourceMaps} source maps > ${BOUNDS.sourceMaps}`,
    pack.unpackedBytes > BOUNDS.unpackedBytes &&
      `package: ${pack.unpackedBytes} bytes unpacked > ${BOUNDS.unpackedBytes}`,
  ].filter(Boolean);
  if (failures.length > 0) {
    console.error(failures.join('\n'));
    process.exit(1);
  }
  console.log('surface: ok');
}
