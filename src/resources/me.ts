import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { Me } from '../generated/schemas.js';

/** `shop.me`: the calling key. */
export class CurrentKey extends APIResource {
  /**
   * Reads what the API knows about the calling key and its shop; a cheap way to check a key works.
   * Named only in the reference: the response shape is not shown (typed loosely).
   *
   * Permission: none.
   * Errors: none beyond those of every call (401 `INVALID_API_KEY`, `WRONG_ENVIRONMENT`, ...).
   * @example
   * const me = await shop.me.retrieve();
   */
  retrieve(options?: RequestOptions): APIPromise<Me> {
    return this._client.request(operations['me.retrieve'], {}, options);
  }
}
