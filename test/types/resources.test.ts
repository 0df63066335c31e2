// Type tests of the resource methods: checked by `tsc -p test/tsconfig.json`. Calls sit inside functions that
// are never run and `shop` exists only as a type, so vitest sends nothing; the runtime half is in test/resources/.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ShopClient } from '../../src/client.js';
import type { APIPromise } from '../../src/core/api/api-promise.js';
import type { Page, PagePromise } from '../../src/core/api/pagination.js';
import type { RangeReservationLineKind, RangeReservationStatus } from '../../src/generated/enums.js';
import type {
  GiftCertificate,
  MembershipCharge,
  MembershipDetail,
  RangeAvailability,
  RangeRentalCheckout,
  RangeRentalDetail,
  RangeReservation,
  ReservationCancelResult,
} from '../../src/generated/schemas.js';
import type { ShopEvent } from '../../src/webhooks/events.js';

declare const shop: ShopClient;

describe('resource method types', () => {
  it('types single-record results as the unwrapped resource', () => {
    expectTypeOf<ReturnType<ShopClient['range']['reservations']['retrieve']>>().toEqualTypeOf<
      APIPromise<RangeReservation>
    >();
    expectTypeOf<ReturnType<ShopClient['range']['rentals']['retrieve']>>().toEqualTypeOf<
      APIPromise<RangeRentalDetail>
    >();
    expectTypeOf<ReturnType<ShopClient['memberships']['retrieve']>>().toEqualTypeOf<
      APIPromise<MembershipDetail>
    >();
    expectTypeOf<ReturnType<ShopClient['range']['reservations']['cancel']>>().toEqualTypeOf<
      APIPromise<ReservationCancelResult>
    >();
    expectTypeOf<ReturnType<ShopClient['range']['availability']['list']>>().toEqualTypeOf<
      APIPromise<RangeAvailability[]>
    >();
    expectTypeOf<RangeRentalDetail['recent_checkouts']>().toEqualTypeOf<RangeRentalCheckout[]>();
    expectTypeOf<MembershipDetail['charges']>().toEqualTypeOf<MembershipCharge[]>();
    expectTypeOf<ReservationCancelResult['requires_manual_refund']>().toEqualTypeOf<boolean>();
  });

  it('types reservation.status as the open enum: known values offered, any string accepted', () => {
    expectTypeOf<RangeReservation['status']>().toEqualTypeOf<RangeReservationStatus>();
    expectTypeOf<'no_show'>().toExtend<RangeReservation['status']>();
    expectTypeOf<'a_state_added_later'>().toExtend<RangeReservation['status']>();
    expectTypeOf<RangeReservation['status']>().not.toEqualTypeOf<string>();
  });

  it('types list pages down to page.data[0].lines[0].kind', () => {
    expectTypeOf<ReturnType<ShopClient['range']['reservations']['list']>>().toEqualTypeOf<
      PagePromise<RangeReservation>
    >();
    const walk = async () => {
      const page = await shop.range.reservations.list({ status: 'booked' });
      expectTypeOf(page).toEqualTypeOf<Page<RangeReservation>>();
      expectTypeOf(page.data[0]?.lines[0]?.kind).toEqualTypeOf<RangeReservationLineKind | undefined>();
      for await (const reservation of shop.range.reservations.list()) {
        expectTypeOf(reservation.class_session_id).toEqualTypeOf<number | null>();
      }
    };
    expect(typeof walk).toBe('function');
  });

  it('types the event feed as the typed event union the webhooks deliver, so one handler serves both', () => {
    expectTypeOf<ReturnType<ShopClient['events']['list']>>().toEqualTypeOf<PagePromise<ShopEvent>>();
    const handle = (event: ShopEvent): string | undefined => {
      switch (event.type) {
        case 'range.reservation.booked':
          return event.data.object.status;
        default:
          return undefined;
      }
    };
    const replay = async () => {
      for await (const event of shop.events.list({ type: 'range.reservation.booked' })) handle(event);
    };
    expect(typeof replay).toBe('function');
  });

  it('types the named fields of loosely typed results, and nothing else', () => {
    expectTypeOf<ReturnType<ShopClient['giftCertificates']['redeem']>>().toEqualTypeOf<
      APIPromise<GiftCertificate>
    >();
    expectTypeOf<GiftCertificate['balance_cents']>().toEqualTypeOf<number | undefined>();
    // A field the reference does not document is kept at runtime but not typed.
    // @ts-expect-error not a documented field
    expectTypeOf<GiftCertificate['anything_else']>().toEqualTypeOf<unknown>();
  });

  it('refuses unknown methods, missing required params and non-numeric ids at compile time', () => {
    const misuse = async () => {
      // @ts-expect-error: no such method
      shop.range.reservations.delete(1);
      // @ts-expect-error: no such group
      shop.range.lanes.list();
      // @ts-expect-error: neither resource_ids (lane mode) nor class_session_id (class mode)
      await shop.range.reservations.create({ party_size: 2 });
      // @ts-expect-error: lane mode needs the time window
      await shop.range.reservations.create({ resource_ids: [12], party_size: 2 });
      // @ts-expect-error: starts_at and ends_at are required
      await shop.range.availability.list({ party_size: 2 });
      // @ts-expect-error: billing_method is required
      await shop.memberships.create({ customer_id: 1, plan_id: 2 });
      // @ts-expect-error: path ids are numbers
      await shop.range.reservations.retrieve('5001');
      // @ts-expect-error: check-in takes no body
      await shop.range.reservations.checkIn(5001, { note: 'x' });
    };
    expect(typeof misuse).toBe('function');
  });

  it('refuses a key the reference does not name on a documented endpoint, and keeps loose ones open', () => {
    const misspelled = async () => {
      // @ts-expect-error: `stauts` is not a filter of range.reservations.list
      shop.range.reservations.list({ stauts: 'booked' });
      // @ts-expect-error: `limt` is not a parameter of events.list
      shop.events.list({ limt: 10 });
      // @ts-expect-error: `start_at` is not a parameter of availability (starts_at is)
      await shop.range.availability.list({ starts_at: 'a', ends_at: 'b', start_at: 'c' });
      // @ts-expect-error: nested objects are closed too: `mail` is not a contact field
      await shop.range.reservations.create({ class_session_id: 90, party_size: 2, contact: { mail: 'x' } });
      // @ts-expect-error: memberships.create names its fields; `plan` is not one
      await shop.memberships.create({ customer_id: 1, plan_id: 2, billing_method: 'counter', plan: 2 });
      // The reference leaves these shapes open: fields it does not name are still accepted.
      await shop.giftCertificates.reload(71, { amount_cents: 2500, memo: 'Birthday' });
      await shop.locations.update(1, { name: 'Elsewhere' });
    };
    expect(typeof misspelled).toBe('function');
  });

  it('accepts both booking modes and every documented booking field', () => {
    const book = async () => {
      await shop.range.reservations.create({ class_session_id: 90, party_size: 2, paid: false });
      await shop.range.reservations.create(
        {
          resource_ids: [12],
          starts_at: new Date(),
          ends_at: '2026-10-01T16:00:00Z',
          party_size: 2,
          customer_id: 8801,
          customer: {
            email: 'dana@example.com',
            first_name: 'Dana',
            last_name: 'Reyes',
            phone: '+1-555-0100',
          },
          contact: { name: 'Dana Reyes', email: 'dana@example.com', phone: '+1-555-0100' },
          paid: true,
          amount_cents: 4500,
          external_reference: 'web-1042',
          notes: 'Left-handed shooter',
        },
        { idempotencyKey: 'booking-web-1042', timeout: 10_000 },
      );
    };
    expect(typeof book).toBe('function');
  });
});
