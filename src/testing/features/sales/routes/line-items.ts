import type { FieldReader } from '../../../http/fields.js';

/** One `lines[]` item as purchase orders and orders take it: a SKU, a quantity and maybe a unit amount. */
export interface LineItemRequest {
  readonly sku: string;
  readonly qty: number;
  /** unit_cost_cents on a purchase order, unit_price_cents on an order; undefined when not sent. */
  readonly unitCents: number | undefined;
}

/**
 * Reads `lines[]` of {sku, qty, <unitField>}, reporting problems as `lines[i].field` on the reader (the
 * 400 VALIDATION_ERROR detail names the reference uses for nested fields elsewhere).
 */
export function readLineItems(
  reader: FieldReader,
  raw: unknown,
  unitField: 'unit_cost_cents' | 'unit_price_cents' | null,
): LineItemRequest[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) {
    reader.fail('lines', 'must be a list of lines');
    return undefined;
  }
  return raw.flatMap((item: unknown, index) => {
    const fail = (field: string, message: string) => reader.fail(`lines[${index}].${field}`, message);
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      reader.fail(`lines[${index}]`, 'must be an object');
      return [];
    }
    const line = item as Record<string, unknown>;
    if (typeof line.sku !== 'string' || line.sku === '') fail('sku', 'is required');
    if (!Number.isSafeInteger(line.qty) || (line.qty as number) < 1)
      fail('qty', 'must be an integer of at least 1');
    const unit = unitField === null ? undefined : line[unitField];
    if (unit !== undefined && (!Number.isSafeInteger(unit) || (unit as number) < 0)) {
      fail(unitField!, 'must be a whole number of cents');
    }
    return [{ sku: line.sku as string, qty: line.qty as number, unitCents: unit as number | undefined }];
  });
}
