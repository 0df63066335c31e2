import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/request-options.js';
import { APIResource } from '../../core/resource.js';
import { operations } from '../../generated/operations.js';
import type {
  RangeReservationsCancelParams,
  RangeReservationsCreateParams,
  RangeReservationsListParams,
} from '../../generated/params.js';
import type {
  RangeReservation,
  RangeReservationTransition,
  ReservationCancelResult,
} from '../../generated/schemas.js';

/** `shop.range.reservations`: lane and class bookings and their front-desk transitions. */
export class Reservations extends APIResource {
  /**
   * Lists lane and class reservations, oldest first; `for await` walks every page.
   *
   * Permission: `range:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor), 402 `RANGE_ADDON_REQUIRED`.
   * @example
   * for await (const r of shop.range.reservations.list({ status: 'booked', from: new Date() })) {
   *   console.log(r.id, r.starts_at, r.party_size);
   * }
   */
  list(params?: RangeReservationsListParams, options?: RequestOptions): PagePromise<RangeReservation> {
    return this._client.list(operations['range.reservations.list'], { query: params }, options);
  }

  /**
   * Reads one reservation.
   *
   * Permission: `range:read`.
   * Errors: 404 `NOT_FOUND` (also for a location the key cannot see), 402 `RANGE_ADDON_REQUIRED`.
   * @example
   * const reservation = await shop.range.reservations.retrieve(5001);
   */
  retrieve(id: number, options?: RequestOptions): APIPromise<RangeReservation> {
    return this._client.request(operations['range.reservations.retrieve'], { path: { id } }, options);
  }

  /**
   * Books a lane for a time window (`resource_ids` from availability, `starts_at`, `ends_at`,
   * `party_size`) or seats in a class session (`class_session_id`, `party_size`; the session's own time
   * and price apply). The booking engine checks availability again, applies the range's rules and
   * pricing, and emails the guest a confirmation with waiver links; the result has status `booked` and
   * source `api`. `paid` (default true) confirms it as paid on your channel for `amount_cents` (default:
   * the booking's price); `paid: false` leaves it to be settled at the desk.
   *
   * Every call carries an Idempotency-Key (yours, or one generated for the call and reused on each
   * retry), so a retry with the same key cannot book twice: the server replays the first booking.
   *
   * Permission: `range:write`.
   * Errors: 409 `RESOURCE_UNAVAILABLE` (lane taken or out of service), 409 `SESSION_FULL`,
   * 422 `INVALID_RESOURCE`, 422 `INVALID_SESSION`, 422 `CONSTRAINT_VIOLATION` (party size, lane type,
   * age), 404 `NOT_FOUND` (no such session, or a location the key cannot see), 400 `VALIDATION_ERROR`
   * (bad time window, unknown customer_id), 402 `RANGE_ADDON_REQUIRED`, 409 `IDEMPOTENCY_IN_PROGRESS`,
   * 422 `IDEMPOTENCY_MISMATCH` (same key, different body).
   * @example
   * const reservation = await shop.range.reservations.create(
   *   {
   *     resource_ids: [12],
   *     starts_at: '2026-10-01T15:00:00Z',
   *     ends_at: '2026-10-01T16:00:00Z',
   *     party_size: 2,
   *     customer: { email: 'dana@example.com', first_name: 'Dana', last_name: 'Reyes' },
   *     external_reference: 'web-1042',
   *   },
   *   { idempotencyKey: 'booking-web-1042' },
   * );
   */
  create(params: RangeReservationsCreateParams, options?: RequestOptions): APIPromise<RangeReservation> {
    return this._client.request(operations['range.reservations.create'], { body: params }, options);
  }

  /**
   * Checks in a booked reservation (it moves to `checked_in`). The reference does not show the response
   * body: the result is typed as the fields a reservation would carry, all optional.
   *
   * Permission: `range:write`.
   * Errors: 409 `INVALID_STATE` (not booked), 404 `NOT_FOUND`, 402 `RANGE_ADDON_REQUIRED`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.range.reservations.checkIn(5001);
   */
  checkIn(id: number, options?: RequestOptions): APIPromise<RangeReservationTransition> {
    return this._client.request(operations['range.reservations.checkIn'], { path: { id } }, options);
  }

  /**
   * Marks a booked reservation as a no-show (it moves to `no_show` and the lane is flagged for reset).
   * The reference does not show the response body: the result is typed as the fields a reservation
   * would carry, all optional.
   *
   * Permission: `range:write`.
   * Errors: 409 `INVALID_STATE` (not booked), 404 `NOT_FOUND`, 402 `RANGE_ADDON_REQUIRED`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.range.reservations.markNoShow(5001);
   */
  markNoShow(id: number, options?: RequestOptions): APIPromise<RangeReservationTransition> {
    return this._client.request(operations['range.reservations.markNoShow'], { path: { id } }, options);
  }

  /**
   * Cancels a held, booked or checked-in reservation: seats or lane time are released and a confirmed
   * guest is emailed. No refund is issued through the API: `requires_manual_refund` is true when money
   * was paid and not yet refunded, for the shop to settle at the register. The response beyond
   * `requires_manual_refund` is not shown in the reference: its reservation fields are typed optional.
   *
   * Permission: `range:write`.
   * Errors: 409 `INVALID_STATE` (completed, cancelled, no-show...), 404 `NOT_FOUND`,
   * 400 `VALIDATION_ERROR`, 402 `RANGE_ADDON_REQUIRED`, 409 `IDEMPOTENCY_IN_PROGRESS`,
   * 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * const { requires_manual_refund } = await shop.range.reservations.cancel(5001, { reason: 'Weather' });
   */
  cancel(
    id: number,
    params?: RangeReservationsCancelParams,
    options?: RequestOptions,
  ): APIPromise<ReservationCancelResult> {
    return this._client.request(
      operations['range.reservations.cancel'],
      { path: { id }, body: params },
      options,
    );
  }
}
