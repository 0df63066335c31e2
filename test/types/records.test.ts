// Type tests: every record's interface and its zod schema's output are the same type, both ways, so the
// documented interface an editor shows cannot drift from what validation checks. Checked by
// `npm run typecheck` (tsc over test/); the runtime test below keeps the list complete.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { output } from 'zod/mini';
import type * as S from '../../src/generated/schemas.js';

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
    expectTypeOf<output<typeof S.ListMetaSchema>>().toEqualTypeOf<S.ListMeta>();
    expectTypeOf<output<typeof S.AvailabilityMetaSchema>>().toEqualTypeOf<S.AvailabilityMeta>();
    expectTypeOf<output<typeof S.ApiErrorSchema>>().toEqualTypeOf<S.ApiError>();
    expectTypeOf<output<typeof S.ErrorEnvelopeSchema>>().toEqualTypeOf<S.ErrorEnvelope>();
    expectTypeOf<output<typeof S.RangeResourceSchema>>().toEqualTypeOf<S.RangeResource>();
    expectTypeOf<output<typeof S.RangeClassSchema>>().toEqualTypeOf<S.RangeClass>();
    expectTypeOf<output<typeof S.RangeClassSessionSchema>>().toEqualTypeOf<S.RangeClassSession>();
    expectTypeOf<output<typeof S.RangeReservationContactSchema>>().toEqualTypeOf<S.RangeReservationContact>();
    expectTypeOf<output<typeof S.RangeReservationLineSchema>>().toEqualTypeOf<S.RangeReservationLine>();
    expectTypeOf<output<typeof S.RangeReservationSchema>>().toEqualTypeOf<S.RangeReservation>();
    expectTypeOf<
      output<typeof S.RangeReservationTransitionSchema>
    >().toEqualTypeOf<S.RangeReservationTransition>();
    expectTypeOf<output<typeof S.ReservationCancelResultSchema>>().toEqualTypeOf<S.ReservationCancelResult>();
    expectTypeOf<output<typeof S.RangeAvailabilitySchema>>().toEqualTypeOf<S.RangeAvailability>();
    expectTypeOf<output<typeof S.RangeRentalCheckoutSchema>>().toEqualTypeOf<S.RangeRentalCheckout>();
    expectTypeOf<output<typeof S.RangeRentalSchema>>().toEqualTypeOf<S.RangeRental>();
    expectTypeOf<output<typeof S.RangeRentalDetailSchema>>().toEqualTypeOf<S.RangeRentalDetail>();
    expectTypeOf<
      output<typeof S.RangeRentalCheckedInPayloadSchema>
    >().toEqualTypeOf<S.RangeRentalCheckedInPayload>();
    expectTypeOf<output<typeof S.CardTransactionSchema>>().toEqualTypeOf<S.CardTransaction>();
    expectTypeOf<output<typeof S.ReturnLineSchema>>().toEqualTypeOf<S.ReturnLine>();
    expectTypeOf<output<typeof S.ReturnSchema>>().toEqualTypeOf<S.Return>();
    expectTypeOf<output<typeof S.MembershipPlanSchema>>().toEqualTypeOf<S.MembershipPlan>();
    expectTypeOf<output<typeof S.MembershipMemberSchema>>().toEqualTypeOf<S.MembershipMember>();
    expectTypeOf<output<typeof S.MembershipSchema>>().toEqualTypeOf<S.Membership>();
    expectTypeOf<output<typeof S.MembershipChargeSchema>>().toEqualTypeOf<S.MembershipCharge>();
    expectTypeOf<output<typeof S.MembershipDetailSchema>>().toEqualTypeOf<S.MembershipDetail>();
    expectTypeOf<
      output<typeof S.MembershipChangedPayloadSchema>
    >().toEqualTypeOf<S.MembershipChangedPayload>();
    expectTypeOf<output<typeof S.GuestPassResultSchema>>().toEqualTypeOf<S.GuestPassResult>();
    expectTypeOf<output<typeof S.EventSchema>>().toEqualTypeOf<S.Event>();
    expectTypeOf<output<typeof S.PingSchema>>().toEqualTypeOf<S.Ping>();
    expectTypeOf<output<typeof S.InventoryLevelSchema>>().toEqualTypeOf<S.InventoryLevel>();
    expectTypeOf<output<typeof S.InventoryChangedPayloadSchema>>().toEqualTypeOf<S.InventoryChangedPayload>();
    expectTypeOf<output<typeof S.InventoryWriteResultSchema>>().toEqualTypeOf<S.InventoryWriteResult>();
    expectTypeOf<output<typeof S.SerializedItemSchema>>().toEqualTypeOf<S.SerializedItem>();
    expectTypeOf<output<typeof S.ProductStorefrontSchema>>().toEqualTypeOf<S.ProductStorefront>();
    expectTypeOf<output<typeof S.ProductSchema>>().toEqualTypeOf<S.Product>();
    expectTypeOf<output<typeof S.LocationSchema>>().toEqualTypeOf<S.Location>();
    expectTypeOf<output<typeof S.PurchaseOrderLineSchema>>().toEqualTypeOf<S.PurchaseOrderLine>();
    expectTypeOf<output<typeof S.PurchaseOrderSchema>>().toEqualTypeOf<S.PurchaseOrder>();
    expectTypeOf<
      output<typeof S.PurchaseOrderReceiveResultSchema>
    >().toEqualTypeOf<S.PurchaseOrderReceiveResult>();
    expectTypeOf<output<typeof S.ReceivingLineSchema>>().toEqualTypeOf<S.ReceivingLine>();
    expectTypeOf<output<typeof S.ReceivingSchema>>().toEqualTypeOf<S.Receiving>();
    expectTypeOf<output<typeof S.OrderPaymentSchema>>().toEqualTypeOf<S.OrderPayment>();
    expectTypeOf<output<typeof S.OrderLineSchema>>().toEqualTypeOf<S.OrderLine>();
    expectTypeOf<output<typeof S.CustomerSchema>>().toEqualTypeOf<S.Customer>();
    expectTypeOf<output<typeof S.OrderSchema>>().toEqualTypeOf<S.Order>();
    expectTypeOf<output<typeof S.GiftCertificateSchema>>().toEqualTypeOf<S.GiftCertificate>();
    expectTypeOf<output<typeof S.CouponSchema>>().toEqualTypeOf<S.Coupon>();
    expectTypeOf<output<typeof S.InvoiceSchema>>().toEqualTypeOf<S.Invoice>();
    expectTypeOf<output<typeof S.AccountPaymentSchema>>().toEqualTypeOf<S.AccountPayment>();
    expectTypeOf<output<typeof S.CustomerAccountSchema>>().toEqualTypeOf<S.CustomerAccount>();
    expectTypeOf<output<typeof S.StoreCreditSchema>>().toEqualTypeOf<S.StoreCredit>();
    expectTypeOf<output<typeof S.MeSchema>>().toEqualTypeOf<S.Me>();
    expectTypeOf<output<typeof S.DeletedObjectSchema>>().toEqualTypeOf<S.DeletedObject>();
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
