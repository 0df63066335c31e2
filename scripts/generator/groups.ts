import type { OperationModel } from './model.js';
import { words } from './names.js';

// How generated schemas are split into modules: by resource group (an operation id's first segment, the
// client's accessor: `shop.range`, `shop.me`), so that a bundler can put each group's schemas in a chunk of
// its own and a first call loads its group's schemas only. Bundlers split by module, not by declaration:
// a record schema used by several groups lives in a module of its own, shared by their chunks.

/** `range.reservations.list` -> `range`; `giftCertificates.issue` -> `giftCertificates`. */
export function groupOf(operationId: string): string {
  return operationId.split('.')[0]!;
}

/** A group as a file-name segment: `giftCertificates` -> `gift-certificates`. */
export function groupFile(group: string): string {
  return words(group).join('-');
}

/** The groups in the order their first operation appears in the spec. */
export function groupsInOrder(operations: readonly OperationModel[]): string[] {
  return [...new Set(operations.map((op) => groupOf(op.id)))];
}

/** Which identifiers of `names` the code uses, in the order given. */
export function usedIn(code: string, names: Iterable<string>): string[] {
  return [...names].filter((name) => new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(code));
}
