import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collectResourceMethods } from '../../scripts/docs-resources.js';
import { emitResources, resourceClassName } from '../../scripts/generator/emit-resources.js';
import { buildModel } from '../../scripts/generator/model.js';
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
  readonly 'x-sdk-doc'?: string;
  readonly 'x-sdk-example'?: string;
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
const methods = collectResourceMethods();
const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
const folded = (text: string) => text.replace(/\s+/g, ' ');
/** The parts of a shape a description can say are not shown; the SDK's prose must name the same ones. */
const PARTS = ['request', 'response', 'filters'] as const;

describe('the spec gives every operation its SDK prose', () => {
  it.each([...specOps.keys()])('%s has x-sdk-doc and an x-sdk-example that calls shop.', (id) => {
    const op = specOps.get(id)!;
    expect(op['x-sdk-doc']?.trim().length).toBeGreaterThan(10);
    expect(op['x-sdk-example']).toMatch(new RegExp(`shop\\.${id.replace(/\./g, '\\.')}\\(`));
  });

  it.each(
    [...specOps.values()].filter((op) => op['x-shape'] === 'undocumented').map((op) => op.operationId!),
  )('%s says in its x-sdk-doc what the reference leaves undocumented', (id) => {
    const op = specOps.get(id)!;
    const doc = folded(op['x-sdk-doc'] ?? '').toLowerCase();
    expect(doc).toMatch(/not shown|named only|does not show|not spell/);
    const description = (op.description ?? '').toLowerCase();
    for (const part of PARTS.filter((word) => description.includes(word))) {
      expect(doc, `the spec says the ${part} is open`).toContain(part);
    }
  });
});

describe('generated doc comments', () => {
  it.each(methods)('$operationId: prose, permission, every error code with its note, example', (method) => {
    const op = operations[method.operationId as keyof typeof operations];
    const specOp = specOps.get(method.operationId)!;
    const doc = folded(method.doc);
    expect(doc).toContain(folded(specOp['x-sdk-doc']!));
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
    expect(method.doc).toContain(`@example\n${specOp['x-sdk-example']}`);
  });
});

describe('class names follow the accessor path', () => {
  it('PascalCase of the path; Resource appended where a record type has the name', () => {
    const types = new Set(['Me', 'StoreCredit']);
    expect(resourceClassName('range.reservations', types)).toBe('RangeReservations');
    expect(resourceClassName('customers.account.payments', types)).toBe('CustomersAccountPayments');
    expect(resourceClassName('me', types)).toBe('MeResource');
    expect(resourceClassName('storeCredit', types)).toBe('StoreCreditResource');
  });

  it('every group class is exported from the root under its rule name, with a group doc in the spec', () => {
    const classes = new Set(methods.map((method) => method.className));
    for (const method of methods) {
      const group = method.operationId.split('.').slice(0, -1).join('.');
      expect(spec['x-sdk-groups'][group], group).toBeDefined();
      expect(method.className.replace(/Resource$/, '')).toBe(
        group.replace(/(^|\.)(\w)/g, (_m, _dot, letter: string) => letter.toUpperCase()),
      );
    }
    for (const name of classes) expect(typeof (root as Record<string, unknown>)[name], name).toBe('function');
  });

  it('keeps the old class names as deprecated aliases of the new classes', () => {
    expect(root.ShootingRange).toBe(root.Range);
    expect(root.CurrentKey).toBe(root.MeResource);
    expect(root.StoreCreditBalances).toBe(root.StoreCreditResource);
    expect(root.Reservations).toBe(root.RangeReservations);
    expect(root.CustomerStoreCredit).toBe(root.CustomersStoreCredit);
  });
});

describe('the extension point for a method whose behaviour differs', () => {
  it('emits <Class>Base without the hand-written method and builds <Class> from <file>-extension.ts', async () => {
    const doc = await loadSpec(specPath);
    const groups = (doc as unknown as { 'x-sdk-groups': Record<string, { extension?: boolean }> })[
      'x-sdk-groups'
    ];
    groups.customers = { ...groups.customers, extension: true };
    groups['customers.storeCredit'] = { ...groups['customers.storeCredit'], extension: true };
    const redeem = doc.paths!['/v1/customers/{id}/store-credit/redeem']!.post as Record<string, unknown>;
    redeem['x-sdk-method'] = 'hand-written';
    const files = emitResources(doc, buildModel(doc).operations, new Set(['StoreCredit']));

    const generated = files.get('customers-store-credit.ts')!;
    expect(generated).toContain('export class CustomersStoreCreditBase extends APIResource');
    expect(generated).toContain("operations['customers.storeCredit.issue']");
    expect(generated).not.toContain("operations['customers.storeCredit.redeem']");
    expect(files.get('customers.ts')).toContain(
      "import { CustomersStoreCredit } from './customers-store-credit-extension.js'",
    );
    expect(files.get('client-resources.ts')).toContain(
      "import { Customers } from './customers-extension.js'",
    );
    expect(files.get('groups.ts')).toContain(
      "export { CustomersStoreCredit } from './customers-store-credit-extension.js'",
    );
    expect(files.has('customers-store-credit-extension.ts')).toBe(false);
  });

  it('refuses a hand-written method in a group without an extension', async () => {
    const doc = await loadSpec(specPath);
    (doc.paths!['/v1/me']!.get as Record<string, unknown>)['x-sdk-method'] = 'hand-written';
    expect(() => emitResources(doc, buildModel(doc).operations, new Set())).toThrow(/me has no extension/);
  });
});
