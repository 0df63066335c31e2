// Type tests of src/generated: checked by `npm run typecheck` (tsc over test/), run as no-ops by vitest.
import { describe, expectTypeOf, it } from 'vitest';
import type { ShopClient } from '../../src/client.js';
import type { APIPromise } from '../../src/core/api/api-promise.js';
import type { OperationResult } from '../../src/core/api/operation.js';
import { RANGE_RESERVATION_STATUSES, type RangeReservationStatus } from '../../src/generated/enums.js';
import { ERROR_CODE_STATUS, type ErrorCode } from '../../src/generated/error-codes.js';
import type { EventType } from '../../src/generated/event-types.js';
import type { EventPayloadMap } from '../../src/generated/events.js';
import { operations } from '../../src/generated/operations.js';
import type {
  RangeReservationsCreateParams,
  RangeReservationsListParams,
} from '../../src/generated/params.js';
import type { RangeRental, RangeReservation } from '../../src/generated/schemas.js';
import type { REFERENCE_RESERVATION_STATUSES } from '../support/reference.js';

type KnownStatus =
  | 'held'
  | 'booked'
  | 'checked_in'
  | 'in_progress'
  | 'completed'
  | 'cancelled'
  | 'no_show'
  | 'released';

describe('generated types', () => {
  it('types an enum field as the open union of its known values', () => {
    expectTypeOf<RangeReservation['status']>().toEqualTypeOf<KnownStatus | (string & {})>();
    expectTypeOf<RangeReservationStatus>().toEqualTypeOf<KnownStatus | (string & {})>();
    // A value added by a later API version still type-checks; a number does not.
    expectTypeOf<'on_hold_for_weather'>().toExtend<RangeReservation['status']>();
    expectTypeOf<number>().not.toExtend<RangeReservation['status']>();
  });

  it('exports the known values as a readonly tuple in the reference order', () => {
    expectTypeOf(RANGE_RESERVATION_STATUSES).toEqualTypeOf<typeof REFERENCE_RESERVATION_STATUSES>();
    expectTypeOf<(typeof RANGE_RESERVATION_STATUSES)[number]>().toEqualTypeOf<KnownStatus>();
  });

  it('types nullable, nested and extra fields', () => {
    expectTypeOf<RangeReservation['class_session_id']>().toEqualTypeOf<number | null>();
    expectTypeOf<RangeReservation['id']>().toEqualTypeOf<number>();
    expectTypeOf<RangeRental['checkout']>().toExtend<{ rental_id: number } | null>();
    expectTypeOf<RangeReservation['lines'][number]['product_id']>().toEqualTypeOf<number | null>();
    // Only documented fields are typed: a field added later is kept at runtime, not typed, so a typo of a
    // documented one does not compile as `unknown`.
    // @ts-expect-error not a field of RangeReservation
    expectTypeOf<RangeReservation['startsAt']>().toEqualTypeOf<unknown>();
  });

  it('infers each operation result from the table alone', () => {
    type Created = OperationResult<(typeof operations)['range.reservations.create']>;
    // The table's result is the schema's output; the client's methods return the record interface.
    expectTypeOf<Created['starts_at']>().toEqualTypeOf<RangeReservation['starts_at']>();
    expectTypeOf<ReturnType<ShopClient['range']['reservations']['create']>>().toEqualTypeOf<
      APIPromise<RangeReservation>
    >();
    type Availability = OperationResult<(typeof operations)['range.availability.list']>;
    expectTypeOf<Availability[number]['price_cents']>().toEqualTypeOf<number>();
    expectTypeOf(operations['range.reservations.list'].pagination).toEqualTypeOf<'cursor'>();
  });

  it('types params as inputs: Date accepted for timestamps, path ids left out', () => {
    expectTypeOf<RangeReservationsListParams['from']>().toEqualTypeOf<string | Date | undefined>();
    expectTypeOf<{
      class_session_id: number;
      party_size: number;
    }>().toExtend<RangeReservationsCreateParams>();
    expectTypeOf<{ party_size: number }>().not.toExtend<RangeReservationsCreateParams>();
  });

  it('maps event types to payload types and error codes to statuses', () => {
    expectTypeOf<EventPayloadMap['range.reservation.booked']>().toEqualTypeOf<RangeReservation>();
    expectTypeOf<'range.reservation.booked'>().toExtend<EventType>();
    expectTypeOf<'SESSION_FULL'>().toExtend<ErrorCode>();
    expectTypeOf(ERROR_CODE_STATUS.SESSION_FULL).toEqualTypeOf<409>();
    expectTypeOf(ERROR_CODE_STATUS.MEMBERSHIP_FULL).toEqualTypeOf<null>();
  });
});
