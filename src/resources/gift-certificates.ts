import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type {
  GiftCertificatesAdjustParams,
  GiftCertificatesDisableParams,
  GiftCertificatesEnableParams,
  GiftCertificatesIssueParams,
  GiftCertificatesRedeemParams,
  GiftCertificatesReloadParams,
  GiftCertificatesReverseParams,
} from '../generated/params.js';
import type { GiftCertificate } from '../generated/schemas.js';

/**
 * `shop.giftCertificates`: issue certificates and move their balances. The reference names only the
 * verbs: the paths are the SDK's resource-style choice, and request and response shapes are not shown
 * (typed loosely, with `code`, `balance_cents` and `status` where the server sends them; pass the fields
 * your shop documents). Every balance move (issue, redeem, reverse, reload, adjust) always carries an
 * Idempotency-Key, yours or one generated and reused on every retry, so a retry cannot move money twice.
 */
export class GiftCertificates extends APIResource {
  /**
   * Issues a gift certificate. A balance move: always sent with an Idempotency-Key.
   *
   * Named only in the reference: the request fields beyond `code` and the response shape are not shown,
   * and the path is the SDK's resource-style choice. Typed loosely: other fields are passed through as
   * given; the result has `code`, `balance_cents` and `status` where the server sends them.
   *
   * Permission: `gift_certificates:write`.
   * Errors: 409 `GIFT_CERTIFICATE_CODE_TAKEN`, 422 `GIFT_CERTIFICATE_CODE_INVALID` (a code must be 6 to 40
   * letters, digits or dashes), 400 `VALIDATION_ERROR`, 400 `IDEMPOTENCY_KEY_REQUIRED`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * const cert = await shop.giftCertificates.issue({ code: 'GIFT-2026-ABCD', amount_cents: 5000 }, { idempotencyKey: 'web-1001-gc' });
   */
  issue(params: GiftCertificatesIssueParams, options?: RequestOptions): APIPromise<GiftCertificate> {
    return this._client.request(operations['giftCertificates.issue'], { body: params }, options);
  }

  /**
   * Spends from a certificate's balance. A balance move: always sent with an Idempotency-Key.
   *
   * Named only in the reference: request and response shapes are not shown, and the path is the SDK's
   * resource-style choice. Typed loosely: pass the fields your shop documents (passed through as given);
   * the result has `code`, `balance_cents` and `status` where the server sends them.
   *
   * Permission: `gift_certificates:write`.
   * Errors: 422 `GIFT_CERTIFICATE_INACTIVE` (disabled, expired or depleted; `details.status`),
   * 422 `GIFT_CERTIFICATE_INSUFFICIENT` (`details.balance_cents`), 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`,
   * 400 `IDEMPOTENCY_KEY_REQUIRED`, 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.giftCertificates.redeem(71, { amount_cents: 2000 }, { idempotencyKey: 'web-1002-gc' });
   */
  redeem(
    id: number,
    params?: GiftCertificatesRedeemParams,
    options?: RequestOptions,
  ): APIPromise<GiftCertificate> {
    return this._client.request(
      operations['giftCertificates.redeem'],
      { path: { id }, body: params },
      options,
    );
  }

  /**
   * Reverses an earlier balance move on the certificate. A balance move: always sent with an
   * Idempotency-Key.
   *
   * Named only in the reference: request and response shapes are not shown, and the path is the SDK's
   * resource-style choice. Typed loosely: pass the fields your shop documents (passed through as given);
   * the result has `code`, `balance_cents` and `status` where the server sends them.
   *
   * Permission: `gift_certificates:write`.
   * Errors: 409 `INVALID_STATE` (inferred, not listed by the reference: a move that cannot be reversed),
   * 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`, 400 `IDEMPOTENCY_KEY_REQUIRED`, 409 `IDEMPOTENCY_IN_PROGRESS`,
   * 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.giftCertificates.reverse(71, {}, { idempotencyKey: 'web-1002-gc-reverse' });
   */
  reverse(
    id: number,
    params?: GiftCertificatesReverseParams,
    options?: RequestOptions,
  ): APIPromise<GiftCertificate> {
    return this._client.request(
      operations['giftCertificates.reverse'],
      { path: { id }, body: params },
      options,
    );
  }

  /**
   * Adds value to a certificate. A balance move: always sent with an Idempotency-Key.
   *
   * Named only in the reference: request and response shapes are not shown, and the path is the SDK's
   * resource-style choice. Typed loosely: pass the fields your shop documents (passed through as given);
   * the result has `code`, `balance_cents` and `status` where the server sends them.
   *
   * Permission: `gift_certificates:write`.
   * Errors: 422 `GIFT_CERTIFICATE_INACTIVE` (inferred, not listed by the reference: a disabled or expired
   * certificate), 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`, 400 `IDEMPOTENCY_KEY_REQUIRED`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.giftCertificates.reload(71, { amount_cents: 2500 });
   */
  reload(
    id: number,
    params?: GiftCertificatesReloadParams,
    options?: RequestOptions,
  ): APIPromise<GiftCertificate> {
    return this._client.request(
      operations['giftCertificates.reload'],
      { path: { id }, body: params },
      options,
    );
  }

  /**
   * Corrects a certificate's balance. A balance move: always sent with an Idempotency-Key.
   *
   * Named only in the reference: request and response shapes are not shown, and the path is the SDK's
   * resource-style choice. Typed loosely: pass the fields your shop documents (passed through as given);
   * the result has `code`, `balance_cents` and `status` where the server sends them.
   *
   * Permission: `gift_certificates:write`.
   * Errors: 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`, 400 `IDEMPOTENCY_KEY_REQUIRED`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.giftCertificates.adjust(71, { amount_cents: -500, note: 'Miskeyed reload' });
   */
  adjust(
    id: number,
    params?: GiftCertificatesAdjustParams,
    options?: RequestOptions,
  ): APIPromise<GiftCertificate> {
    return this._client.request(
      operations['giftCertificates.adjust'],
      { path: { id }, body: params },
      options,
    );
  }

  /**
   * Disables a certificate so it cannot be spent.
   *
   * Named only in the reference: request and response shapes are not shown, and the path is the SDK's
   * resource-style choice. Typed loosely: pass the fields your shop documents (passed through as given);
   * the result has `code`, `balance_cents` and `status` where the server sends them.
   *
   * Permission: `gift_certificates:write`.
   * Errors: 409 `INVALID_STATE` (inferred, not listed by the reference: a certificate whose status does not
   * allow it), 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`, 409 `IDEMPOTENCY_IN_PROGRESS`,
   * 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.giftCertificates.disable(71, { reason: 'Reported stolen' });
   */
  disable(
    id: number,
    params?: GiftCertificatesDisableParams,
    options?: RequestOptions,
  ): APIPromise<GiftCertificate> {
    return this._client.request(
      operations['giftCertificates.disable'],
      { path: { id }, body: params },
      options,
    );
  }

  /**
   * Enables a disabled certificate again.
   *
   * Named only in the reference: request and response shapes are not shown, and the path is the SDK's
   * resource-style choice. Typed loosely: pass the fields your shop documents (passed through as given);
   * the result has `code`, `balance_cents` and `status` where the server sends them.
   *
   * Permission: `gift_certificates:write`.
   * Errors: 409 `INVALID_STATE` (inferred, not listed by the reference: a certificate whose status does not
   * allow it), 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`, 409 `IDEMPOTENCY_IN_PROGRESS`,
   * 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.giftCertificates.enable(71);
   */
  enable(
    id: number,
    params?: GiftCertificatesEnableParams,
    options?: RequestOptions,
  ): APIPromise<GiftCertificate> {
    return this._client.request(
      operations['giftCertificates.enable'],
      { path: { id }, body: params },
      options,
    );
  }
}
