// Type tests: every params type is exactly what its zod schema accepts (`z.input`), so the documented type
// an editor shows cannot drift from what is checked before sending. Checked by `npm run typecheck`; the
// runtime test keeps the list complete.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { input } from 'zod/mini';
import type * as P from '../../src/generated/params.js';

/** The params types the type test below covers. */
const PARAMS = [
  'RangeResourcesListParams',
  'RangeClassesListParams',
  'RangeSessionsListParams',
  'RangeReservationsListParams',
  'RangeReservationsCreateParams',
  'RangeAvailabilityListParams',
  'RangeReservationsCancelParams',
  'RangeRentalsListParams',
  'RangeRentalCheckoutsListParams',
  'MembershipPlansListParams',
  'MembershipsListParams',
  'MembershipsCreateParams',
  'MembershipsCancelParams',
  'MembershipsUseGuestPassParams',
  'CardTransactionsListParams',
  'ReturnsListParams',
  'EventsListParams',
  'LocationsListParams',
  'LocationsUpdateParams',
  'ProductsListParams',
  'ProductsUpdateParams',
  'InventoryListParams',
  'InventoryListSerializedParams',
  'InventoryAdjustParams',
  'InventorySetParams',
  'PurchaseOrdersCreateParams',
  'PurchaseOrdersUpdateParams',
  'PurchaseOrdersReceiveParams',
  'OrdersCreateParams',
  'CustomersAccountPaymentsCreateParams',
  'CustomersStoreCreditIssueParams',
  'CustomersStoreCreditRedeemParams',
  'StoreCreditListParams',
  'InvoicesListParams',
  'AccountPaymentsListParams',
  'GiftCertificatesIssueParams',
  'GiftCertificatesRedeemParams',
  'GiftCertificatesReverseParams',
  'GiftCertificatesReloadParams',
  'GiftCertificatesAdjustParams',
  'GiftCertificatesDisableParams',
  'GiftCertificatesEnableParams',
  'CouponsCreateParams',
  'CouponsUpdateParams',
] as const;

describe('params types', () => {
  it('are what their schemas accept', () => {
    expectTypeOf<
      input<typeof P.RangeResourcesListParamsSchema>
    >().toEqualTypeOf<P.RangeResourcesListParams>();
    expectTypeOf<input<typeof P.RangeClassesListParamsSchema>>().toEqualTypeOf<P.RangeClassesListParams>();
    expectTypeOf<input<typeof P.RangeSessionsListParamsSchema>>().toEqualTypeOf<P.RangeSessionsListParams>();
    expectTypeOf<
      input<typeof P.RangeReservationsListParamsSchema>
    >().toEqualTypeOf<P.RangeReservationsListParams>();
    expectTypeOf<
      input<typeof P.RangeReservationsCreateParamsSchema>
    >().toEqualTypeOf<P.RangeReservationsCreateParams>();
    expectTypeOf<
      input<typeof P.RangeAvailabilityListParamsSchema>
    >().toEqualTypeOf<P.RangeAvailabilityListParams>();
    expectTypeOf<
      input<typeof P.RangeReservationsCancelParamsSchema>
    >().toEqualTypeOf<P.RangeReservationsCancelParams>();
    expectTypeOf<input<typeof P.RangeRentalsListParamsSchema>>().toEqualTypeOf<P.RangeRentalsListParams>();
    expectTypeOf<
      input<typeof P.RangeRentalCheckoutsListParamsSchema>
    >().toEqualTypeOf<P.RangeRentalCheckoutsListParams>();
    expectTypeOf<
      input<typeof P.MembershipPlansListParamsSchema>
    >().toEqualTypeOf<P.MembershipPlansListParams>();
    expectTypeOf<input<typeof P.MembershipsListParamsSchema>>().toEqualTypeOf<P.MembershipsListParams>();
    expectTypeOf<input<typeof P.MembershipsCreateParamsSchema>>().toEqualTypeOf<P.MembershipsCreateParams>();
    expectTypeOf<input<typeof P.MembershipsCancelParamsSchema>>().toEqualTypeOf<P.MembershipsCancelParams>();
    expectTypeOf<
      input<typeof P.MembershipsUseGuestPassParamsSchema>
    >().toEqualTypeOf<P.MembershipsUseGuestPassParams>();
    expectTypeOf<
      input<typeof P.CardTransactionsListParamsSchema>
    >().toEqualTypeOf<P.CardTransactionsListParams>();
    expectTypeOf<input<typeof P.ReturnsListParamsSchema>>().toEqualTypeOf<P.ReturnsListParams>();
    expectTypeOf<input<typeof P.EventsListParamsSchema>>().toEqualTypeOf<P.EventsListParams>();
    expectTypeOf<input<typeof P.LocationsListParamsSchema>>().toEqualTypeOf<P.LocationsListParams>();
    expectTypeOf<input<typeof P.LocationsUpdateParamsSchema>>().toEqualTypeOf<P.LocationsUpdateParams>();
    expectTypeOf<input<typeof P.ProductsListParamsSchema>>().toEqualTypeOf<P.ProductsListParams>();
    expectTypeOf<input<typeof P.ProductsUpdateParamsSchema>>().toEqualTypeOf<P.ProductsUpdateParams>();
    expectTypeOf<input<typeof P.InventoryListParamsSchema>>().toEqualTypeOf<P.InventoryListParams>();
    expectTypeOf<
      input<typeof P.InventoryListSerializedParamsSchema>
    >().toEqualTypeOf<P.InventoryListSerializedParams>();
    expectTypeOf<input<typeof P.InventoryAdjustParamsSchema>>().toEqualTypeOf<P.InventoryAdjustParams>();
    expectTypeOf<input<typeof P.InventorySetParamsSchema>>().toEqualTypeOf<P.InventorySetParams>();
    expectTypeOf<
      input<typeof P.PurchaseOrdersCreateParamsSchema>
    >().toEqualTypeOf<P.PurchaseOrdersCreateParams>();
    expectTypeOf<
      input<typeof P.PurchaseOrdersUpdateParamsSchema>
    >().toEqualTypeOf<P.PurchaseOrdersUpdateParams>();
    expectTypeOf<
      input<typeof P.PurchaseOrdersReceiveParamsSchema>
    >().toEqualTypeOf<P.PurchaseOrdersReceiveParams>();
    expectTypeOf<input<typeof P.OrdersCreateParamsSchema>>().toEqualTypeOf<P.OrdersCreateParams>();
    expectTypeOf<
      input<typeof P.CustomersAccountPaymentsCreateParamsSchema>
    >().toEqualTypeOf<P.CustomersAccountPaymentsCreateParams>();
    expectTypeOf<
      input<typeof P.CustomersStoreCreditIssueParamsSchema>
    >().toEqualTypeOf<P.CustomersStoreCreditIssueParams>();
    expectTypeOf<
      input<typeof P.CustomersStoreCreditRedeemParamsSchema>
    >().toEqualTypeOf<P.CustomersStoreCreditRedeemParams>();
    expectTypeOf<input<typeof P.StoreCreditListParamsSchema>>().toEqualTypeOf<P.StoreCreditListParams>();
    expectTypeOf<input<typeof P.InvoicesListParamsSchema>>().toEqualTypeOf<P.InvoicesListParams>();
    expectTypeOf<
      input<typeof P.AccountPaymentsListParamsSchema>
    >().toEqualTypeOf<P.AccountPaymentsListParams>();
    expectTypeOf<
      input<typeof P.GiftCertificatesIssueParamsSchema>
    >().toEqualTypeOf<P.GiftCertificatesIssueParams>();
    expectTypeOf<
      input<typeof P.GiftCertificatesRedeemParamsSchema>
    >().toEqualTypeOf<P.GiftCertificatesRedeemParams>();
    expectTypeOf<
      input<typeof P.GiftCertificatesReverseParamsSchema>
    >().toEqualTypeOf<P.GiftCertificatesReverseParams>();
    expectTypeOf<
      input<typeof P.GiftCertificatesReloadParamsSchema>
    >().toEqualTypeOf<P.GiftCertificatesReloadParams>();
    expectTypeOf<
      input<typeof P.GiftCertificatesAdjustParamsSchema>
    >().toEqualTypeOf<P.GiftCertificatesAdjustParams>();
    expectTypeOf<
      input<typeof P.GiftCertificatesDisableParamsSchema>
    >().toEqualTypeOf<P.GiftCertificatesDisableParams>();
    expectTypeOf<
      input<typeof P.GiftCertificatesEnableParamsSchema>
    >().toEqualTypeOf<P.GiftCertificatesEnableParams>();
    expectTypeOf<input<typeof P.CouponsCreateParamsSchema>>().toEqualTypeOf<P.CouponsCreateParams>();
    expectTypeOf<input<typeof P.CouponsUpdateParamsSchema>>().toEqualTypeOf<P.CouponsUpdateParams>();
  });

  it('cover every params type params.ts declares', () => {
    // params.ts re-exports the parts (params.<group>.ts ...) that declare them.
    const dir = new URL('../../src/generated/', import.meta.url);
    const source = readdirSync(dir)
      .filter((name) => name === 'params.ts' || /^params\..+\.ts$/.test(name))
      .map((name) => readFileSync(new URL(name, dir), 'utf8'))
      .join('\n');
    const declared = [...source.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    expect([...PARAMS].sort()).toEqual(declared.sort());
  });
});
