import type { z } from 'zod';

/** The HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A `{name}` segment of an operation's path, with the type the caller must pass for it. */
export interface PathParam {
  readonly name: string;
  readonly type: 'integer' | 'string';
}

/**
 * One endpoint of the API, as generated from spec/openapi.yaml into `src/generated/operations.ts`.
 * Resources pass it to the transport, which builds the request and validates the answer from it alone,
 * so that no resource class knows how a request is sent and no transport code knows any endpoint.
 */
export interface Operation<Result extends z.ZodType = z.ZodType> {
  /** The operationId, which is also the SDK method path, e.g. `range.reservations.create`. */
  readonly id: string;
  readonly method: HttpMethod;
  /** The full path with `/v1` and `{name}` placeholders, e.g. `/v1/range/reservations/{id}/cancel`. */
  readonly path: string;
  readonly pathParams: readonly PathParam[];
  /** Query parameters: presence and primitive types only (the server owns bounds), or null when none. */
  readonly query: z.ZodType | null;
  /** JSON body: presence and primitive types only (the server owns bounds), or null when none is sent. */
  readonly body: z.ZodType | null;
  /** Schema of the envelope's `data`; for a cursor-paginated list, of one item. */
  readonly result: Result;
  readonly pagination: 'cursor' | null;
  /** The status of a success: 200, or 201 for a create. */
  readonly successStatus: number;
  /** The key permission the reference names, e.g. `range:write`; null where none is needed. */
  readonly permission: string | null;
  /** POSTs only: `required` for balance moves and account payments, else `optional`. */
  readonly idempotency: 'required' | 'optional' | null;
  /** The error codes (reference section 7) the reference lists for this endpoint. */
  readonly errorCodes: readonly string[];
  /** True where the reference leaves the request or response shape open (`x-shape: undocumented`). */
  readonly undocumented: boolean;
  readonly summary: string;
}
