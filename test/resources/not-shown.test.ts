// Issue 20: every answer whose shape the reference does not show (the spec marks its success response
// `x-shape: undocumented`) accepts any object, the documented fields typed optional, and its method's doc
// comment says so. Each such operation is called over HTTP (msw) and answered the least a server could send.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readResourceMethods } from '../../scripts/generator/resources-doc.js';
import { Page } from '../../src/core/api/pagination.js';
import { operations } from '../../src/generated/operations.js';
import { client, mockApi, ok } from './helpers.js';
import { OPERATION_CASES } from './operation-table.js';

type Node = Record<string, unknown>;
const spec = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8')) as Node;
/** Each generated method's doc comment, by operation id. */
const docs = new Map(
  readResourceMethods(fileURLToPath(new URL('../..', import.meta.url))).map((m) => [m.operationId, m.doc]),
);

/** The operations whose success response the spec marks as not shown by the reference. */
const notShown = Object.values(spec.paths as Record<string, Node>).flatMap((item) =>
  Object.values(item)
    .map((op) => op as Node)
    .filter((op) => typeof op.operationId === 'string')
    .filter((op) =>
      Object.entries(op.responses as Record<string, Node>).some(
        ([status, response]) => /^2\d\d$/.test(status) && response['x-shape'] === 'undocumented',
      ),
    )
    .map((op) => ({
      id: op.operationId as keyof typeof operations,
      doc: docs.get(String(op.operationId)) ?? '',
    })),
);

/** The fields the reference does show in an answer otherwise not shown (section 4: the cancel response). */
const SHOWN: Partial<Record<string, Record<string, unknown>>> = {
  'range.reservations.cancel': { requires_manual_refund: false },
};

const api = mockApi();

describe('answers the reference does not show', () => {
  it('are marked on at least 40 operations, memberships.cancel, inventory.list and coupons.delete among them', () => {
    // At least: a new endpoint whose answer the reference does not show adds one (issue 34).
    const ids = notShown.map((op) => op.id);
    expect(ids.length).toBeGreaterThanOrEqual(40);
    expect(ids).toEqual(expect.arrayContaining(['memberships.cancel', 'inventory.list', 'coupons.delete']));
  });

  it.each(notShown.map((op) => [op.id, op]))('%s says so in its doc comment', (_, { doc }) => {
    expect(doc).toMatch(/not show|not shown|named only|typed loosely/i);
  });

  it.each(notShown.map((op) => [op.id]))(
    '%s accepts the least a server could answer, and keeps a field it does not know',
    async (id) => {
      const row = OPERATION_CASES.find((entry) => entry.id === id)!;
      const op = operations[id];
      const minimal = { ...SHOWN[id] };
      const extra = { ...minimal, a_field_added_later: 'kept' };
      api.respond(
        () =>
          op.pagination === 'cursor'
            ? ok([minimal, extra], { meta: { has_more: false, next_cursor: null } })
            : ok(minimal, { status: op.successStatus }),
        () =>
          op.pagination === 'cursor'
            ? ok([extra], { meta: { has_more: false, next_cursor: null } })
            : ok(extra, { status: op.successStatus }),
      );
      const shop = client();
      const first = await row.call(shop);
      const second = await row.call(shop);
      if (op.pagination === 'cursor') {
        expect(first).toBeInstanceOf(Page);
        expect((first as Page<unknown>).data).toEqual([minimal, extra]);
        expect((second as Page<unknown>).data).toEqual([extra]);
      } else {
        expect(first).toEqual(minimal);
        expect(second).toEqual(extra);
      }
    },
  );

  it('still checks a field that is there: memberships.cancel with a status of the wrong type fails', async () => {
    api.respond(() => ok({ id: 'not a number' }));
    await expect(client().memberships.cancel(3100)).rejects.toMatchObject({
      name: 'ResponseValidationError',
    });
  });
});

describe('what the spec states by inference, and the 405 of every path', () => {
  const paths = Object.entries(spec.paths as Record<string, Node>);
  const operationsOf = (item: Node) =>
    Object.values(item).filter((op): op is Node => typeof (op as Node)?.operationId === 'string');

  it('every operation whose answer is not shown marks its success status inferred, in x-inferred and its description', () => {
    for (const [, item] of paths) {
      for (const op of operationsOf(item)) {
        const notShownHere = notShown.some((entry) => entry.id === op.operationId);
        const inferred = (op['x-inferred'] as string[] | undefined) ?? [];
        expect(inferred.includes('status'), String(op.operationId)).toBe(notShownHere);
        if (inferred.length > 0) {
          expect(String(op.description), String(op.operationId)).toMatch(
            /Inferred, not stated by the reference: (the permission \([^)]+\))?( and )?(the success status \(2\d\d\))?\./,
          );
        }
      }
    }
  });

  it('marks the permissions the reference does not state: the named-only endpoints, invoices among them', () => {
    const inferredPermission = paths.flatMap(([, item]) =>
      operationsOf(item)
        .filter((op) => ((op['x-inferred'] as string[] | undefined) ?? []).includes('permission'))
        .map((op) => op.operationId),
    );
    expect(inferredPermission).toEqual(
      expect.arrayContaining(['invoices.list', 'giftCertificates.redeem', 'coupons.delete', 'me.retrieve']),
    );
    // Stated by the reference: range, memberships, card transactions, returns, locations read, products write.
    expect(inferredPermission).not.toContain('range.reservations.create');
    expect(inferredPermission).not.toContain('products.update');
    expect(inferredPermission).not.toContain('locations.list');
  });

  it('documents 405 METHOD_NOT_ALLOWED on every path', () => {
    expect(paths.length).toBeGreaterThan(50);
    for (const [path, item] of paths) {
      expect(item['x-other-methods'], path).toEqual({ status: 405, code: 'METHOD_NOT_ALLOWED' });
      expect(item.description, path).toMatch(/405 METHOD_NOT_ALLOWED/);
    }
    const errorCode = (spec.components as Node).schemas as Record<string, Node>;
    expect((errorCode.ErrorCode!['x-http-status'] as Record<string, number>).METHOD_NOT_ALLOWED).toBe(405);
  });
});
