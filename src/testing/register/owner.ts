import type { ProductRecord } from '../features/inventory/catalog-state.js';
import type { InvoiceRecord } from '../features/sales/accounts-state.js';
import type { DomainWorld } from '../features/world.js';
import type { LocationRecord } from '../state/shop.js';
import {
  addLocation,
  addProduct,
  deleteProduct,
  issueInvoice,
  type NewInvoice,
  type NewLocation,
  type NewProduct,
} from './back-office.js';

/**
 * What the shop owner does in the back office and the API cannot: add a location, add or delete a
 * product, issue an invoice to a house account. Each fires the event the service would. (Webhook settings,
 * Send test included, are `sandbox.webhooks`.)
 */
export class SandboxOwner {
  /** @internal */
  constructor(/** @internal */ protected readonly world: DomainWorld) {}

  /** Adds a store location: location.created. */
  addLocation(location: NewLocation): LocationRecord {
    return structuredClone(addLocation(this.world, location));
  }

  /** Adds a product to the catalog, with no stock yet: product.created. */
  addProduct(product: NewProduct): ProductRecord {
    return structuredClone(addProduct(this.world, product));
  }

  /** Deletes a product nothing points at (no stock, orders, purchase orders, returns): product.deleted. */
  deleteProduct(productId: number): void {
    deleteProduct(this.world, productId);
  }

  /** Issues an invoice or monthly statement to a customer's house account: invoice.created. */
  issueInvoice(customerId: number, invoice: NewInvoice): InvoiceRecord {
    return structuredClone(issueInvoice(this.world, customerId, invoice));
  }
}
