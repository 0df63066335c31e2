// Type tests: every record's interface and its zod schema's output (less the index signature of its loose
// objects) are the same type, both ways, so the documented interface an editor shows cannot drift from what
// validation checks. Checked by
// `npm run typecheck` (tsc over test/); the runtime test below keeps the list complete.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { output } from 'zod/mini';
import type * as S from '../../src/generated/schemas.js';

/**
 * A schema's output without the index signature its loose objects carry: a field a later API version adds
 * is kept at runtime, but the record interface types the documented fields only.
 */
type Known<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer Item)[]
    ? Known<Item>[]
    : T extends object
      ? [keyof Named<T>] extends [never]
        ? T // a map (Record<string, ...>): its index signature is its type
        : Named<T>
      : T;
type Named<T> = { [K in keyof T as string extends K ? never : K]: Known<T[K]> };

/** The records the type test below covers. */
const RECORDS = [
  'ListMeta',
  'AvailabilityMeta',
  'ApiError',
  'ErrorEnvelope',
  'RangeResource',
  'RangeClass',
  'RangeClassSession',
  'RangeReservationContact',
  'RangeReservationLine',
  'RangeReservation',
  'RangeReservationTransition',
  'ReservationCancelResult',
  'RangeAvailability',
  'RangeRentalCheckout',
  'RangeRental',
  'RangeRentalDetail',
  'RangeRentalCheckedInPayload',
  'CardTransaction',
  'ReturnLine',
  'Return',
  'MembershipPlan',
  'MembershipMember',
  'Membership',
  'MembershipCharge',
  'MembershipDetail',
  'MembershipChangedPayload',
  'GuestPassResult',
  'Event',
  'Ping',
  'InventoryLevel',
  'InventoryChangedPayload',
  'InventoryWriteResult',
  'SerializedItem',
  'ProductStorefront',
  'Product',
  'Location',
  'PurchaseOrderLine',
  'PurchaseOrder',
  'PurchaseOrderReceiveResult',
  'ReceivingLine',
  'Receiving',
  'OrderPayment',
  'OrderLine',
  'Customer',
  'Order',
  'GiftCertificate',
  'Coupon',
  'Invoice',
  'AccountPayment',
  'CustomerAccount',
  'StoreCredit',
  'Me',
  'DeletedObject',
] as const;

describe('record interfaces', () => {
  it('match the output of their schemas', () => {
    expectTypeOf<Known<output<typeof S.ListMetaSchema>>>().toEqualTypeOf<S.ListMeta>();
    expectTypeOf<Known<output<typeof S.AvailabilityMetaSchema>>>().toEqualTypeOf<S.AvailabilityMeta>();
    expectTypeOf<Known<output<typeof S.ApiErrorSchema>>>().toEqualTypeOf<S.ApiError>();
    expectTypeOf<Known<output<typeof S.ErrorEnvelopeSchema>>>().toEqualTypeOf<S.ErrorEnvelope>();
    expectTypeOf<Known<output<typeof S.RangeResourceSchema>>>().toEqualTypeOf<S.RangeResource>();
    expectTypeOf<Known<output<typeof S.RangeClassSchema>>>().toEqualTypeOf<S.RangeClass>();
    expectTypeOf<Known<output<typeof S.RangeClassSessionSchema>>>().toEqualTypeOf<S.RangeClassSession>();
    expectTypeOf<
      Known<output<typeof S.RangeReservationContactSchema>>
    >().toEqualTypeOf<S.RangeReservationContact>();
    expectTypeOf<
      Known<output<typeof S.RangeReservationLineSchema>>
    >().toEqualTypeOf<S.RangeReservationLine>();
    expectTypeOf<Known<output<typeof S.RangeReservationSchema>>>().toEqualTypeOf<S.RangeReservation>();
    expectTypeOf<
      Known<output<typeof S.RangeReservationTransitionSchema>>
    >().toEqualTypeOf<S.RangeReservationTransition>();
    expectTypeOf<
      Known<output<typeof S.ReservationCancelResultSchema>>
    >().toEqualTypeOf<S.ReservationCancelResult>();
    expectTypeOf<Known<output<typeof S.RangeAvailabilitySchema>>>().toEqualTypeOf<S.RangeAvailability>();
    expectTypeOf<Known<output<typeof S.RangeRentalCheckoutSchema>>>().toEqualTypeOf<S.RangeRentalCheckout>();
    expectTypeOf<Known<output<typeof S.RangeRentalSchema>>>().toEqualTypeOf<S.RangeRental>();
    expectTypeOf<Known<output<typeof S.RangeRentalDetailSchema>>>().toEqualTypeOf<S.RangeRentalDetail>();
    expectTypeOf<
      Known<output<typeof S.RangeRentalCheckedInPayloadSchema>>
    >().toEqualTypeOf<S.RangeRentalCheckedInPayload>();
    expectTypeOf<Known<output<typeof S.CardTransactionSchema>>>().toEqualTypeOf<S.CardTransaction>();
    expectTypeOf<Known<output<typeof S.ReturnLineSchema>>>().toEqualTypeOf<S.ReturnLine>();
    expectTypeOf<Known<output<typeof S.ReturnSchema>>>().toEqualTypeOf<S.Return>();
    expectTypeOf<Known<output<typeof S.MembershipPlanSchema>>>().toEqualTypeOf<S.MembershipPlan>();
    expectTypeOf<Known<output<typeof S.MembershipMemberSchema>>>().toEqualTypeOf<S.MembershipMember>();
    expectTypeOf<Known<output<typeof S.MembershipSchema>>>().toEqualTypeOf<S.Membership>();
    expectTypeOf<Known<output<typeof S.MembershipChargeSchema>>>().toEqualTypeOf<S.MembershipCharge>();
    expectTypeOf<Known<output<typeof S.MembershipDetailSchema>>>().toEqualTypeOf<S.MembershipDetail>();
    expectTypeOf<
      Known<output<typeof S.MembershipChangedPayloadSchema>>
    >().toEqualTypeOf<S.MembershipChangedPayload>();
    expectTypeOf<Known<output<typeof S.GuestPassResultSchema>>>().toEqualTypeOf<S.GuestPassResult>();
    expectTypeOf<Known<output<typeof S.EventSchema>>>().toEqualTypeOf<S.Event>();
    expectTypeOf<Known<output<typeof S.PingSchema>>>().toEqualTypeOf<S.Ping>();
    expectTypeOf<Known<output<typeof S.InventoryLevelSchema>>>().toEqualTypeOf<S.InventoryLevel>();
    expectTypeOf<
      Known<output<typeof S.InventoryChangedPayloadSchema>>
    >().toEqualTypeOf<S.InventoryChangedPayload>();
    expectTypeOf<
      Known<output<typeof S.InventoryWriteResultSchema>>
    >().toEqualTypeOf<S.InventoryWriteResult>();
    expectTypeOf<Known<output<typeof S.SerializedItemSchema>>>().toEqualTypeOf<S.SerializedItem>();
    expectTypeOf<Known<output<typeof S.ProductStorefrontSchema>>>().toEqualTypeOf<S.ProductStorefront>();
    expectTypeOf<Known<output<typeof S.ProductSchema>>>().toEqualTypeOf<S.Product>();
    expectTypeOf<Known<output<typeof S.LocationSchema>>>().toEqualTypeOf<S.Location>();
    expectTypeOf<Known<output<typeof S.PurchaseOrderLineSchema>>>().toEqualTypeOf<S.PurchaseOrderLine>();
    expectTypeOf<Known<output<typeof S.PurchaseOrderSchema>>>().toEqualTypeOf<S.PurchaseOrder>();
    expectTypeOf<
      Known<output<typeof S.PurchaseOrderReceiveResultSchema>>
    >().toEqualTypeOf<S.PurchaseOrderReceiveResult>();
    expectTypeOf<Known<output<typeof S.ReceivingLineSchema>>>().toEqualTypeOf<S.ReceivingLine>();
    expectTypeOf<Known<output<typeof S.ReceivingSchema>>>().toEqualTypeOf<S.Receiving>();
    expectTypeOf<Known<output<typeof S.OrderPaymentSchema>>>().toEqualTypeOf<S.OrderPayment>();
    expectTypeOf<Known<output<typeof S.OrderLineSchema>>>().toEqualTypeOf<S.OrderLine>();
    expectTypeOf<Known<output<typeof S.CustomerSchema>>>().toEqualTypeOf<S.Customer>();
    expectTypeOf<Known<output<typeof S.OrderSchema>>>().toEqualTypeOf<S.Order>();
    expectTypeOf<Known<output<typeof S.GiftCertificateSchema>>>().toEqualTypeOf<S.GiftCertificate>();
    expectTypeOf<Known<output<typeof S.CouponSchema>>>().toEqualTypeOf<S.Coupon>();
    expectTypeOf<Known<output<typeof S.InvoiceSchema>>>().toEqualTypeOf<S.Invoice>();
    expectTypeOf<Known<output<typeof S.AccountPaymentSchema>>>().toEqualTypeOf<S.AccountPayment>();
    expectTypeOf<Known<output<typeof S.CustomerAccountSchema>>>().toEqualTypeOf<S.CustomerAccount>();
    expectTypeOf<Known<output<typeof S.StoreCreditSchema>>>().toEqualTypeOf<S.StoreCredit>();
    expectTypeOf<Known<output<typeof S.MeSchema>>>().toEqualTypeOf<S.Me>();
    expectTypeOf<Known<output<typeof S.DeletedObjectSchema>>>().toEqualTypeOf<S.DeletedObject>();
  });

  it('cover every interface schemas.ts declares', () => {
    // schemas.ts re-exports the parts (schemas.<group>.ts ...) that declare them.
    const dir = new URL('../../src/generated/', import.meta.url);
    const source = readdirSync(dir)
      .filter((name) => name === 'schemas.ts' || /^schemas\..+\.ts$/.test(name))
      .map((name) => readFileSync(new URL(name, dir), 'utf8'))
      .join('\n');
    const declared = [...source.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    expect([...RECORDS].sort()).toEqual(declared.sort());
  });
});
