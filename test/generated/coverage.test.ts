import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REFERENCE_ERROR_STATUS, REFERENCE_EVENT_TYPES } from '../support/reference.js';

// The lists below are copied BY HAND from shared/shop-api-reference.md (sections 4, 6 and 7) and the SDK
// method names of DESIGN.md "Client", so a spec that drops or renames anything fails here instead of
// silently shrinking the generated SDK.

/** [method, path, operationId]: every endpoint of reference section 4, with its fixed SDK method path. */
const OPERATIONS: ReadonlyArray<readonly [string, string, string]> = [
  ['get', '/v1/range/resources', 'range.resources.list'],
  ['get', '/v1/range/classes', 'range.classes.list'],
  ['get', '/v1/range/sessions', 'range.sessions.list'],
  ['get', '/v1/range/reservations', 'range.reservations.list'],
  ['get', '/v1/range/reservations/{id}', 'range.reservations.retrieve'],
  ['get', '/v1/range/availability', 'range.availability.list'],
  ['post', '/v1/range/reservations', 'range.reservations.create'],
  ['post', '/v1/range/reservations/{id}/check-in', 'range.reservations.checkIn'],
  ['post', '/v1/range/reservations/{id}/no-show', 'range.reservations.markNoShow'],
  ['post', '/v1/range/reservations/{id}/cancel', 'range.reservations.cancel'],
  ['get', '/v1/range/rentals', 'range.rentals.list'],
  ['get', '/v1/range/rentals/{id}', 'range.rentals.retrieve'],
  ['get', '/v1/range/rental-checkouts', 'range.rentalCheckouts.list'],
  ['get', '/v1/membership-plans', 'membershipPlans.list'],
  ['get', '/v1/memberships', 'memberships.list'],
  ['get', '/v1/memberships/{id}', 'memberships.retrieve'],
  ['post', '/v1/memberships', 'memberships.create'],
  ['post', '/v1/memberships/{id}/cancel', 'memberships.cancel'],
  ['post', '/v1/memberships/{id}/guest-pass', 'memberships.useGuestPass'],
  ['get', '/v1/card-transactions', 'cardTransactions.list'],
  ['get', '/v1/card-transactions/{id}', 'cardTransactions.retrieve'],
  ['get', '/v1/returns', 'returns.list'],
  ['get', '/v1/returns/{id}', 'returns.retrieve'],
  ['get', '/v1/events', 'events.list'],
  ['get', '/v1/locations', 'locations.list'],
  ['patch', '/v1/locations/{id}', 'locations.update'],
  ['get', '/v1/products', 'products.list'],
  ['patch', '/v1/products/{id}', 'products.update'],
  ['get', '/v1/inventory', 'inventory.list'],
  ['get', '/v1/inventory/serialized', 'inventory.listSerialized'],
  ['post', '/v1/inventory/adjust', 'inventory.adjust'],
  ['post', '/v1/inventory/set', 'inventory.set'],
  ['post', '/v1/purchase-orders', 'purchaseOrders.create'],
  ['post', '/v1/purchase-orders/{id}/receive', 'purchaseOrders.receive'],
  ['patch', '/v1/purchase-orders/{id}', 'purchaseOrders.update'],
  ['post', '/v1/purchase-orders/{id}/submit', 'purchaseOrders.submit'],
  ['post', '/v1/purchase-orders/{id}/cancel', 'purchaseOrders.cancel'],
  ['post', '/v1/orders', 'orders.create'],
  ['post', '/v1/orders/{id}/void', 'orders.void'],
  ['post', '/v1/customers/{id}/account/payments', 'customers.account.payments.create'],
  ['get', '/v1/me', 'me.retrieve'],
  ['get', '/v1/customers/{id}/account', 'customers.account.retrieve'],
  ['get', '/v1/invoices', 'invoices.list'],
  ['get', '/v1/invoices/{id}', 'invoices.retrieve'],
  ['get', '/v1/account-payments', 'accountPayments.list'],
  // Named by verb only in the reference; the paths are the spec's resource-style choice.
  ['post', '/v1/gift-certificates', 'giftCertificates.issue'],
  ['post', '/v1/gift-certificates/{id}/redeem', 'giftCertificates.redeem'],
  ['post', '/v1/gift-certificates/{id}/reverse', 'giftCertificates.reverse'],
  ['post', '/v1/gift-certificates/{id}/reload', 'giftCertificates.reload'],
  ['post', '/v1/gift-certificates/{id}/adjust', 'giftCertificates.adjust'],
  ['post', '/v1/gift-certificates/{id}/disable', 'giftCertificates.disable'],
  ['post', '/v1/gift-certificates/{id}/enable', 'giftCertificates.enable'],
  ['post', '/v1/coupons', 'coupons.create'],
  ['patch', '/v1/coupons/{id}', 'coupons.update'],
  ['delete', '/v1/coupons/{id}', 'coupons.delete'],
  ['get', '/v1/customers/{id}/store-credit', 'customers.storeCredit.retrieve'],
  ['post', '/v1/customers/{id}/store-credit/issue', 'customers.storeCredit.issue'],
  ['post', '/v1/customers/{id}/store-credit/redeem', 'customers.storeCredit.redeem'],
  ['get', '/v1/store-credit', 'storeCredit.list'],
];

/** Balance moves and account payments: the reference requires an Idempotency-Key on these. */
const IDEMPOTENCY_REQUIRED = [
  'giftCertificates.issue',
  'giftCertificates.redeem',
  'giftCertificates.reverse',
  'giftCertificates.reload',
  'giftCertificates.adjust',
  'customers.storeCredit.issue',
  'customers.storeCredit.redeem',
  'customers.account.payments.create',
];

const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Daily-Limit',
  'X-RateLimit-Daily-Remaining',
];

type Node = Record<string, unknown>;

const spec = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8')) as Node;

function obj(value: unknown, where: string): Node {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${where} is not an object`);
  }
  return value as Node;
}

/** Follows a local `$ref` (one level is all the spec uses for responses, parameters and headers). */
function deref(value: unknown, where: string): Node {
  const node = obj(value, where);
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  let target: unknown = spec;
  for (const part of ref.replace(/^#\//, '').split('/')) target = obj(target, ref)[part];
  return obj(target, ref);
}

const paths = obj(spec.paths, 'paths');
const components = obj(spec.components, 'components');
const schemas = obj(components.schemas, 'components.schemas');
const errorCode = obj(schemas.ErrorCode, 'ErrorCode');

const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
const specOperations = Object.entries(paths).flatMap(([path, item]) =>
  Object.entries(obj(item, path))
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ method, path, op: obj(op, `${method} ${path}`) })),
);

function successOf(op: Node, where: string): [string, Node] {
  const entry = Object.entries(obj(op.responses, `${where} responses`)).find(([status]) =>
    /^2\d\d$/.test(status),
  );
  if (!entry) throw new Error(`${where} has no 2xx response`);
  return [entry[0], deref(entry[1], `${where} ${entry[0]}`)];
}

describe('spec/openapi.yaml covers the reference', () => {
  it('has every section 4 operation under its SDK method name', () => {
    for (const [method, path, operationId] of OPERATIONS) {
      const item = paths[path];
      expect(item, `path ${path}`).toBeDefined();
      const op = obj(item, path)[method];
      expect(op, `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(obj(op, path).operationId, `${method.toUpperCase()} ${path}`).toBe(operationId);
    }
  });

  it('has no operation beyond the reference', () => {
    const expected = new Set(OPERATIONS.map(([method, path]) => `${method} ${path}`));
    const extra = specOperations
      .map(({ method, path }) => `${method} ${path}`)
      .filter((k) => !expected.has(k));
    expect(extra).toEqual([]);
  });

  it('gives every operation a unique operationId, x-permission and a documented success envelope', () => {
    const ids = new Set<string>();
    for (const { method, path, op } of specOperations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(typeof op.operationId, where).toBe('string');
      expect(ids.has(op.operationId as string), `${where} duplicate operationId`).toBe(false);
      ids.add(op.operationId as string);
      expect('x-permission' in op, `${where} x-permission`).toBe(true);
      const permission = op['x-permission'];
      expect(permission === null || /^[a-z_]+:(read|write)$/.test(String(permission)), where).toBe(true);
      expect(typeof op.summary, `${where} summary`).toBe('string');
      expect(typeof op.description, `${where} description`).toBe('string');

      const [, success] = successOf(op, where);
      const schema = obj(obj(obj(success.content, where)['application/json'], where).schema, where);
      const props = obj(schema.properties, `${where} envelope`);
      expect(props.status, where).toEqual({ const: 'ok' });
      expect(props.data, `${where} data`).toBeDefined();
      if (op['x-pagination'] === 'cursor') {
        expect(props.meta, where).toEqual({ $ref: '#/components/schemas/ListMeta' });
        expect(obj(props.data, where).type, where).toBe('array');
      }
    }
  });

  it('documents the rate-limit headers on every authenticated response and Retry-After on 429', () => {
    for (const { method, path, op } of specOperations) {
      for (const [status, response] of Object.entries(obj(op.responses, path))) {
        if (status === '401') continue; // not an authenticated response
        const headers = obj(
          deref(response, `${method} ${path} ${status}`).headers,
          `${path} ${status} headers`,
        );
        for (const header of RATE_LIMIT_HEADERS)
          expect(headers[header], `${path} ${status} ${header}`).toBeDefined();
        if (status === '429') expect(headers['Retry-After'], path).toBeDefined();
      }
    }
  });

  it('marks idempotency on every POST only, required exactly on balance moves and account payments', () => {
    for (const { method, op } of specOperations) {
      const id = op.operationId as string;
      if (method !== 'post') {
        expect(op['x-idempotency'], id).toBeUndefined();
        continue;
      }
      expect(op['x-idempotency'], id).toBe(IDEMPOTENCY_REQUIRED.includes(id) ? 'required' : 'optional');
      const key = (op.parameters as unknown[])
        .map((p) => deref(p, id))
        .find((p) => p.name === 'Idempotency-Key');
      expect(key?.required, `${id} Idempotency-Key header`).toBe(IDEMPOTENCY_REQUIRED.includes(id));
      expect(obj(key?.schema, id).maxLength, id).toBe(100);
    }
  });

  it('lists only known error codes per operation, each with a documented response of its status', () => {
    for (const { op } of specOperations) {
      const id = op.operationId as string;
      const codes = op['x-error-codes'];
      expect(Array.isArray(codes), `${id} x-error-codes`).toBe(true);
      const responses = obj(op.responses, id);
      for (const code of codes as string[]) {
        expect(code in REFERENCE_ERROR_STATUS, `${id} ${code}`).toBe(true);
        expect(responses[String(REFERENCE_ERROR_STATUS[code])], `${id} ${code} response`).toBeDefined();
      }
    }
  });

  it('has ErrorCode with every section 7 code and its status', () => {
    // An open enum (issue 20): the known codes, or any other string a later release adds.
    const [known, other] = errorCode.anyOf as Node[];
    expect(other).toMatchObject({ type: 'string' });
    expect([...(obj(known, 'ErrorCode.anyOf[0]').enum as string[])].sort()).toEqual(
      Object.keys(REFERENCE_ERROR_STATUS).sort(),
    );
    expect(errorCode['x-http-status']).toEqual(REFERENCE_ERROR_STATUS);
  });

  it('has a webhook entry for every catalog event type in the allOf form', () => {
    const webhooks = obj(spec.webhooks, 'webhooks');
    for (const type of REFERENCE_EVENT_TYPES) {
      const post = obj(obj(webhooks[type], type).post, type);
      const body = obj(obj(obj(post.requestBody, type).content, type)['application/json'], type);
      const [base, specific] = obj(body.schema, type).allOf as Node[];
      expect(base, type).toEqual({ $ref: '#/components/schemas/Event' });
      const props = obj(obj(specific, type).properties, type);
      expect(props.type, type).toEqual({ const: type });
      const payload = obj(obj(obj(props.data, type).properties, type).object, type);
      expect(String(payload.$ref), type).toMatch(/^#\/components\/schemas\/[A-Z]\w+$/);
      expect(schemas[String(payload.$ref).split('/').pop() as string], type).toBeDefined();
    }
    // The test event the owner sends from the dashboard; its payload is data.object.object = ping.
    expect(Object.keys(webhooks).sort()).toEqual([...REFERENCE_EVENT_TYPES, 'ping'].sort());
  });

  it('resolves every local $ref', () => {
    const refs = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.add(value);
          else walk(value);
        }
      }
    };
    walk(spec);
    for (const ref of refs) expect(() => deref({ $ref: ref }, ref), ref).not.toThrow();
  });
});
