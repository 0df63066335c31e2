// Wrong values do not compile: request enums are closed unions (newerValue() sends a value newer than the
// SDK), err.is() takes only the codes the SDK knows (err.code === '...' compares a newer one), and records
// type their documented fields only (a field a later API version adds is kept at runtime, not typed).
// Checked by `npm run typecheck` (tsc over test/): each @ts-expect-error fails the check when the line
// compiles. The runtime half shows that what the types refuse still works where it should.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ShopClient } from '../../src/client.js';
import { ShopApiError } from '../../src/core/errors/index.js';
import { newerValue } from '../../src/core/validation/newer-value.js';
import type { RangeReservation } from '../../src/generated/schemas.js';
import type { RangeReservationsListParams } from '../../src/schemas.js';

declare const shop: ShopClient;
declare const reservation: RangeReservation;
declare const err: ShopApiError;

/** Type-only uses: never called. */
function compileOnly(): void {
  void shop.range.reservations.list({ status: 'booked' });
  // @ts-expect-error 'confirmed' is not a reservation status
  void shop.range.reservations.list({ status: 'confirmed' });
  // @ts-expect-error 'lost' is not a rental status this SDK knows
  void shop.range.rentals.list({ status: 'lost' });
  void shop.range.rentals.list({ status: newerValue('lost') }); // the escape hatch compiles

  if (err.is('NOT_FOUND')) void err.details;
  // @ts-expect-error a misspelt code
  err.is('NOT_FOUNDD');
  if (err.code === 'A_CODE_NEWER_THAN_THE_SDK') void err.details; // comparing code compiles

  void reservation.starts_at;
  // @ts-expect-error camelCase is not a field: the wire is snake_case
  void reservation.startsAt;
}
void compileOnly;

describe('closed request types', () => {
  it('type a documented filter as its values only', () => {
    expectTypeOf<RangeReservationsListParams['status']>().toEqualTypeOf<
      | 'held'
      | 'booked'
      | 'checked_in'
      | 'in_progress'
      | 'completed'
      | 'cancelled'
      | 'no_show'
      | 'released'
      | undefined
    >();
  });

  it('newerValue returns the string as given, for the server to judge', () => {
    expect(newerValue('lost')).toBe('lost');
  });

  it('is() compares the code at runtime', () => {
    const error = new ShopApiError({
      status: 404,
      code: 'NOT_FOUND',
      message: 'No such reservation',
      details: {},
      headers: new Headers(),
    } as ConstructorParameters<typeof ShopApiError>[0]);
    expect(error.is('NOT_FOUND')).toBe(true);
    expect(error.is('INVALID_STATE')).toBe(false);
  });
});
