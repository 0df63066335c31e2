import { verifyWebhook } from '../webhooks/verify.js';

/**
 * `shop.webhooks`: webhook helpers for code that already holds a client. Nothing here calls the API;
 * `verify` is the very function `shop-mgmt/webhooks` exports, so the two can be mixed freely.
 */
export interface Webhooks {
  /**
   * Verifies a delivery's `Service-Signature` over the raw body and parses the event (the same function
   * as `verifyWebhook` from `shop-mgmt/webhooks`).
   * @example
   * const event = await shop.webhooks.verify({ body: rawBody, headers: req.headers, secret: process.env.WHSEC! });
   */
  readonly verify: typeof verifyWebhook;
}

/** The one `shop.webhooks` object; it holds no state, so every client shares it. */
export const webhooks: Webhooks = Object.freeze({ verify: verifyWebhook });
