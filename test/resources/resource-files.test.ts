import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESOURCE_HEADER } from '../../scripts/generator/emit-resources.js';
import { diffResourceFiles, writeResourceFiles } from '../../scripts/generator/resource-files.js';

// src/resources/ mixes generated and hand-written files: the header decides which the generator owns.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'shop-mgmt-resources-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const generated = (body: string) => `${RESOURCE_HEADER}${body}\n`;

describe('generated files of src/resources', () => {
  it('are written, a stale generated file removed, and a hand-written file left alone', async () => {
    await writeFile(path.join(dir, 'old-group.ts'), generated('export class OldGroup {}'));
    await writeFile(path.join(dir, 'webhooks.ts'), '// hand-written\nexport const webhooks = {};\n');
    await writeFile(path.join(dir, 'README.md'), '# notes\n');
    const files = new Map([['me.ts', generated('export class MeResource {}')]]);

    await writeResourceFiles(dir, files);
    expect((await readdir(dir)).sort()).toEqual(['README.md', 'me.ts', 'webhooks.ts']);
    expect(await readFile(path.join(dir, 'webhooks.ts'), 'utf8')).toContain('hand-written');
    expect(await diffResourceFiles(dir, files)).toEqual([]);
  });

  it('drift: a changed, a missing and a stale generated file are each named; hand-written files are not', async () => {
    const files = new Map([
      ['me.ts', generated('export class MeResource {}')],
      ['range.ts', generated('export class Range {}')],
    ]);
    await writeFile(path.join(dir, 'me.ts'), generated('export class MeResource { edited = true }'));
    await writeFile(path.join(dir, 'stale.ts'), generated('export class Stale {}'));
    await writeFile(path.join(dir, 'deprecated-names.ts'), 'export const Old = 1;\n');

    expect(await diffResourceFiles(dir, files)).toEqual([
      'resources/me.ts (differs)',
      'resources/range.ts (missing)',
      'resources/stale.ts (not generated)',
    ]);
  });
});
