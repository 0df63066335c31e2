import type { FieldRules } from '../../generated/request-rules.js';
import type { SandboxWorld } from '../world.js';
import type { ApiKey, Permission } from './keys.js';

/** The HTTP methods the API uses. */
export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What a route handler receives. State changes go through `sandbox`; `now` is the clock at arrival. */
export interface RouteContext {
  readonly sandbox: SandboxWorld;
  readonly key: ApiKey;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON body; `{}` when none was sent. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly now: string;
}

/** A handler's answer: wrapped into `{status: 'ok', data, meta?}` by the pipeline. */
export interface RouteResult {
  readonly status: number;
  readonly data: unknown;
  readonly meta?: unknown;
  /**
   * Set when `data` is a list of stored records shown as they are: the answer is written from each
   * record's cached JSON (http/json.ts), the same bytes `JSON.stringify(data)` gives.
   */
  readonly storedRecords?: boolean;
}

/**
 * One endpoint. The pipeline has already authenticated the key, applied the plan and add-on gates, checked
 * `permission`, and handled the Idempotency-Key when the handler runs. Handlers check everything before
 * they change state, so a refused request leaves no trace (and no event).
 */
export interface RouteDefinition {
  readonly method: RouteMethod;
  /** Full path with `{name}` placeholders: `/v1/range/reservations/{id}/cancel`. */
  readonly path: string;
  /** Needed permission, or null (the event feed filters by permission itself). */
  readonly permission: Permission | null;
  /** POSTs accept an Idempotency-Key; `required` makes it mandatory (balance moves). @default 'optional' */
  readonly idempotency?: 'required' | 'optional';
  /** The rules its JSON body is read by: the spec's and the sandbox's own (`bodyRoute`, body.ts). */
  readonly body?: FieldRules;
  /** A cursor-paginated list (`listRoute`): its GETs are pages of a walk (the many-shop sandbox counts walkers). */
  readonly list?: true;
  readonly handle: (context: RouteContext) => RouteResult | Promise<RouteResult>;
}

/** 200 with `data`. */
export function ok(data: unknown, meta?: unknown): RouteResult {
  return meta === undefined ? { status: 200, data } : { status: 200, data, meta };
}

/** 201 with the created record. */
export function created(data: unknown): RouteResult {
  return { status: 201, data };
}

/**
 * What the pipeline reads of a request. A web Request is one; the HTTP server (server.ts) hands node:http's
 * request over in this shape without building a web Request.
 */
export interface SandboxRequest {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  /** The body as text ('' when none was sent). */
  text(): Promise<string>;
}

/** The sandbox's answer before it is a web Response (or written by node:http): header names in lower case. */
export interface SandboxAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text, or its UTF-8 bytes (a list page joined from its records' cached bytes). */
  readonly body: string | Uint8Array;
}
