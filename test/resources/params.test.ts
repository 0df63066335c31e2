import { describe, expect, it } from 'vitest';
import type { ShopClient } from '../../src/client.js';
import { isShopError, ParamsValidationError } from '../../src/core/errors/index.js';
import { newerValue } from '../../src/core/validation/newer-value.js';
import { client, mockApi, ok } from './helpers.js';

const api = mockApi();

interface MissingCase {
  readonly name: string;
  /** Called with arguments the types refuse, as plain JavaScript callers or `any` would pass them. */
  readonly call: (shop: ShopClient) => PromiseLike<unknown>;
  /** At least one of these fields must be named in `details`. */
  readonly fields: readonly string[];
}

const window = { starts_at: '2026-10-01T15:00:00Z', ends_at: '2026-10-01T16:00:00Z' };

const MISSING: readonly MissingCase[] = [
  {
    name: 'a reservation with neither resource_ids nor class_session_id',
    call: (shop) => shop.range.reservations.create({ ...window, party_size: 2 } as never),
    fields: ['resource_ids', 'class_session_id'],
  },
  {
    name: 'a class-seat reservation without class_session_id',
    call: (shop) => shop.range.reservations.create({ party_size: 2 } as never),
    fields: ['class_session_id', 'resource_ids'],
  },
  {
    name: 'a lane reservation without party_size',
    call: (shop) => shop.range.reservations.create({ ...window, resource_ids: [12] } as never),
    fields: ['party_size'],
  },
  {
    name: 'a lane reservation whose resource_ids is not an array of integers',
    call: (shop) =>
      shop.range.reservations.create({ ...window, resource_ids: ['12'], party_size: 2 } as never),
    fields: ['resource_ids.0'],
  },
  {
    name: 'availability without starts_at',
    call: (shop) => shop.range.availability.list({ ends_at: window.ends_at } as never),
    fields: ['starts_at'],
  },
  {
    name: 'availability with no params at all',
    call: (shop) => (shop.range.availability.list as (p?: unknown) => PromiseLike<unknown>)(),
    fields: ['starts_at'],
  },
  {
    name: 'a membership without billing_method',
    call: (shop) => shop.memberships.create({ customer_id: 8801, plan_id: 12 } as never),
    fields: ['billing_method'],
  },
  {
    name: 'an inventory adjustment without qty_delta',
    call: (shop) => shop.inventory.adjust({ sku: 'AMMO-9MM-50', location_id: 3 } as never),
    fields: ['qty_delta'],
  },
  {
    name: 'a list filter of the wrong type',
    call: (shop) => shop.range.reservations.list({ location_id: '3' as never }),
    fields: ['location_id'],
  },
];

async function refusal(row: MissingCase): Promise<ParamsValidationError> {
  api.respond(() => ok({}));
  const error = await Promise.resolve(row.call(client())).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ParamsValidationError);
  return error as ParamsValidationError;
}

function expectNamed(error: ParamsValidationError, fields: readonly string[]): void {
  expect(Object.keys(error.details).some((field) => fields.includes(field))).toBe(true);
  expect(error.message).toMatch(new RegExp(fields.join('|')));
}

describe('required parameters are checked before sending', () => {
  it.each(MISSING)('refuses $name as a VALIDATION_ERROR, and sends nothing', async (row) => {
    const error = await refusal(row);
    expect(isShopError(error)).toBe(true);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(api.requests).toHaveLength(0);
  });

  // The two booking modes are a union: the field is named from the mode the call came closest to.
  it.each(MISSING)('names the missing or mistyped field of $name', async (row) => {
    expectNamed(await refusal(row), row.fields);
  });

  it('leaves values the server owns (limits, states) to the server', async () => {
    api.respond(() => ok([], { meta: { limit: 200, has_more: false, next_cursor: null } }));
    await client().range.reservations.list({ limit: 5000, status: newerValue('some_future_state') });
    expect(api.requests[0]?.query).toEqual({ limit: '5000', status: 'some_future_state' });
  });

  it.each([
    [
      'a misspelled list filter',
      (shop: ShopClient) => shop.range.reservations.list({ stauts: 'booked' } as never),
      'stauts',
    ],
    [
      'a misspelled availability parameter',
      (shop: ShopClient) => shop.range.availability.list({ ...window, partysize: 2 } as never),
      'partysize',
    ],
    [
      'a body field the reference does not name',
      (shop: ShopClient) =>
        shop.memberships.create({ customer_id: 1, plan_id: 2, billing_method: 'counter', plan: 2 } as never),
      'plan',
    ],
    [
      'a misspelled nested field',
      (shop: ShopClient) =>
        shop.range.reservations.create({
          class_session_id: 90,
          party_size: 2,
          contact: { mail: 'x' },
        } as never),
      'contact.mail',
    ],
  ])('refuses %s on a documented endpoint, naming the key, and sends nothing', async (_name, call, field) => {
    api.respond(() => ok([], { meta: { limit: 50, has_more: false, next_cursor: null } }));
    const error = await Promise.resolve(call(client())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect((error as ParamsValidationError).details[field]).toEqual(['is not a parameter of this endpoint']);
    expect((error as ParamsValidationError).message).toContain(field);
    expect(api.requests).toHaveLength(0);
  });

  it('sends fields the reference does not name yet, for loosely typed endpoints', async () => {
    api.respond(() =>
      ok({ object: 'gift_certificate', id: 71, balance_cents: 7500, brand_new_field: 'kept' }),
    );
    const cert = await client().giftCertificates.reload(71, { amount_cents: 2500, memo: 'Birthday' });
    expect(api.requests[0]?.body).toEqual({ amount_cents: 2500, memo: 'Birthday' });
    // Kept at runtime, not typed: read through a cast.
    expect((cert as unknown as Record<string, unknown>).brand_new_field).toBe('kept');
  });
});
