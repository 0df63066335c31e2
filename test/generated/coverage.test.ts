import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  REFERENCE_BALANCE_MOVES,
  REFERENCE_ERROR_STATUS,
  REFERENCE_EVENT_TYPES,
  REFERENCE_OPERATIONS,
  REFERENCE_RATE_LIMIT_HEADERS,
} from '../support/reference.js';

// The lists (test/support/reference.ts) are copied BY HAND from shared/shop-api-reference.md (sections 4, 6
// and 7) and the SDK method names of DESIGN.md "Client", so a spec that drops or renames anything fails here
// instead of silently shrinking the generated SDK.

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
    for (const [method, path, operationId] of REFERENCE_OPERATIONS) {
      const item = paths[path];
      expect(item, `path ${path}`).toBeDefined();
      const op = obj(item, path)[method];
      expect(op, `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(obj(op, path).operationId, `${method.toUpperCase()} ${path}`).toBe(operationId);
    }
  });

  // An operation beyond the copy (one the reference gained since) is allowed: the spec is its one
  // description, held by the rules below and by the tables derived from it (issue 34). A reference operation
  // moved or renamed still fails the test above.
  it('keeps every operation of the copied reference among its operations', () => {
    const present = new Set(specOperations.map(({ method, path }) => `${method} ${path}`));
    const missing = REFERENCE_OPERATIONS.map(([method, path]) => `${method} ${path}`).filter(
      (k) => !present.has(k),
    );
    expect(REFERENCE_OPERATIONS.length).toBe(59);
    expect(missing).toEqual([]);
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
        for (const header of REFERENCE_RATE_LIMIT_HEADERS)
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
      expect(op['x-idempotency'], id).toBe(REFERENCE_BALANCE_MOVES.includes(id) ? 'required' : 'optional');
      const key = (op.parameters as unknown[])
        .map((p) => deref(p, id))
        .find((p) => p.name === 'Idempotency-Key');
      expect(key?.required, `${id} Idempotency-Key header`).toBe(REFERENCE_BALANCE_MOVES.includes(id));
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
