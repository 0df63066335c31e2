#!/usr/bin/env node
// The named mutants of test/mutants/named-mutants.mjs: each one is applied to a COPY of the working tree (the
// tracked and untracked files git does not ignore, in a temporary directory; node_modules linked entry by
// entry, with caches of its own), its tests are run there with vitest, and the file is put back before the
// next. A mutant is killed when its tests fail. The working tree is never changed.
//
//   npm run test:mutants                      every mutant
//   npm run test:mutants -- ID [ID ...]       only these (ids as in named-mutants.mjs)
//   npm run test:mutants -- --baseline        also run each mutant's tests unmutated first (they must pass)
//   npm run test:mutants -- --keep            keep the copy (its path is printed)
//
// Exits 0 when every mutant chosen was killed; 1 when one survived, a spec no longer matches its file
// (search found zero or several times), or a baseline run failed.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { mutants } = await import(join(root, 'test/mutants/named-mutants.mjs'));

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const baseline = args.includes('--baseline');
const wanted = args.filter((arg) => !arg.startsWith('--'));
const unknown = wanted.filter((id) => !mutants.some((mutant) => mutant.id === id));
if (unknown.length > 0) {
  console.error(
    `named-mutants: no mutant ${unknown.join(', ')}; ids: ${mutants.map((m) => m.id).join(', ')}`,
  );
  process.exit(1);
}
const chosen = wanted.length > 0 ? mutants.filter((mutant) => wanted.includes(mutant.id)) : mutants;

/** Where `search` occurs in `text`: exactly once, or the spec is stale. */
function occurrences(text, search) {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + 1)) count++;
  return count;
}

// Every spec is checked against the working tree before anything runs.
let stale = 0;
for (const mutant of chosen) {
  const path = join(root, mutant.file);
  const found = existsSync(path) ? occurrences(readFileSync(path, 'utf8'), mutant.search) : 0;
  if (found !== 1) {
    console.error(
      `named-mutants: ${mutant.id}: the search text is found ${found} times in ${mutant.file}, not once`,
    );
    stale++;
  }
}
if (stale > 0) process.exit(1);

// The copy: what git would commit (tracked, and untracked not ignored), as it is in the working tree now.
const copy = mkdtempSync(join(tmpdir(), 'named-mutants-'));
const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
});
if (listed.status !== 0) {
  console.error(`named-mutants: git ls-files failed: ${listed.stderr}`);
  process.exit(1);
}
for (const file of listed.stdout.split('\0').filter(Boolean)) {
  const from = join(root, file);
  if (!existsSync(from)) continue; // deleted in the working tree
  mkdirSync(dirname(join(copy, file)), { recursive: true });
  cpSync(from, join(copy, file), { preserveTimestamps: true });
}
// node_modules: each package linked to the working tree's; the caches (builds of the CLI, bundles of the
// crash child, vite's) are the copy's own, so nothing built from mutated sources lands in the working tree.
mkdirSync(join(copy, 'node_modules'));
const ownCaches = new Set(['.cache', '.vite', '.vite-temp', '.vitest']);
for (const entry of readdirSync(join(root, 'node_modules'))) {
  if (ownCaches.has(entry)) continue;
  symlinkSync(join(root, 'node_modules', entry), join(copy, 'node_modules', entry));
}
console.log(`named-mutants: a copy of the working tree in ${copy}`);

const vitest = join(root, 'node_modules/vitest/vitest.mjs');
/**
 * The CLI built from the mutated sources into the copy's dist/ (newer than src/, so test/cli/helpers.ts runs
 * it), before vitest starts: a build inside the tests' 120 s hook can outlast it on a loaded machine.
 */
function buildCli() {
  const script = join(copy, 'named-mutants-build-cli.mts');
  writeFileSync(
    script,
    [
      "const { build } = await import('tsup');",
      "const configs = (await import('./tsup.config.ts')).default;",
      "const cli = (Array.isArray(configs) ? configs : [configs]).find((c) => JSON.stringify(c.entry ?? {}).includes('cli/index'));",
      'await build({ ...cli, sourcemap: false, silent: true });',
    ].join('\n'),
  );
  const built = spawnSync(join(root, 'node_modules/.bin/tsx'), [script], { cwd: copy, encoding: 'utf8' });
  rmSync(script);
  if (built.status !== 0) throw new Error(`named-mutants: the CLI build failed:\n${built.stderr}`);
}
function runTests(tests) {
  const started = Date.now();
  const run = spawnSync(process.execPath, [vitest, 'run', ...tests], {
    cwd: copy,
    env: { ...process.env, SHOP_TEST_WORKERS: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const output = `${run.stdout}\n${run.stderr}`;
  // The first failed assertions, so a kill can be seen to come from the mutant and not from elsewhere.
  const why = output
    .split('\n')
    .filter((line) => /AssertionError|Error:|FAIL /.test(line))
    .slice(0, 4)
    .map((line) => line.trim().slice(0, 200));
  return { passed: run.status === 0, seconds: Math.round((Date.now() - started) / 1000), why, output };
}

const results = [];
try {
  for (const mutant of chosen) {
    const path = join(copy, mutant.file);
    const original = readFileSync(path, 'utf8');
    if (baseline) {
      if (mutant.buildCli) buildCli();
      const clean = runTests(mutant.tests);
      rmSync(join(copy, 'dist'), { recursive: true, force: true });
      if (!clean.passed) {
        console.log(
          `\n[${mutant.id}] baseline FAILED (the tests fail unmutated):\n${clean.output.slice(-3000)}`,
        );
        results.push({ mutant, outcome: 'baseline failed', seconds: clean.seconds, why: clean.why });
        continue;
      }
    }
    writeFileSync(path, original.replace(mutant.search, mutant.replace));
    let run;
    try {
      console.log(`\n[${mutant.id}] ${mutant.file} mutated; running ${mutant.tests.join(' ')}`);
      if (mutant.buildCli) buildCli();
      run = runTests(mutant.tests);
    } finally {
      writeFileSync(path, original);
      rmSync(join(copy, 'dist'), { recursive: true, force: true });
    }
    const outcome = run.passed ? 'SURVIVED' : 'killed';
    console.log(`[${mutant.id}] ${outcome} in ${run.seconds} s`);
    for (const line of run.why) console.log(`    ${line}`);
    results.push({ mutant, outcome, seconds: run.seconds, why: run.why });
  }
} finally {
  if (keep) console.log(`\nnamed-mutants: the copy is kept in ${copy}`);
  else rmSync(copy, { recursive: true, force: true });
}

console.log('\nnamed mutants:');
for (const { mutant, outcome, seconds } of results) {
  console.log(
    `  ${outcome.padEnd(15)} ${mutant.id.padEnd(36)} ${String(seconds).padStart(4)} s  ${mutant.guards}`,
  );
}
const bad = results.filter((result) => result.outcome !== 'killed');
console.log(
  bad.length === 0
    ? `all ${results.length} killed`
    : `${bad.length} of ${results.length} not killed: ${bad.map((r) => r.mutant.id).join(', ')}`,
);
process.exit(bad.length === 0 ? 0 : 1);
