import type { ShopClient } from '../client.js';

/**
 * The base of every resource group (`shop.range.reservations`, ...). A resource method is one expression
 * over `this._client.request(...)` or `this._client.list(...)`; retries, validation and errors live in the
 * transport, never in a resource.
 */
export abstract class APIResource {
  constructor(protected readonly _client: ShopClient) {}
}
