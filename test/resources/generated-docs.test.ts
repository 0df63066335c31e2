import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLASS_SUFFIX, emitResources, resourceClassName } from '../../scripts/generator/emit-resources.js';
import { buildModel } from '../../scripts/generator/model.js';
import { readResourceMethods } from '../../scripts/generator/resources-doc.js';
import { loadSpec } from '../../scripts/generator/spec.js';
import { ERROR_CODE_STATUS } from '../../src/generated/error-codes.js';
import { operations } from '../../src/generated/operations.js';
import * as root from '../../src/index.js';

// The resource classes are generated (scripts/generator/emit-resources.ts); these tests hold the spec to what a
// method's doc comment needs and check that the generated comment carries each part.

interface SpecOperation {
  readonly operationId?: string;
  readonly description?: string;
  readonly 'x-shape'?: string;
  readonly 'x-codeSamples'?: readonly { lang: string; source: string }[];
  readonly 'x-error-notes'?: Record<string, string>;
}
const spec = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, SpecOperation>>;
  'x-sdk-groups': Record<string, { summary: string; description: string }>;
};
const specOps = new Map(
  Object.values(spec.paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => typeof op.operationId === 'string')
    .map((op) => [op.operationId!, op] as const),
);
const methods = readResourceMethods(fileURLToPath(new URL('../..', import.meta.url)));
const sampleOf = (op: SpecOperation) =>
  op['x-codeSamples']?.find((sample) => sample.lang === 'TypeScript')?.source;
const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
const folded = (text: string) => text.replace(/\s+/g, ' ');
describe('the spec gives every operation its prose once', () => {
  it.each([...specOps.keys()])(
    '%s has a description and a TypeScript x-codeSamples entry that calls shop.',
    (id) => {
      const op = specOps.get(id)!;
      expect(op.description?.trim().length).toBeGreaterThan(10);
      expect(sampleOf(op)).toMatch(new RegExp(`shop\\.${id.replace(/\./g, '\\.')}\\(`));
    },
  );

  it('keeps no SDK paraphrase of a description (x-sdk-doc, x-sdk-example are gone)', () => {
    const text = readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8');
    expect(text).not.toMatch(/^\s*x-sdk-(doc|example|method):/m);
  });

  it.each(
    [...specOps.values()].filter((op) => op['x-shape'] === 'undocumented').map((op) => op.operationId!),
  )('%s says in its description what the reference leaves undocumented', (id) => {
    const op = specOps.get(id)!;
    expect(folded(op.description ?? '').toLowerCase()).toMatch(
      /not shown|named only|does not show|not spell/,
    );
  });
});

describe('generated doc comments', () => {
  it.each(methods)('$operationId: prose, permission, every error code with its note, example', (method) => {
    const op = operations[method.operationId as keyof typeof operations];
    const specOp = specOps.get(method.operationId)!;
    const doc = folded(method.doc);
    expect(doc).toContain(folded(specOp.description!));
    if (specOp['x-shape'] === 'undocumented')
      expect(doc).toContain('What the reference does not show is typed loosely');
    // What the spec states by inference only (x-inferred, issue 20) says so.
    const inferred = (specOp as { 'x-inferred'?: string[] })['x-inferred'] ?? [];
    const mark = (what: string) =>
      inferred.includes(what) ? ' (inferred, not stated by the reference)' : '';
    expect(doc).toContain(
      `Permission: ${op.permission ? `\`${op.permission}\`` : 'none'}${mark('permission')}.`,
    );
    if (inferred.includes('status'))
      expect(doc).toContain(`Success: HTTP ${op.successStatus}${mark('status')}.`);
    for (const code of op.errorCodes) {
      const status = ERROR_CODE_STATUS[code as keyof typeof ERROR_CODE_STATUS];
      const note = specOp['x-error-notes']?.[code];
      expect(doc).toContain(`${status} \`${code}\`${note ? ` (${folded(note)})` : ''}`);
    }
    expect(method.doc).toContain(`@example\n${sampleOf(specOp)}`);
  });
});

describe('class names follow the accessor path', () => {
  it('PascalCase of the path plus Api, whatever records exist', () => {
    expect(resourceClassName('range.reservations')).toBe('RangeReservationsApi');
    expect(resourceClassName('customers.account.payments')).toBe('CustomersAccountPaymentsApi');
    expect(resourceClassName('me')).toBe('MeApi');
    expect(resourceClassName('storeCredit')).toBe('StoreCreditApi');
  });

  it('every group class is exported from the root`s resources namespace under its rule name, with a group doc in the spec', () => {
    const classes = new Set(methods.map((method) => method.className));
    for (const method of methods) {
      const group = method.operationId.split('.').slice(0, -1).join('.');
      expect(spec['x-sdk-groups'][group], group).toBeDefined();
      expect(method.className).toBe(
        `${group.replace(/(^|\.)(\w)/g, (_m: string, _dot: string, letter: string) => letter.toUpperCase())}${CLASS_SUFFIX}`,
      );
    }
    for (const name of classes)
      expect(typeof (root.resources as Record<string, unknown>)[name], name).toBe('function');
  });

  it('adding a record renames no class; a record taking the class suffix is refused', async () => {
    const doc = await loadSpec(specPath);
    const { operations: model } = buildModel(doc);
    const before = emitResources(doc, model, new Set(['Me']));
    const after = emitResources(doc, model, new Set(['Me', 'RangeReservations', 'Range', 'StoreCredit']));
    expect([...after]).toEqual([...before]);
    expect(() => emitResources(doc, model, new Set(['RangeReservationsApi']))).toThrow(
      /RangeReservationsApi: a record or params type may not end in 'Api'/,
    );
  });

  it('the names never released as aliases are gone', async () => {
    const places = [root, root.resources, await import('../../src/schemas.js')] as Record<string, unknown>[];
    for (const name of ['ShootingRange', 'CurrentKey', 'StoreCreditBalances', 'Reservations', 'MeResource'])
      for (const place of places) expect(place[name], name).toBeUndefined();
  });
});
