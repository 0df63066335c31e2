import { Table } from '../../state/table.js';
import type { DomainWorld } from '../world.js';

/**
 * The kinds of record that point at `field` = `id` (`product_id`, `customer_id`, or a list such as
 * `customer_ids`), searched in every table of the shop, a few levels into each record (lines, members).
 * A record deleted while others point at it would leave them dangling, so deletion refuses it.
 */
export function referencesTo(
  world: DomainWorld,
  field: string,
  id: number,
  skip: readonly Table<{ id: number }>[] = [],
): string[] {
  const found = new Set<string>();
  for (const [domain, tables] of Object.entries(world.state)) {
    for (const [name, table] of Object.entries(tables as Record<string, unknown>)) {
      if (!(table instanceof Table) || skip.includes(table)) continue;
      if (table.find((row) => mentions(row, field, id, 0))) found.add(`${domain}.${name}`);
    }
  }
  return [...found];
}

function mentions(value: unknown, field: string, id: number, depth: number): boolean {
  if (depth > 3 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => mentions(item, field, id, depth + 1));
  for (const [key, inner] of Object.entries(value)) {
    if (key === field && inner === id) return true;
    if (key === `${field}s` && Array.isArray(inner) && inner.includes(id)) return true;
    if (typeof inner === 'object' && mentions(inner, field, id, depth + 1)) return true;
  }
  return false;
}
