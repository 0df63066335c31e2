// Fixed secrets or a per-delivery resolver; kept out of verify.ts so the verify-only entry stays small.
import { ERROR_CLASS, ShopError } from '../core/errors/shop-error.js';
import type { WebhookRequest } from './request.js';
import { checkTolerance, type VerifierSettings, verifierSettings } from './verify.js';

/** A signing secret (`whsec_...`), or old and new during a rotation. */
export type WebhookSecret = string | readonly string[];

/** Finds the secret of the endpoint a delivery was posted to; nothing (`undefined`, blank, `[]`) means none. */
export type WebhookSecretResolver = (
  request: WebhookRequest,
) => WebhookSecret | null | undefined | Promise<WebhookSecret | null | undefined>;

/** `secret_not_found` (answered 404), `resolver_failed` (answered 503; the error is the `cause`). */
export type WebhookSecretErrorReason = 'secret_not_found' | 'resolver_failed';

/** A secret resolver gave no secret for a delivery; told to `onError`, quoting nothing from the request. */
export class WebhookSecretError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'WebhookSecretError';
  override readonly name: string = 'WebhookSecretError';

  constructor(
    /** Why no secret was found. */
    readonly reason: WebhookSecretErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The verifier settings of one delivery. */
export type SettingsSource = (request: WebhookRequest) => VerifierSettings | Promise<VerifierSettings>;

/** Settings checked once for a fixed secret; a resolver's per delivery. */
export function settingsSource(
  secret: WebhookSecret | WebhookSecretResolver,
  toleranceSeconds: number | undefined,
): SettingsSource {
  if (typeof secret !== 'function') {
    const settings = verifierSettings(secret, toleranceSeconds);
    return () => settings;
  }
  const tolerance = checkTolerance(toleranceSeconds);
  return async (request) => {
    let resolved: WebhookSecret | null | undefined;
    try {
      resolved = await secret(request);
    } catch (error) {
      throw new WebhookSecretError(
        'resolver_failed',
        'The secret resolver failed (see cause); the delivery is answered 503 and the sender retries it.',
        { cause: error },
      );
    }
    if (isNothing(resolved)) {
      throw new WebhookSecretError(
        'secret_not_found',
        'The secret resolver gave no secret for this request, so it is answered 404: an endpoint this ' +
          "receiver does not know, or the tenant's secret is not set.",
      );
    }
    return verifierSettings(resolved as WebhookSecret, tolerance);
  };
}

function isNothing(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}
