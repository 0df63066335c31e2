import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESOURCE_HEADER } from '../../scripts/generator/emit-resources.js';
import { diffResourceFiles, writeResourceFiles } from '../../scripts/generator/resource-files.js';

// src/resources/ is wholly generated: a hand-written .ts file there is refused and named as drift.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'shop-mgmt-resources-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const generated = (body: string) => `${RESOURCE_HEADER}${body}\n`;

describe('generated files of src/resources', () => {
  it('are written and a stale generated file removed; the README stays', async () => {
    await writeFile(path.join(dir, 'old-group.ts'), generated('export class OldGroup {}'));
    await writeFile(path.join(dir, 'README.md'), '# notes\n');
    const files = new Map([['me.ts', generated('export class MeApi {}')]]);

    await writeResourceFiles(dir, files);
    expect((await readdir(dir)).sort()).toEqual(['README.md', 'me.ts']);
    expect(await diffResourceFiles(dir, files)).toEqual([]);
  });

  it('refuses to write beside a hand-written .ts file, changing nothing', async () => {
    await writeFile(path.join(dir, 'old-group.ts'), generated('export class OldGroup {}'));
    await writeFile(path.join(dir, 'webhooks.ts'), '// hand-written\nexport const webhooks = {};\n');
    const files = new Map([['me.ts', generated('export class MeApi {}')]]);

    await expect(writeResourceFiles(dir, files)).rejects.toThrow(/hand-written webhooks\.ts/);
    expect((await readdir(dir)).sort()).toEqual(['old-group.ts', 'webhooks.ts']);
    expect(await readFile(path.join(dir, 'webhooks.ts'), 'utf8')).toContain('hand-written');
  });

  it('drift: a changed, a missing, a stale generated and a hand-written file are each named', async () => {
    const files = new Map([
      ['me.ts', generated('export class MeApi {}')],
      ['range.ts', generated('export class RangeApi {}')],
    ]);
    await writeFile(path.join(dir, 'me.ts'), generated('export class MeApi { edited = true }'));
    await writeFile(path.join(dir, 'stale.ts'), generated('export class Stale {}'));
    await writeFile(path.join(dir, 'deprecated-names.ts'), 'export const Old = 1;\n');

    expect(await diffResourceFiles(dir, files)).toEqual([
      'resources/deprecated-names.ts (hand-written in a generated folder)',
      'resources/me.ts (differs)',
      'resources/range.ts (missing)',
      'resources/stale.ts (not generated)',
    ]);
  });
});
