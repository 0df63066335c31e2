// Adding an endpoint is the spec, its domain rule in the sandbox and a CHANGELOG line (issue 34). This test
// adds a fake endpoint (`coupons.fakeArchive`, POST /v1/coupons/{id}/fake-archive, a name no real endpoint
// will take) to a copy of the spec and its rule to a copy of the sandbox, runs the generators on the copies
// in a scratch folder, and checks that everything else follows with no other file edited: the operation
// table (what the transport and the sandbox's routes read), the client method, the params type and its
// index, the body rules, the per-operation test table (test/resources/operation-table.ts), the conformance
// sweep (test/e2e/support/sweep.ts), the sandbox's route index (features/routes.ts, generated) and the
// sandbox answering the endpoint over HTTP on 127.0.0.1.
//
// Still hand-written for a new endpoint: the spec entry; the rule in the feature's domain file (an entry of
// its `operationRules` table); the CHANGELOG line. Beside those, only when they apply: a route in the
// feature's routes file instead of a rule for a cursor list or a body with the sandbox's own fields, a hand
// row in the test tables (an example whose arguments are not literals), the reference copy
// (test/support/reference.ts) when the reference itself changes, and for a new record type its sample
// (test/generated/samples.ts), the records type test list and its stored form (state/api-records.ts).

import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '../../scripts/generator/index.js';
import { generateResources } from '../../scripts/generator/resource-files.js';
import { sandboxRoutesText } from '../../scripts/generator/sandbox-routes.js';
import { derivedStep } from '../e2e/support/sweep.js';
import { client, mockApi, ok } from '../resources/helpers.js';
import { derivedCase, OPERATION_CASES } from '../resources/operation-table.js';
import { exampleArguments, type SpecOperation, specOperations } from '../support/spec-operations.js';
import { samples } from './samples.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Inside the repository (so the output resolves src/core and zod), in a git- and tsc-ignored folder.
const scratchRoot = path.join(root, 'test/generated/.tmp');

const ID = 'coupons.fakeArchive';
const FAKE = `  /v1/coupons/{id}/fake-archive:
    description: Any method this path does not list answers 405 METHOD_NOT_ALLOWED.
    x-other-methods: {status: 405, code: METHOD_NOT_ALLOWED}
    post:
      operationId: ${ID}
      x-codeSamples:
        - lang: TypeScript
          label: shop-mgmt
          source: |-
            await shop.${ID}(2, { reason: 'Season over' });
      tags: [Coupons]
      summary: Archive a coupon (a test-only endpoint)
      description: Turns a coupon off and fires coupon.updated.
      x-permission: coupons:write
      x-idempotency: optional
      x-error-codes: [VALIDATION_ERROR, NOT_FOUND, IDEMPOTENCY_IN_PROGRESS, IDEMPOTENCY_MISMATCH]
      parameters:
        - $ref: '#/components/parameters/Id'
        - $ref: '#/components/parameters/IdempotencyKey'
      requestBody:
        required: false
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              properties:
                reason: {type: string, description: Why the coupon is turned off.}
      responses:
        '200':
          description: The coupon after the change.
          headers:
            X-RateLimit-Limit: {$ref: '#/components/headers/XRateLimitLimit'}
            X-RateLimit-Remaining: {$ref: '#/components/headers/XRateLimitRemaining'}
            X-RateLimit-Reset: {$ref: '#/components/headers/XRateLimitReset'}
            X-RateLimit-Daily-Limit: {$ref: '#/components/headers/XRateLimitDailyLimit'}
            X-RateLimit-Daily-Remaining: {$ref: '#/components/headers/XRateLimitDailyRemaining'}
          content:
            application/json:
              schema:
                type: object
                required: [status, data]
                properties:
                  status: {const: ok}
                  data: {$ref: '#/components/schemas/Coupon'}
        '400': {$ref: '#/components/responses/BadRequest'}
        '401': {$ref: '#/components/responses/Unauthorized'}
        '402': {$ref: '#/components/responses/PaymentRequired'}
        '403': {$ref: '#/components/responses/Forbidden'}
        '404': {$ref: '#/components/responses/NotFound'}
        '409': {$ref: '#/components/responses/Conflict'}
        '422': {$ref: '#/components/responses/UnprocessableEntity'}
        '429': {$ref: '#/components/responses/RateLimited'}
        '500': {$ref: '#/components/responses/ServerError'}
        '5XX': {$ref: '#/components/responses/OtherServerError'}
`;

// The rule, as a contributor writes it: one entry in the coupon file's `operationRules` table.
const RULE_ANCHOR = 'export const couponRules = operationRules({\n';
const RULE = `  '${ID}': (world, { actor, path, body }) => {
    const coupon = findCoupon(world, actor, path.id);
    const { object, id, created_at, updated_at, ...fields } = coupon;
    const name = body.reason === undefined ? fields.name : \`\${fields.name} (\${body.reason})\`;
    return updateCoupon(world, actor, coupon, { ...fields, name, active: false });
  },
`;

let dir: string;
let specCopy: string;
let files: Map<string, string>;
let resources: Map<string, string>;
let fake: SpecOperation;
let scratchRoutes: string;

beforeAll(async () => {
  await mkdir(scratchRoot, { recursive: true });
  dir = await mkdtemp(path.join(scratchRoot, 'new-endpoint-'));
  const spec = await readFile(path.join(root, 'spec/openapi.yaml'), 'utf8');
  const anchor = '  /v1/coupons/{id}:\n';
  expect(spec).toContain(anchor);
  specCopy = path.join(dir, 'openapi.yaml');
  await writeFile(specCopy, spec.replace(anchor, FAKE + anchor));
  // generateResources reads the SDK notes beside the spec.
  await writeFile(path.join(dir, 'sdk-notes.yaml'), await readFile(path.join(root, 'spec/sdk-notes.yaml')));
  // A copy of src/ with the generated tables of the spec copy and a copy of the sandbox; the rest linked.
  const out = path.join(dir, 'src/generated');
  files = await generate({ specPath: specCopy, targetDir: out, root });
  await writeFiles(out, files);
  await cp(path.join(root, 'src/testing'), path.join(dir, 'src/testing'), { recursive: true });
  for (const entry of await readdir(path.join(root, 'src'))) {
    if (entry !== 'generated' && entry !== 'testing') {
      await symlink(path.join(root, 'src', entry), path.join(dir, 'src', entry));
    }
  }
  const ruleFile = path.join(dir, 'src/testing/features/sales/coupons.ts');
  const rules = await readFile(ruleFile, 'utf8');
  expect(rules).toContain(RULE_ANCHOR);
  await writeFile(ruleFile, rules.replace(RULE_ANCHOR, RULE_ANCHOR + RULE));
  scratchRoutes = await sandboxRoutesText(root, path.join(dir, 'src/testing/features'));
  await writeFile(path.join(dir, 'src/testing/features/routes.ts'), scratchRoutes);
  resources = (await generateResources(specCopy, root, files)).files;
  fake = specOperations(specCopy).find((op) => op.id === ID)!;
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a new endpoint in the spec and its domain rule is picked up by everything else', () => {
  it('is not in the SDK yet (the checks below are about the copy)', () => {
    expect(specOperations().map((op) => op.id)).not.toContain(ID);
    expect(OPERATION_CASES.map((row) => row.id)).not.toContain(ID);
    expect(readFileSync(path.join(root, 'src/testing/features/sales/coupons.ts'), 'utf8')).not.toContain(ID);
  });

  it('enters the operation table with what the transport and the sandbox route read', async () => {
    const { operations } = (await import(
      pathToFileURL(path.join(dir, 'src/generated/operations.ts')).href
    )) as {
      operations: Record<string, Record<string, unknown>>;
    };
    // routeFor (src/testing/http/operations.ts) takes method, path, permission and idempotency from here.
    expect(operations[ID]).toMatchObject({
      method: 'POST',
      path: '/v1/coupons/{id}/fake-archive',
      pathParams: [{ name: 'id', type: 'integer' }],
      permission: 'coupons:write',
      idempotency: 'optional',
      successStatus: 200,
      errorCodes: ['VALIDATION_ERROR', 'NOT_FOUND', 'IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_MISMATCH'],
    });
  });

  it('gets a client method, a params type, its index entry and the body rules the sandbox reads', () => {
    expect(resources.get('coupons.ts')).toMatch(
      /fakeArchive\(\s*id: number,\s*params\?: CouponsFakeArchiveParams,\s*options\?: RequestOptions,?\s*\): APIPromise<Coupon>/,
    );
    expect(resources.get('coupons.ts')).toContain(`endpoints['${ID}']`);
    expect(files.get('params.coupons.ts')).toMatch(/^export type CouponsFakeArchiveParams = \{$/m);
    expect(files.get('params-index.ts')).toContain('CouponsFakeArchiveParams: P.CouponsFakeArchiveParams;');
    expect(files.get('request-rules.ts')).toMatch(
      /'coupons\.fakeArchive': \{\s*reason: \{ type: 'string' \}/,
    );
  });

  it('gets a row in the operation table test, from its spec example', () => {
    expect(fake).toMatchObject({ method: 'POST', pathParams: ['id'], record: 'Coupon' });
    const row = derivedCase(fake);
    expect({ ...row, call: typeof row.call }).toEqual({
      id: ID,
      call: 'function',
      method: 'POST',
      path: '/v1/coupons/2/fake-archive',
      body: { reason: 'Season over' },
      data: samples.Coupon,
    });
  });

  it('gets a step in the conformance sweep, from its spec example', () => {
    const step = derivedStep(fake);
    expect(step.id).toBe(ID);
    expect(step.params({})).toEqual({ path: { id: 2 }, body: { reason: 'Season over' } });
  });

  it('is found by the sandbox’s route index in its one rule file: features/routes.ts is as it was', async () => {
    const real = await readFile(path.join(root, 'src/testing/features/routes.ts'), 'utf8');
    expect(real).toContain('...ruleRoutes(couponRules');
    expect(scratchRoutes).toBe(real);
    const changed: string[] = [];
    const sandboxFiles = await readdir(path.join(root, 'src/testing'), { recursive: true });
    expect(sandboxFiles.length).toBeGreaterThan(100);
    for (const file of sandboxFiles.filter((name) => name.endsWith('.ts'))) {
      const before = await readFile(path.join(root, 'src/testing', file), 'utf8');
      if ((await readFile(path.join(dir, 'src/testing', file), 'utf8')) !== before) changed.push(file);
    }
    expect(changed).toEqual([path.join('features', 'sales', 'coupons.ts')]);
  });

  it('is served by the sandbox from that rule, over HTTP on 127.0.0.1', async () => {
    const { createSandbox } = (await import(
      pathToFileURL(path.join(dir, 'src/testing/index.ts')).href
    )) as typeof import('../../src/testing/index.js');
    const sandbox = createSandbox({ now: '2026-10-01T15:20:00.000Z' });
    const server = await sandbox.listen();
    const post = async (id: number, body: unknown, key = sandbox.createKey()) => {
      const response = await fetch(`${server.url}/v1/coupons/${id}/fake-archive`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    };
    try {
      const archived = await post(2, { reason: 'Season over' });
      expect([archived.status, archived.json.data]).toMatchObject([
        200,
        { object: 'coupon', id: 2, active: false, name: expect.stringMatching(/ \(Season over\)$/) },
      ]);
      expect((await post(2, { reason: 7 })).json.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { reason: ['must be a string'] },
      });
      expect((await post(99, {})).status).toBe(404);
      const readOnly = sandbox.createKey({ permissions: ['coupons:read'] });
      expect((await post(2, {}, readOnly)).json.error.details).toEqual({ required: 'coupons:write' });
    } finally {
      await server.close();
    }
  });

  it('is refused a row when its example passes something other than literals, naming it', () => {
    const withDate = { ...fake, example: `await shop.${ID}(15, { at: new Date() });` };
    expect(() => exampleArguments(withDate)).toThrow(
      /coupons\.fakeArchive: its example's arguments are not literals/,
    );
    const withName = { ...fake, example: `await shop.${ID}(couponId);` };
    expect(() => exampleArguments(withName)).toThrow(/not literals/);
  });
});

// The derived rows hold on the SDK's own endpoints: every operation whose example passes only literals gets
// a row that its real client method satisfies over HTTP (what operations.test.ts checks of each row).
describe('rows derived from the spec, on the SDK’s own endpoints', () => {
  const api = mockApi();
  const literal = specOperations().filter((op) => {
    try {
      exampleArguments(op);
      return true;
    } catch {
      return false;
    }
  });

  it('cover most operations (the others keep their hand rows)', () => {
    expect(literal.length).toBeGreaterThan(30);
  });

  it.each(literal.map((op) => [op.id, op] as const))('%s sends what its derived row says', async (_, op) => {
    const row = derivedCase(op);
    const list = /\.list\w*$/.test(op.id);
    api.respond(() =>
      list
        ? ok([row.data], { meta: { limit: 50, has_more: false, next_cursor: null, count: 1 } })
        : ok(row.data),
    );
    await row.call(client());
    expect(api.requests).toHaveLength(1);
    const [sent] = api.requests;
    expect({ method: sent?.method, path: sent?.path, query: sent?.query, body: sent?.body }).toEqual({
      method: row.method,
      path: row.path,
      query: row.query ?? {},
      body: row.body,
    });
  });
});
