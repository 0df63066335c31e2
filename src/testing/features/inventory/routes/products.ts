import { FieldReader, pathId } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { routeFor } from '../../../http/operations.js';
import { ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import type { ProductRecord } from '../catalog-state.js';
import {
  COMPLIANCE_FIELDS,
  findProduct,
  type ProductChanges,
  renderProduct,
  updateProduct,
  vendorNamed,
} from '../products.js';

/**
 * What PATCH /v1/products/{id} takes: the reference's price_cents, sale window, vendor_id, vendor_sku
 * and reorder_qty, plus sku (SKU_TAKEN implies it is writable) and the compliance fields, which are
 * refused unless unchanged. The sale-window names are the sandbox's guess.
 */
const NULLABLE = ['sale_price_cents', 'sale_starts_at', 'sale_ends_at', 'vendor_sku', 'reorder_qty'];
const WRITABLE = ['price_cents', 'vendor_id', 'sku', ...NULLABLE, ...COMPLIANCE_FIELDS];

/** Reads the body into changes, naming every bad field at once (400 VALIDATION_ERROR). */
function readChanges(context: RouteContext): ProductChanges {
  const { body, sandbox } = context;
  const reader = FieldReader.body(body);
  for (const field of Object.keys(body)) {
    if (!WRITABLE.includes(field)) reader.fail(field, 'is not writable through the API');
  }
  const changes: ProductChanges = {};
  const setNull = (field: string) => Object.hasOwn(body, field) && body[field] === null;
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  const read = {
    price_cents: reader.integer('price_cents', { min: 0 }),
    vendor_id: reader.integer('vendor_id'),
    sku: reader.string('sku'),
    sale_price_cents: reader.integer('sale_price_cents', { min: 0 }),
    sale_starts_at: iso(reader.dateTime('sale_starts_at')),
    sale_ends_at: iso(reader.dateTime('sale_ends_at')),
    vendor_sku: reader.string('vendor_sku'),
    reorder_qty: reader.integer('reorder_qty', { min: 0 }),
    is_firearm: reader.boolean('is_firearm'),
    is_serialized: reader.boolean('is_serialized'),
    is_nfa: reader.boolean('is_nfa'),
    product_type: reader.string('product_type'),
  };
  for (const [field, value] of Object.entries(read)) {
    if (value !== undefined) Object.assign(changes, { [field]: value });
    else if (NULLABLE.includes(field) && setNull(field)) Object.assign(changes, { [field]: null });
  }
  if (read.vendor_id !== undefined) vendorNamed(sandbox, read.vendor_id, reader);
  if (read.sku !== undefined && read.sku.trim() === '') reader.fail('sku', 'must not be blank');
  reader.done();
  return changes;
}

function update(context: RouteContext) {
  const { sandbox } = context;
  const product = findProduct(sandbox, pathId(context.params, 'product'));
  const changes = readChanges(context);
  return ok(updateProduct(sandbox, product, changes));
}

/** GET /v1/products and PATCH /v1/products/{id} (reference section 4, inventory sync). */
export const productRoutes: readonly RouteDefinition[] = [
  listRoute<ProductRecord>('products.list', {
    rows: (sandbox) => sandbox.state.catalog.products,
    params: [{ name: 'include', format: { oneOf: ['inventory'] } }],
    changedAt: 'updated_at',
    render: (row, { sandbox, key, values }) =>
      renderProduct(sandbox, row, { inventory: values.include === 'inventory', actor: key }),
  }),
  { ...routeFor('products.update'), handle: update },
];
