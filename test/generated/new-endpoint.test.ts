// Adding an endpoint is the spec, its domain rule in the sandbox and a CHANGELOG line (issue 34). This test
// adds a fake endpoint (`coupons.fakeArchive`, POST /v1/coupons/{id}/fake-archive, a name no real endpoint will take) to a copy of the spec, runs
// the generator on the copy into a scratch folder, and checks that everything else picks it up with no file
// edited: the operation table (what the transport and the sandbox's `routeFor` read), the client method,
// the params type and its index, the body rules the sandbox reads a request by, the per-operation test
// table (test/resources/operation-table.ts), the conformance sweep (test/e2e/support/sweep.ts).
//
// Still hand-written for a new endpoint: the spec entry; the sandbox's rule (features/<feature>/<x>.ts) and
// its route in the feature's routes file (a `bodyRoute`/`routeFor` line: the handler is domain code); the
// CHANGELOG line. Beside those, only when they apply: a hand row in the test tables (an example whose
// arguments are not literals), the reference copy (test/support/reference.ts) when the reference itself
// changes, and for a new record type its sample (test/generated/samples.ts) and the records type test list.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '../../scripts/generator/index.js';
import { generateResources } from '../../scripts/generator/resource-files.js';
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
    post:
      operationId: ${ID}
      x-codeSamples:
        - lang: TypeScript
          label: shop-mgmt
          source: |-
            await shop.${ID}(15, { reason: 'Season over' });
      tags: [Coupons]
      summary: Archive a coupon (a test-only endpoint)
      description: Turns a coupon off and fires coupon.updated. The response shape is not shown.
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
          content:
            application/json:
              schema:
                type: object
                required: [status, data]
                properties:
                  status: {const: ok}
                  data: {$ref: '#/components/schemas/Coupon'}
        '404': {$ref: '#/components/responses/NotFound'}
`;

let dir: string;
let specCopy: string;
let files: Map<string, string>;
let resources: Map<string, string>;
let fake: SpecOperation;

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
  const out = path.join(dir, 'generated');
  files = await generate({ specPath: specCopy, targetDir: out, root });
  await writeFiles(out, files);
  resources = (await generateResources(specCopy, root, files)).files;
  fake = specOperations(specCopy).find((op) => op.id === ID)!;
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a new endpoint in the spec is picked up by everything but its domain rule', () => {
  it('is not in the SDK yet (the checks below are about the copy)', () => {
    expect(specOperations().map((op) => op.id)).not.toContain(ID);
    expect(OPERATION_CASES.map((row) => row.id)).not.toContain(ID);
  });

  it('enters the operation table with what the transport and the sandbox route read', async () => {
    const { operations } = (await import(pathToFileURL(path.join(dir, 'generated/operations.ts')).href)) as {
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
      path: '/v1/coupons/15/fake-archive',
      body: { reason: 'Season over' },
      data: samples.Coupon,
    });
  });

  it('gets a step in the conformance sweep, from its spec example', () => {
    const step = derivedStep(fake);
    expect(step.id).toBe(ID);
    expect(step.params({})).toEqual({ path: { id: 15 }, body: { reason: 'Season over' } });
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
