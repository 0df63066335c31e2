import { pathId } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { ok, type RouteDefinition } from '../../../http/route.js';
import { bodyRoute } from '../../../http/rules.js';
import type { ProductRecord } from '../catalog-state.js';
import { findProduct, type ProductChanges, renderProduct, updateProduct, vendorNamed } from '../products.js';

/**
 * What PATCH /v1/products/{id} takes beyond the reference's price_cents, vendor_id, vendor_sku and
 * reorder_qty: the sale window, sku (SKU_TAKEN implies it is writable) and the compliance fields, which are
 * refused unless unchanged. The sale-window names are the sandbox's guess; prices and counts are never
 * negative, and null clears a field that may be empty.
 */
const UPDATE_RULES = {
  price_cents: { minimum: 0 },
  vendor_sku: { nullable: true },
  reorder_qty: { minimum: 0 },
  sku: { type: 'string' },
  sale_price_cents: { type: 'integer', minimum: 0, nullable: true },
  sale_starts_at: { type: 'string', format: 'date-time', nullable: true },
  sale_ends_at: { type: 'string', format: 'date-time', nullable: true },
  is_firearm: { type: 'boolean' },
  is_serialized: { type: 'boolean' },
  is_nfa: { type: 'boolean' },
  product_type: { type: 'string' },
} as const;

const update = bodyRoute('products.update', UPDATE_RULES, (context, body, fields) => {
  const { sandbox } = context;
  const product = findProduct(sandbox, pathId(context.params, 'product'));
  for (const field of fields.undescribed()) fields.fail(field, 'is not writable through the API');
  if (body.vendor_id !== undefined) vendorNamed(sandbox, body.vendor_id, fields);
  if (body.sku !== undefined && body.sku.trim() === '') fields.fail('sku', 'must not be blank');
  fields.done();
  // Only the fields sent are in `body`; the sale window is stored as ISO text.
  const changes = { ...body } as ProductChanges;
  for (const field of ['sale_starts_at', 'sale_ends_at'] as const) {
    const ms = body[field];
    if (typeof ms === 'number') changes[field] = new Date(ms).toISOString();
  }
  return ok(updateProduct(sandbox, product, changes));
});

/** GET /v1/products and PATCH /v1/products/{id} (reference section 4, inventory sync). */
export const productRoutes: readonly RouteDefinition[] = [
  listRoute<ProductRecord>('products.list', {
    rows: (sandbox) => sandbox.state.catalog.products,
    params: [{ name: 'include', refuseUnknown: true }],
    changedAt: 'updated_at',
    render: (row, { sandbox, key, values }) =>
      renderProduct(sandbox, row, { inventory: values.include === 'inventory', actor: key }),
  }),
  update,
];
