import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import { Table } from '../../state/table.js';

/** return_line of reference section 2. */
export type ReturnLineRecord = SandboxRecord<Api.ReturnLine, { condition: 'restock' | 'damaged' }>;

/** return of reference section 2: source sale (order_id set) or online (storefront_order_id set). */
export type ReturnRecord = SandboxRecord<
  Api.Return,
  { source: 'sale' | 'online'; settlement: 'refund' | 'store_credit' | 'exchange'; lines: ReturnLineRecord[] }
>;

/** Processed returns (read only through the API). */
export interface ReturnState {
  returns: Table<ReturnRecord>;
  /** Return lines are numbered shop-wide. */
  lineIds: { last: number };
}

export function createReturnState(): ReturnState {
  return { returns: new Table(), lineIds: { last: 0 } };
}
