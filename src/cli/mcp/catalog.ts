// What an agent may see and call: the generated operations table, filtered by the key's permissions and the
// writes the partner allowed. The MCP tools (server.ts) only read this.
import { createHash } from 'node:crypto';
import { operations } from '../../generated/operations.js';
import { nearest } from '../strict.js';

export type OperationEntry = (typeof operations)[keyof typeof operations];

export interface CatalogOptions {
  /** The key's permissions as GET /v1/me reports them (`range:read`, ...); null when it reports none. */
  readonly permissions: readonly string[] | null;
  /** The write operations allowed, by id or group (`range.reservations.create`, `range.*`). Empty: read-only. */
  readonly allowWrites: readonly string[];
}

/** Why an operation cannot be called, or null when it can. */
export type Refusal = { readonly reason: 'unknown' | 'permission' | 'write'; readonly message: string };

export class OperationCatalog {
  readonly #options: CatalogOptions;
  readonly #visible: OperationEntry[];

  constructor(options: CatalogOptions) {
    this.#options = options;
    this.#visible = Object.values(operations).filter((op) => this.#permitted(op));
  }

  /** The operations the key may use (writes included, marked as such). */
  get visible(): readonly OperationEntry[] {
    return this.#visible;
  }

  /** The operations whose id, path or summary hold every word of `query`, best first. */
  search(query: string, limit: number): OperationEntry[] {
    const words = query
      .toLowerCase()
      .split(/[\s,]+/)
      .filter(Boolean);
    const scored = this.#visible
      .map((op) => {
        const text = `${op.id} ${op.method} ${op.path} ${op.summary}`.toLowerCase();
        const hits = words.filter((word) => text.includes(word)).length;
        return { op, hits, exact: words.some((word) => op.id.toLowerCase() === word) };
      })
      .filter(({ hits }) => words.length === 0 || hits > 0)
      .sort((a, b) => Number(b.exact) - Number(a.exact) || b.hits - a.hits || a.op.id.localeCompare(b.op.id));
    return scored.slice(0, limit).map(({ op }) => op);
  }

  /** The operation named `id` if the key may use it, or why not (with the nearest id on a typo). */
  find(id: string): OperationEntry | Refusal {
    const op = (operations as Record<string, OperationEntry>)[id];
    if (op === undefined) {
      const near = nearest(id, Object.keys(operations));
      return {
        reason: 'unknown',
        message: `no operation ${id}${near ? `: did you mean ${near}?` : ''} (search_operations lists them)`,
      };
    }
    if (!this.#permitted(op)) {
      return { reason: 'permission', message: `the key lacks ${op.permission}, which ${id} needs` };
    }
    return op;
  }

  /** The operation named `id` if it may be called now, or why not. */
  resolve(id: string): OperationEntry | Refusal {
    const op = this.find(id);
    if ('reason' in op) return op;
    if (isWrite(op) && !this.writeAllowed(op)) {
      return {
        reason: 'write',
        message: `${id} changes the shop, and this server is read-only for it: restart it with --allow-writes ${id}`,
      };
    }
    return op;
  }

  writeAllowed(op: OperationEntry): boolean {
    return this.#options.allowWrites.some(
      (rule) => rule === op.id || (rule.endsWith('.*') && op.id.startsWith(rule.slice(0, -1))),
    );
  }

  #permitted(op: OperationEntry): boolean {
    const held = this.#options.permissions;
    if (held === null || op.permission === null || held.includes(op.permission)) return true;
    // Whether write implies read is not shown (reference section 5): offered, and the API has the last word.
    return op.permission.endsWith(':read') && held.includes(op.permission.replace(/:read$/, ':write'));
  }
}

export function isWrite(op: { readonly method: string }): boolean {
  return op.method !== 'GET';
}

/**
 * The Idempotency-Key of a write, from the call's arguments: an agent that retries the same call (a lost
 * answer, a restarted turn) sends the same key, so the shop applies it once (the API keeps keys 24 hours).
 */
export function idempotencyKeyFor(id: string, args: unknown): string {
  return `mcp-${createHash('sha256').update(canonicalJson({ id, args })).digest('hex').slice(0, 40)}`;
}

/** JSON with object keys sorted, so equal arguments give equal text whatever their order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
