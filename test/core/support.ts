// Shared by the transport tests: hand-written operations over a small reservation schema (so the transport
// is tested without the generated table), an msw server, and a client with millisecond back-off.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { z } from 'zod';
import { type ClientOptions, ShopClient } from '../../src/client.js';
import type { DocumentedOperation } from '../../src/core/api/operation.js';
import { RETRY_BACKOFF, type TestOptions } from '../../src/internal/test-hooks.js';

export const BASE_URL = 'http://127.0.0.1:4010';
export const API_KEY = 'sk_test_a1b2c3d4e5f6';

export const ReservationSchema = z.object({
  object: z.literal('range_reservation'),
  id: z.number().int(),
  status: z.string(),
  party_size: z.number().int(),
  starts_at: z.string(),
  contact: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
});
export type Reservation = z.output<typeof ReservationSchema>;

const base = {
  pathParams: [],
  query: null,
  body: null,
  pagination: null,
  successStatus: 200,
  permission: 'range:read',
  idempotency: null,
  errorCodes: [],
  undocumented: false,
} as const;

export const retrieveReservation = {
  ...base,
  id: 'range.reservations.retrieve',
  method: 'GET',
  path: '/v1/range/reservations/{id}',
  pathParams: [{ name: 'id', type: 'integer' }],
  result: ReservationSchema,
  summary: 'Retrieve a reservation',
} satisfies DocumentedOperation;

export const listReservations = {
  ...base,
  id: 'range.reservations.list',
  method: 'GET',
  path: '/v1/range/reservations',
  query: z
    .object({
      status: z.string().optional(),
      limit: z.number().int().optional(),
      cursor: z.string().optional(),
      from: z.union([z.string(), z.date()]).optional(),
      lane_type: z.union([z.string(), z.array(z.string())]).optional(),
      open: z.boolean().optional(),
    })
    .optional(),
  result: ReservationSchema,
  pagination: 'cursor',
  summary: 'List reservations',
} satisfies DocumentedOperation;

export const createReservation = {
  ...base,
  id: 'range.reservations.create',
  method: 'POST',
  path: '/v1/range/reservations',
  body: z.looseObject({ party_size: z.number().int(), resource_ids: z.array(z.number().int()).optional() }),
  result: ReservationSchema,
  successStatus: 201,
  permission: 'range:write',
  idempotency: 'optional',
  summary: 'Book a lane',
} satisfies DocumentedOperation;

export const cancelReservation = {
  ...base,
  id: 'range.reservations.cancel',
  method: 'POST',
  path: '/v1/range/reservations/{id}/cancel',
  pathParams: [{ name: 'id', type: 'integer' }],
  body: z.object({ reason: z.string().optional() }),
  result: ReservationSchema,
  permission: 'range:write',
  idempotency: 'optional',
  summary: 'Cancel a reservation',
} satisfies DocumentedOperation;

export const updateLocation = {
  ...base,
  id: 'locations.update',
  method: 'PATCH',
  path: '/v1/locations/{id}',
  pathParams: [{ name: 'id', type: 'integer' }],
  body: z.object({ phone: z.string().optional() }),
  result: z.looseObject({ id: z.number().int() }),
  permission: 'locations:write',
  summary: 'Update a location',
} satisfies DocumentedOperation;

/** A reservation as the server sends it. */
export function reservation(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    object: 'range_reservation',
    id,
    status: 'booked',
    party_size: 2,
    starts_at: '2026-10-01T09:00:00Z',
    contact: { name: 'Ada Lovelace', email: 'ada@example.com' },
    ...extra,
  };
}

/** `{status: 'ok', data}`, optionally with `meta`. */
export function ok(data: unknown, meta?: Record<string, unknown>): Record<string, unknown> {
  return meta ? { status: 'ok', data, meta } : { status: 'ok', data };
}

/** `{status: 'error', error: {code, message, details}}`. */
export function failure(code: string, message = 'It failed', details?: unknown): Record<string, unknown> {
  return { status: 'error', error: { code, message, ...(details === undefined ? {} : { details }) } };
}

/** A client against {@link BASE_URL} that logs nothing and backs off for 1-5 ms instead of 0.5-8 s. */
export function testClient(options: ClientOptions & TestOptions = {}): ShopClient {
  const all: ClientOptions & TestOptions = {
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    logLevel: 'off',
    [RETRY_BACKOFF]: { baseMs: 1, capMs: 5 },
    ...options,
  };
  return new ShopClient(all);
}

/** An msw server for the file, failing any request no handler expects; returns it for `server.use(...)`. */
export function useMswServer(): ReturnType<typeof setupServer> {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** Answers every request with one reservation and records each request that reached the server. */
export function recordRequests(server: ReturnType<typeof setupServer>): Request[] {
  const seen: Request[] = [];
  server.use(
    http.all('*', ({ request }) => {
      seen.push(request);
      return HttpResponse.json(ok(reservation(1)));
    }),
  );
  return seen;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
