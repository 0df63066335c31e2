// Records every platform binary of the lock's packages (biome, esbuild, rollup...) in package-lock.json.
//
// The npm registry mirror these machines reach serves only the linux builds of such packages, so `npm install`
// leaves the other platforms' optional dependencies out of the lock, and `npm ci` then refuses the lock as out
// of sync ("Missing: @biomejs/cli-darwin-arm64@ from lock file"). Entries with the exact version and
// `optional: true` satisfy `npm ci` here (a missing optional package is skipped) and install normally on a
// machine that reaches the full registry. Run after every `npm install` that changes the lock:
//   node scripts/lock-optional-platforms.mjs          (writes the lock)
//   node scripts/lock-optional-platforms.mjs --check  (exit 1 if entries are missing)
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
const missing = [];
for (const [key, entry] of Object.entries(packages)) {
  const base = key.includes('node_modules/') ? key.slice(0, key.lastIndexOf('node_modules/')) : '';
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${key}/node_modules/${name}`;
    const hoisted = `${base}node_modules/${name}`;
    if (packages[nested] || packages[hoisted] || packages[`node_modules/${name}`]) continue;
    missing.push([`node_modules/${name}`, version, entry.dev === true]);
  }
}

if (process.argv.includes('--check')) {
  if (missing.length > 0) {
    console.error(
      `package-lock.json lacks ${missing.length} optional platform packages, e.g. ${missing[0][0]}:`,
    );
    console.error('run `node scripts/lock-optional-platforms.mjs` and commit the lock.');
    process.exit(1);
  }
  process.exit(0);
}

for (const [key, version, dev] of missing)
  packages[key] = dev ? { version, dev, optional: true } : { version, optional: true };
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: recorded ${missing.length} optional platform packages`);
