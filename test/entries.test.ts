// The front door (issue 34): the root entry holds the client, the errors, pagination, the options and the
// helpers a partner calls; records, params and value lists are in shop-mgmt/schemas; the names DESIGN.md fixes
// stay where it puts them. Read from the sources' exports with the TypeScript compiler (types included).
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRIES = {
  root: 'src/index.ts',
  schemas: 'src/schemas.ts',
  webhooks: 'src/webhooks/index.ts',
  sync: 'src/sync/engine/index.ts',
  otel: 'src/otel.ts',
  testing: 'src/testing/index.ts',
} as const;

const program = ts.createProgram(Object.values(ENTRIES), {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();
function exportsOf(entry: keyof typeof ENTRIES): Set<string> {
  const source = program.getSourceFile(ENTRIES[entry]);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`no module for ${ENTRIES[entry]}`);
  return new Set(checker.getExportsOfModule(symbol).map((exported) => exported.name));
}
const root = exportsOf('root');
const schemas = exportsOf('schemas');

describe('the root entry', () => {
  it('exports the names DESIGN.md puts there', () => {
    const design = [
      'ShopClient',
      'ClientOptions',
      'Page',
      'PagePromise',
      'ShopError',
      'ShopApiError',
      'BadRequestError',
      'AuthenticationError',
      'PaymentRequiredError',
      'PermissionDeniedError',
      'NotFoundError',
      'MethodNotAllowedError',
      'ConflictError',
      'UnprocessableEntityError',
      'RateLimitError',
      'InternalServerError',
      'ConnectionError',
      'TimeoutError',
      'InvalidResponseError',
      'ResponseValidationError',
      'WebhookVerificationError',
    ];
    expect(design.filter((name) => !root.has(name))).toEqual([]);
  });

  it('leaves records, params, value lists and the lazy-loading internals out', () => {
    const moved = [
      'RangeReservation',
      'RangeReservationsCreateParams',
      'RangeReservationStatus',
      'RANGE_RESERVATION_STATUSES',
      'CARD_TRANSACTION_KINDS',
      'ERROR_CODES',
      'EVENT_TYPES',
      'RangeReservationsApi',
      'OperationGuardsLoader',
      'OperationSchemasLoader',
    ];
    expect(moved.filter((name) => root.has(name))).toEqual([]);
    // The only ALL_CAPS names left are the tracing channels and the version, none of them a list.
    expect([...root].filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name)).sort()).toEqual([
      'ATTEMPT_CHANNEL',
      'REQUEST_CHANNEL',
      'VERSION',
    ]);
    expect(root.size).toBeLessThanOrEqual(110);
  });

  it('keeps the resource group classes in the resources namespace, at run time too', async () => {
    const module = (await import('../src/index.js')) as unknown as Record<string, Record<string, unknown>>;
    expect(root.has('resources')).toBe(true);
    expect(typeof module.resources?.RangeReservationsApi).toBe('function');
    expect(Object.keys(module).filter((name) => /Api$/.test(name))).toEqual([]);
  });
});

describe('shop-mgmt/schemas', () => {
  it('holds what left the root: records, params, value lists, error codes, event types', async () => {
    const moved = [
      'RangeReservation',
      'RangeReservationSchema',
      'RangeReservationsCreateParams',
      'RangeReservationStatus',
      'RANGE_RESERVATION_STATUSES',
      'ERROR_CODES',
      'ERROR_CODE_STATUS',
      'EVENT_TYPES',
      'EventType',
      'ShopEvent',
    ];
    expect(moved.filter((name) => !schemas.has(name))).toEqual([]);
    const module = (await import('../src/schemas.js')) as Record<string, unknown>;
    expect(module.RANGE_RESERVATION_STATUSES).toContain('booked');
  });
});

describe('the other entries DESIGN.md names', () => {
  it('keep their names', () => {
    const where: Record<Exclude<keyof typeof ENTRIES, 'root' | 'schemas'>, string[]> = {
      webhooks: [
        'verifyWebhook',
        'signPayload',
        'createWebhookHandler',
        'MemoryDedupeStore',
        'WebhookVerificationError',
      ],
      sync: ['ShopFleet', 'ShopSync'],
      otel: ['instrumentShop'],
      testing: ['createSandbox'],
    };
    for (const [entry, names] of Object.entries(where)) {
      const exported = exportsOf(entry as keyof typeof where);
      expect(
        names.filter((name) => !exported.has(name)),
        entry,
      ).toEqual([]);
    }
  });
});
