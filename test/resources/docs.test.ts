import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectResourceMethods, renderResourcesDoc } from '../../scripts/docs-resources.js';
import type { Operation } from '../../src/core/operation.js';
import { operations } from '../../src/generated/operations.js';

const methods = collectResourceMethods();
const ops = operations as Record<string, Operation>;

describe('resource methods against the operation table', () => {
  it('map one method to each operation, named as the operationId ends', () => {
    expect(methods.map((method) => method.operationId).sort()).toEqual(Object.keys(operations).sort());
    for (const method of methods) expect(method.operationId.split('.').at(-1)).toBe(method.name);
  });

  it.each(methods)('$operationId is one expression, ids first, options last', (method) => {
    const op = ops[method.operationId] as Operation;
    expect(method.statements).toBe(1);
    expect(method.parameters.at(-1)).toBe('options?: RequestOptions');
    const ids = method.parameters.slice(0, op.pathParams.length);
    for (const id of ids) expect(id).toMatch(/^\w+: number$/);
    const hasParams = op.query !== null || op.body !== null;
    expect(method.parameters).toHaveLength(op.pathParams.length + (hasParams ? 1 : 0) + 1);
  });

  it.each(methods)('$operationId has a doc comment with permission, errors and an example', (method) => {
    const op = ops[method.operationId] as Operation;
    expect(method.doc).toContain(`Permission: ${op.permission ? `\`${op.permission}\`` : 'none'}`);
    for (const code of op.errorCodes) expect(method.doc, code).toContain(`\`${code}\``);
    expect(method.doc).toMatch(/@example\n.*shop\./);
    if (op.idempotency === 'required') expect(method.doc).toMatch(/Idempotency-Key/);
  });

  it.each(methods.filter((method) => ops[method.operationId]?.undocumented))(
    '$operationId says what the reference leaves undocumented (on the method or its class)',
    (method) => {
      const said = /not shown|named only|does not show|not spell/i;
      expect(said.test(method.doc) || said.test(method.classDoc)).toBe(true);
    },
  );
});

describe('docs/resources.md', () => {
  it('is what scripts/docs-resources.ts renders (run it after changing a method)', () => {
    expect(readFileSync('docs/resources.md', 'utf8')).toBe(renderResourcesDoc(methods));
  });
});
