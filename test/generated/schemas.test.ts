import { describe, expect, it } from 'vitest';
import type { ZodMiniType } from 'zod/mini';
import { RANGE_RESERVATION_STATUSES } from '../../src/generated/enums.js';
import { ERROR_CODE_STATUS, ERROR_CODES } from '../../src/generated/error-codes.js';
import { EVENT_TYPES } from '../../src/generated/event-types.js';
import { EVENT_PAYLOAD_SCHEMAS } from '../../src/generated/events.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import { operations } from '../../src/generated/operations.js';
import { RangeReservationsListParamsSchema } from '../../src/generated/params.js';
import * as schemas from '../../src/generated/schemas.js';
import { isOpenEnum } from '../../src/internal/schema-helpers.js';
import { parseInEnglish } from '../support/english.js';
import { REFERENCE_ERROR_STATUS, REFERENCE_RESERVATION_STATUSES } from '../support/reference.js';
import { openEnumFields, samples } from './samples.js';

const componentSchemas = Object.fromEntries(
  Object.entries(schemas)
    .filter(([name]) => name.endsWith('Schema'))
    .map(([name, schema]) => [name.slice(0, -'Schema'.length), schema as ZodMiniType]),
);
// Components that are a shared value list rather than a record: held to their own test below.
const ENUM_COMPONENTS = ['RangeReservationStatus'];
const names = Object.keys(componentSchemas)
  .filter((name) => !ENUM_COMPONENTS.includes(name))
  .sort();

function schemaOf(name: string): ZodMiniType {
  const schema = componentSchemas[name];
  if (!schema) throw new Error(`no generated schema ${name}Schema`);
  return schema;
}

function sampleOf(name: string): Record<string, unknown> {
  const sample = samples[name];
  if (!sample) throw new Error(`no sample for ${name}`);
  return structuredClone(sample);
}

/** The one issue a parse must fail with, as `path: message`. */
function onlyIssue(schema: ZodMiniType, input: unknown): string {
  const result = parseInEnglish(schema, input);
  expect(result.success).toBe(false);
  const issues = result.error?.issues ?? [];
  expect(issues).toHaveLength(1);
  return `${issues[0]!.path.join('.')}: ${issues[0]!.message}`;
}

/** The zod definition of `schema`, where the walk below needs to look inside. */
interface Def {
  readonly type: string;
  readonly innerType?: ZodMiniType;
  readonly element?: ZodMiniType;
  readonly shape?: Record<string, ZodMiniType>;
}
const defOf = (schema: ZodMiniType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const components = new Set(Object.values(componentSchemas));

/**
 * The open-enum fields of `schema`, as paths: its own fields, and those of objects written inline in it
 * (a component it refers to has fields of its own, listed under its own name).
 */
function openEnumPaths(schema: ZodMiniType, prefix = ''): string[] {
  const def = defOf(schema);
  if (def.innerType) return openEnumPaths(def.innerType, prefix);
  if (def.element) return openEnumPaths(def.element, prefix);
  if (def.type !== 'object' || !def.shape) return [];
  return Object.entries(def.shape).flatMap(([key, field]) => {
    const path = `${prefix}${key}`;
    let inner = field;
    for (let def = defOf(inner); def.innerType || def.element; def = defOf(inner)) {
      inner = (def.innerType ?? def.element) as ZodMiniType;
    }
    if (isOpenEnum(inner)) return [path];
    return components.has(inner) ? [] : openEnumPaths(inner, `${path}.`);
  });
}

describe('component schemas', () => {
  it('has a hand-written sample for every component schema, and no sample without a schema', () => {
    expect(Object.keys(samples).sort()).toEqual(names);
  });

  it('tests an unknown value of every open-enum field: the hand list names each one', () => {
    const found = Object.fromEntries(
      names
        .map((name) => [name, openEnumPaths(schemaOf(name)).sort()] as const)
        .filter(([, paths]) => paths.length > 0),
    );
    const listed = Object.fromEntries(
      Object.entries(openEnumFields).map(([name, fields]) => [name, [...fields].sort()]),
    );
    expect(Object.keys(found).length).toBeGreaterThan(10); // the walk finds fields at all
    expect(listed).toEqual(found);
  });

  describe.each(names)('%s', (name) => {
    const schema = schemaOf(name);

    it('parses a realistic sample with every field, unchanged', () => {
      const sample = sampleOf(name);
      const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      expect(Object.keys(sample)).toEqual(expect.arrayContaining(Object.keys(shape)));
      expect(schema.parse(sample)).toEqual(sample);
    });

    it('keeps a field added by a later API version', () => {
      const sample = { ...sampleOf(name), added_in_2027: { nested: [1, 'two'] } };
      expect(schema.parse(sample)).toEqual(sample);
    });

    it.each(openEnumFields[name] ?? [])('accepts and keeps an unknown value of %s', (field) => {
      const sample = { ...sampleOf(name), [field]: 'value_added_later' };
      expect((schema.parse(sample) as Record<string, unknown>)[field]).toBe('value_added_later');
    });

    const sample = sampleOf(name);
    const ids = typeof sample.id === 'number' ? ['id'] : [];
    it.each(ids)('rejects an id sent as a string, naming %s', (field) => {
      expect(onlyIssue(schema, { ...sample, [field]: '5001' })).toBe(
        `${field}: Invalid input: expected number, received string`,
      );
    });

    const cents = Object.keys(sample).filter(
      (key) => key.endsWith('_cents') && typeof sample[key] === 'number',
    );
    it.each(cents)('rejects cents with decimals in %s', (field) => {
      expect(onlyIssue(schema, { ...sample, [field]: 12.5 })).toBe(
        `${field}: Invalid input: expected int, received number`,
      );
    });

    const timestamps = Object.keys(sample).filter(
      (key) => /_at$/.test(key) && typeof sample[key] === 'string' && String(sample[key]).endsWith('Z'),
    );
    it.each(timestamps)('rejects %s without the trailing Z', (field) => {
      expect(onlyIssue(schema, { ...sample, [field]: String(sample[field]).slice(0, -1) })).toBe(
        `${field}: Invalid ISO datetime`,
      );
    });
  });
});

describe('enum components', () => {
  it.each(ENUM_COMPONENTS)(
    '%s takes its known values and any later string, and refuses a non-string',
    (name) => {
      const schema = schemaOf(name);
      expect(schema.parse('booked')).toBe('booked');
      expect(schema.parse('value_added_later')).toBe('value_added_later');
      expect(schema.safeParse(5).success).toBe(false);
    },
  );

  it('is the one list every reservation status field refers to', () => {
    expect(schemas.RangeReservationSchema.shape.status).toBe(schemas.RangeReservationStatusSchema);
    for (const schema of [schemas.RangeReservationTransitionSchema, schemas.ReservationCancelResultSchema]) {
      expect(schema.shape.status.def.innerType).toBe(schemas.RangeReservationStatusSchema);
    }
  });
});

describe('paths, nullability and formats', () => {
  it('names the full path of a nested error', () => {
    const reservation = sampleOf('RangeReservation');
    (reservation.lines as Record<string, unknown>[])[1]!.unit_cents = 15.5;
    expect(onlyIssue(schemas.RangeReservationSchema, reservation)).toBe(
      'lines.1.unit_cents: Invalid input: expected int, received number',
    );

    const availability = sampleOf('RangeAvailability');
    (availability.resource as Record<string, unknown>).updated_at = '2026-09-24 14:05:00';
    expect(onlyIssue(schemas.RangeAvailabilitySchema, availability)).toBe(
      'resource.updated_at: Invalid ISO datetime',
    );
  });

  it('accepts null where the reference allows it and rejects it elsewhere', () => {
    const rental = { ...sampleOf('RangeRental'), checkout: null, last_serviced_on: null };
    expect(schemas.RangeRentalSchema.parse(rental)).toEqual(rental);
    expect(onlyIssue(schemas.RangeRentalSchema, { ...rental, serial_number: null })).toBe(
      'serial_number: Invalid input: expected string, received null',
    );
  });

  it('rejects a missing required field', () => {
    const { status: _status, ...reservation } = sampleOf('RangeReservation');
    expect(onlyIssue(schemas.RangeReservationSchema, reservation)).toBe(
      'status: Invalid input: expected string, received undefined',
    );
  });

  it('requires UTC timestamps and YYYY-MM-DD dates', () => {
    const reservation = sampleOf('RangeReservation');
    expect(
      onlyIssue(schemas.RangeReservationSchema, { ...reservation, starts_at: '2026-10-01T15:00:00+02:00' }),
    ).toBe('starts_at: Invalid ISO datetime');
    const membership = sampleOf('Membership');
    expect(onlyIssue(schemas.MembershipSchema, { ...membership, started_on: '2026-01-05T00:00:00Z' })).toBe(
      'started_on: Invalid ISO date',
    );
  });

  it('accepts an event of a type added later, and any payload object in the envelope', () => {
    const event = { ...sampleOf('Event'), type: 'range.lane.reset', data: { object: { object: 'lane' } } };
    expect(schemas.EventSchema.parse(event)).toEqual(event);
  });
});

describe('generated tables', () => {
  it('lists the reservation states of the reference, in its order', () => {
    expect(RANGE_RESERVATION_STATUSES).toEqual(REFERENCE_RESERVATION_STATUSES);
  });

  it('maps every section 7 error code to its HTTP status', () => {
    const expected = REFERENCE_ERROR_STATUS;
    expect({ ...ERROR_CODE_STATUS }).toEqual(expected);
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(expected).sort());
  });

  it('has a payload schema for every known event type', () => {
    expect(Object.keys(EVENT_PAYLOAD_SCHEMAS)).toEqual([...EVENT_TYPES]);
    expect(EVENT_TYPES).toEqual(
      expect.arrayContaining([
        'range.reservation.booked',
        'range.rental.checked_in',
        'membership.payment_failed',
      ]),
    );
    expect(EVENT_PAYLOAD_SCHEMAS['range.reservation.booked']).toBe(schemas.RangeReservationSchema);
    const payload = EVENT_PAYLOAD_SCHEMAS['range.rental.checked_in'].parse(
      samples.RangeRentalCheckedInPayload,
    );
    expect(payload.last_checkout.rounds_fired).toBe(150);
  });

  it('describes the booking endpoint as the reference does', async () => {
    const create = operations['range.reservations.create'];
    expect(create).toMatchObject({
      method: 'POST',
      path: '/v1/range/reservations',
      pathParams: [],
      pagination: null,
      successStatus: 201,
      permission: 'range:write',
      idempotency: 'optional',
      undocumented: false,
    });
    // The table holds a loader, which resolves to the entry of the schemas' own module.
    expect(await create.schemas()).toBe(OPERATION_SCHEMAS['range.reservations.create']);
    expect(OPERATION_SCHEMAS['range.reservations.create']).toMatchObject({
      query: null,
      result: schemas.RangeReservationSchema,
    });
    expect(create.errorCodes).toEqual(
      expect.arrayContaining([
        'RESOURCE_UNAVAILABLE',
        'SESSION_FULL',
        'INVALID_SESSION',
        'CONSTRAINT_VIOLATION',
      ]),
    );
    expect(operations['range.reservations.list'].pagination).toBe('cursor');
    expect(operations['range.reservations.cancel'].pathParams).toEqual([{ name: 'id', type: 'integer' }]);
    expect(operations['customers.storeCredit.redeem'].idempotency).toBe('required');
    expect(operations['range.reservations.checkIn'].undocumented).toBe(true);
  });

  it('takes date-time params as strings or Dates, and sends a Date as its ISO string', () => {
    const parsed = RangeReservationsListParamsSchema.parse({
      from: new Date('2026-10-01T00:00:00Z'),
      to: '2026-10-31T00:00:00Z',
      status: 'booked',
    });
    expect(parsed).toEqual({
      from: '2026-10-01T00:00:00.000Z',
      to: '2026-10-31T00:00:00Z',
      status: 'booked',
    });
    expect(RangeReservationsListParamsSchema.safeParse({ limit: '50' }).success).toBe(false);
    // A documented endpoint's params are closed: a key the reference does not name is refused.
    expect(RangeReservationsListParamsSchema.safeParse({ some_new_filter: 'x' }).success).toBe(false);
  });
});
