import { describe, expect, it } from 'vitest';
import { operations } from '../../src/generated/operations.js';
import { REFERENCE_BALANCE_MOVES } from '../support/reference.js';
import { apiError, client, mockApi, ok, UUID_V4 } from './helpers.js';
import { OPERATION_CASES } from './operation-table.js';

const api = mockApi();

// Balance moves (gift certificate and store-credit moves, account payments): the reference requires a key.
const BALANCE_MOVES = OPERATION_CASES.filter((row) => operations[row.id].idempotency === 'required');

describe('Idempotency-Key on balance moves', () => {
  it('covers every balance move the reference names', () => {
    expect(BALANCE_MOVES.map((row) => row.id).sort()).toEqual([...REFERENCE_BALANCE_MOVES].sort());
  });

  it.each(BALANCE_MOVES)('$id generates a fresh key per call when the caller gives none', async (row) => {
    api.respond(() => ok(row.data));
    const shop = client();
    await row.call(shop);
    await row.call(shop);
    const [first, second] = api.requests.map((request) => request.headers.get('idempotency-key'));
    expect(first).toMatch(UUID_V4);
    expect(second).toMatch(UUID_V4);
    expect(first).not.toBe(second);
  });

  it.each(BALANCE_MOVES)('$id sends the same key on a retry after a 500', async (row) => {
    api.respond(
      () => apiError(500, 'SERVER_ERROR'),
      () => ok(row.data),
    );
    await row.call(client({ maxRetries: 1 }));
    expect(api.requests).toHaveLength(2);
    const [first, retry] = api.requests.map((request) => request.headers.get('idempotency-key'));
    expect(first).toMatch(UUID_V4);
    expect(retry).toBe(first);
  });
});

describe('Idempotency-Key given by the caller', () => {
  it('reaches the server as given, and a replayed booking says so', async () => {
    const booked = OPERATION_CASES.find((row) => row.id === 'range.reservations.create');
    api.respond(() => ok(booked?.data, { status: 201, headers: { 'idempotent-replayed': 'true' } }));
    const { data, idempotentReplayed } = await client()
      .range.reservations.create(
        { class_session_id: 90, party_size: 2, external_reference: 'web-1042' },
        { idempotencyKey: 'booking-web-1042' },
      )
      .withResponse();
    expect(api.requests[0]?.headers.get('idempotency-key')).toBe('booking-web-1042');
    expect(api.requests[0]?.body).toEqual({
      class_session_id: 90,
      party_size: 2,
      external_reference: 'web-1042',
    });
    expect(idempotentReplayed).toBe(true);
    expect(data.status).toBe('booked');
  });

  it('is refused locally when over 100 characters, before a balance move is sent', async () => {
    api.respond(() => ok({}));
    const error = await client()
      .customers.storeCredit.issue(8801, { amount_cents: 100 }, { idempotencyKey: 'k'.repeat(101) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { idempotencyKey: [expect.any(String)] },
    });
    expect(api.requests).toHaveLength(0);
  });
});
