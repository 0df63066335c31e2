// Why a SQLite database does not open, said as it is: a missing folder or a path under a regular file
// names the path and the cause (it said "install better-sqlite3" before, with the driver installed), and a
// missing driver still says to install one. The inbox and the sync engine both; an unsupported URL scheme is
// refused by name. (As root file modes are not enforced, so "no permission" is shown with a path under a
// regular file, which no user can create.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSyncDatabase, SyncDatabaseError } from '../../../src/sync/engine/database.js';
import { SqliteInboxStore, SqliteOpenError } from '../../../src/sync/inbox/sqlite.js';

const root = resolve(import.meta.dirname, '../../..');
let dir: string;
let bundleDir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sqlite-open-'));
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  bundleDir = mkdtempSync(join(cache, 'sqlite-open-'));
  await build({
    entryPoints: [join(root, 'test/sync/faults/sqlite-open-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: join(bundleDir, 'child.mjs'),
    external: ['better-sqlite3', 'pg'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
  // Module hooks that make both SQLite drivers fail to load, as on a machine with neither.
  writeFileSync(
    join(bundleDir, 'hooks.mjs'),
    `export async function resolve(specifier, context, next) {
       if (specifier === 'better-sqlite3' || specifier === 'node:sqlite') {
         const error = new Error('Cannot find package ' + specifier);
         error.code = 'ERR_MODULE_NOT_FOUND';
         throw error;
       }
       return next(specifier, context);
     }`,
  );
  writeFileSync(
    join(bundleDir, 'register.mjs'),
    `import { register } from 'node:module'; register('./hooks.mjs', import.meta.url);`,
  );
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

describe('a SQLite database that cannot be opened', () => {
  it('in a folder that does not exist: names the folder, not a driver', async () => {
    const file = join(dir, 'missing', 'inbox.db');
    const error = await SqliteInboxStore.open(file).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(SqliteOpenError);
    expect((error as SqliteOpenError).reason).toBe('cannot_open');
    expect((error as Error).message).toMatch(
      `cannot open the SQLite database ${file}: directory ${join(dir, 'missing')} does not exist`,
    );
    expect((error as Error).message).not.toMatch(/install/);
    const engine = await openSyncDatabase(file).catch((failure: unknown) => failure);
    expect(engine).toBeInstanceOf(SyncDatabaseError);
    expect((engine as Error).message).toMatch(`directory ${join(dir, 'missing')} does not exist`);
  });

  it('under a regular file (no one can create it): names the file in the way', async () => {
    const blocker = join(dir, 'file.txt');
    writeFileSync(blocker, 'not a folder');
    const file = join(blocker, 'db.sqlite');
    const error = await SqliteInboxStore.open(file).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(SqliteOpenError);
    expect((error as SqliteOpenError).reason).toBe('cannot_open');
    expect((error as Error).message).toMatch(
      `cannot open the SQLite database ${file}: ${blocker} is a file, not a directory`,
    );
    const engine = await openSyncDatabase(file).catch((failure: unknown) => failure);
    expect((engine as Error).message).toMatch(`${blocker} is a file, not a directory`);
    expect((engine as Error).message).not.toMatch(/install/);
  });

  it('an unsupported URL scheme is refused by name, not opened as a file', async () => {
    const error = await openSyncDatabase('mysql://127.0.0.1/shop').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(SyncDatabaseError);
    expect((error as Error).message).toBe(
      'mysql:// is not a database the sync writes: give a SQLite file path or a postgres:// URL',
    );
  });

  it('with no SQLite driver that loads: says to install one (in a process where neither loads)', () => {
    const file = join(dir, 'fine.db');
    const run = spawnSync(
      process.execPath,
      ['--import', join(bundleDir, 'register.mjs'), join(bundleDir, 'child.mjs'), file],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.stderr.replace(/.*ExperimentalWarning.*\n?|.*--trace-warnings.*\n?/g, '')).toBe('');
    const said = JSON.parse(run.stdout) as Record<string, { name: string; reason?: string; message: string }>;
    expect(said.inbox).toEqual({
      name: 'SqliteOpenError',
      reason: 'driver_missing',
      message:
        'The SQLite inbox needs better-sqlite3 (npm install better-sqlite3) or a Node with node:sqlite (22.5+).',
    });
    expect(said.engine?.name).toBe('SyncDatabaseError');
    expect(said.engine?.message).toMatch(
      /needs better-sqlite3 for a SQLite file \(npm install better-sqlite3\)/,
    );
  });
});
