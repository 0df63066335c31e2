import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collectResourceMethods, renderResourcesDoc } from '../../scripts/docs-resources.js';
import type { Operation } from '../../src/core/operation.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import { operations } from '../../src/generated/operations.js';

const methods = collectResourceMethods();
const ops = operations as Record<string, Operation>;

interface SpecOperation {
  readonly operationId?: string;
  readonly description?: string;
}
const spec = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, SpecOperation>>;
};
/** Each operation's spec description, which says which part of its shape the reference leaves open. */
const descriptions = new Map(
  Object.values(spec.paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => typeof op.operationId === 'string')
    .map((op) => [op.operationId, op.description ?? ''] as const),
);
/** The parts of a shape a description can say are not shown; the method's doc must name the same ones. */
const PARTS = ['request', 'response', 'filters'] as const;

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
    const schemas = OPERATION_SCHEMAS[method.operationId as keyof typeof OPERATION_SCHEMAS];
    const hasParams = schemas.query !== null || schemas.body !== null;
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
    '$operationId says in its own doc comment what the reference leaves undocumented',
    (method) => {
      // On the method itself: an editor shows the method's comment at the call, not its class's.
      const said = /not shown|named only|does not show|not spell/i;
      expect(said.test(method.doc)).toBe(true);
      const description = (descriptions.get(method.operationId) ?? '').toLowerCase();
      for (const part of PARTS.filter((word) => description.includes(word))) {
        expect(method.doc.toLowerCase(), `the spec says the ${part} is open`).toContain(part);
      }
    },
  );
});

describe('docs/resources.md', () => {
  it('is what scripts/docs-resources.ts renders (run it after changing a method)', () => {
    expect(readFileSync('docs/resources.md', 'utf8')).toBe(renderResourcesDoc(methods));
  });
});
