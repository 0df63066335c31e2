import { describe, expect, it } from 'vitest';
import { EVENT_PAYLOAD_SCHEMAS, EventSchema } from '../../src/generated/events.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import { type OperationId, operations } from '../../src/generated/operations.js';
import { AvailabilityMetaSchema, ErrorEnvelopeSchema, ListMetaSchema } from '../../src/generated/schemas.js';
import type { z } from '../../src/internal/schema-types.js';
import { parseInEnglish } from '../support/english.js';
import { at, call, newSandbox } from './helpers.js';

function expectValid(schema: z.ZodType, value: unknown, where: string): void {
  const result = parseInEnglish(schema, value);
  expect(
    result.success,
    `${where}: ${result.success ? '' : JSON.stringify(result.error.issues, null, 1)}`,
  ).toBe(true);
}

/** Every route the sandbox serves in this half, with one request that reaches it. */
function scenario(ids: { reservation: number; session: number }): [OperationId, string, string, unknown?][] {
  return [
    ['range.resources.list', 'GET', '/v1/range/resources?limit=200'],
    ['range.classes.list', 'GET', '/v1/range/classes'],
    ['range.sessions.list', 'GET', '/v1/range/sessions?limit=200'],
    ['range.availability.list', 'GET', `/v1/range/availability?starts_at=${at(2)}&ends_at=${at(3)}`],
    ['range.reservations.list', 'GET', '/v1/range/reservations?limit=200'],
    ['range.reservations.retrieve', 'GET', `/v1/range/reservations/${ids.reservation}`],
    [
      'range.reservations.create',
      'POST',
      '/v1/range/reservations',
      { resource_ids: [1], starts_at: at(5), ends_at: at(6), party_size: 1, contact: { name: 'Walk In' } },
    ],
    [
      'range.reservations.create',
      'POST',
      '/v1/range/reservations',
      {
        class_session_id: ids.session,
        party_size: 1,
        customer: { email: 'a@b.example', first_name: 'A', last_name: 'B' },
      },
    ],
    ['range.reservations.checkIn', 'POST', `/v1/range/reservations/${ids.reservation}/check-in`],
    [
      'range.reservations.cancel',
      'POST',
      `/v1/range/reservations/${ids.reservation}/cancel`,
      { reason: 'x' },
    ],
    ['range.rentals.list', 'GET', '/v1/range/rentals?limit=200'],
    ['range.rentals.retrieve', 'GET', '/v1/range/rentals/5'],
    ['range.rentals.retrieve', 'GET', '/v1/range/rentals/6'],
    ['range.rentalCheckouts.list', 'GET', '/v1/range/rental-checkouts?limit=200'],
    ['events.list', 'GET', '/v1/events?limit=200'],
  ];
}

describe('sandbox responses parse with the generated schemas', () => {
  it('every range and event endpoint answers data the SDK accepts', async () => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/all', types: ['*'] });
    const key = sandbox.createKey();
    const booked = (await call(sandbox, 'GET', '/v1/range/reservations?status=booked&limit=1', { key })).json
      .data[0];
    const session = (await call(sandbox, 'GET', '/v1/range/sessions?class_id=1&limit=1', { key })).json
      .data[0];
    sandbox.register.rentOut(1, { customerId: 1 });
    sandbox.register.returnRental(1, { condition: 'Damaged: scope loose', roundsFired: 20 });
    sandbox.register.returnToService(1);
    const visit = sandbox.world.state.range.reservations.find((row) => row.status === 'checked_in')!;
    sandbox.register.closeVisit(visit.id, { overtimeCents: 700 });
    sandbox.setPlan('enterprise');
    for (const [id, method, path, body] of scenario({ reservation: booked.id, session: session.id })) {
      const operation = operations[id];
      expect(operation.method).toBe(method);
      const res = await call(sandbox, method, path, { key, body });
      expect(res.status, `${id} ${JSON.stringify(res.json)}`).toBe(operation.successStatus);
      if (operation.pagination === 'cursor') {
        expectValid(ListMetaSchema, res.json.meta, `${id} meta`);
        expect(res.json.data.length, id).toBeGreaterThan(0);
        for (const item of res.json.data) expectValid(OPERATION_SCHEMAS[id].result, item, id);
      } else {
        expectValid(OPERATION_SCHEMAS[id].result, res.json.data, id);
      }
      if (id === 'range.availability.list') expectValid(AvailabilityMetaSchema, res.json.meta, id);
    }
  });

  it('every event in the feed parses as the envelope and its type payload', async () => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/all', types: ['*'] });
    const key = sandbox.createKey();
    const booking = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: {
        resource_ids: [4],
        starts_at: at(2),
        ends_at: at(3),
        party_size: 1,
        customer: { email: 'n@x.example', first_name: 'N', last_name: 'X' },
      },
    });
    await call(sandbox, 'POST', `/v1/range/reservations/${booking.json.data.id}/check-in`, { key });
    sandbox.register.rentOut(2, { customerId: 1, reservationId: booking.json.data.id });
    sandbox.register.returnRental(2, { condition: 'Needs cleaning', roundsFired: 50 });
    sandbox.register.returnToService(2);
    sandbox.register.closeVisit(booking.json.data.id, { overtimeCents: 300 });
    const other = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: { resource_ids: [5], starts_at: at(2), ends_at: at(3), party_size: 1, customer_id: 1 },
    });
    await call(sandbox, 'POST', `/v1/range/reservations/${other.json.data.id}/no-show`, { key });
    const third = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: { resource_ids: [6], starts_at: at(2), ends_at: at(3), party_size: 1, customer_id: 1 },
    });
    await call(sandbox, 'POST', `/v1/range/reservations/${third.json.data.id}/cancel`, { key });
    const events = (await call(sandbox, 'GET', '/v1/events?limit=200', { key })).json.data;
    const types = new Set(events.map((event: { type: string }) => event.type));
    expect(types.size).toBe(11);
    for (const event of events) {
      expectValid(EventSchema, event, event.type);
      const schema = EVENT_PAYLOAD_SCHEMAS[event.type as keyof typeof EVENT_PAYLOAD_SCHEMAS];
      expect(schema, event.type).toBeDefined();
      expectValid(schema, event.data.object, event.type);
    }
  });

  it('error answers parse as the error envelope', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const answers = [
      await call(sandbox, 'GET', '/v1/range/resources'),
      await call(sandbox, 'GET', '/v1/range/resources?limit=0', { key }),
      await call(sandbox, 'DELETE', '/v1/range/resources', { key }),
      await call(sandbox, 'POST', '/v1/range/reservations/999999/check-in', { key }),
      await call(sandbox, 'GET', '/v1/range/rentals', { key: sandbox.createKey({ permissions: [] }) }),
    ];
    for (const answer of answers) expectValid(ErrorEnvelopeSchema, answer.json, `${answer.status}`);
  });
});
