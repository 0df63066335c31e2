import { SandboxUsageError } from './errors.js';
import { insertReservation } from './features/range/reservations.js';
import type { SandboxRecords } from './options.js';
import type { CustomerRecord } from './state/shop.js';
import type { SandboxWorld } from './world.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Adds the bulk records to a seeded shop. */
export function seedRecords(world: SandboxWorld, records: Required<SandboxRecords>): void {
  const start = world.clock.nowMs();
  for (let index = 0; index < records.customers; index++) addCustomer(world, start, index);
  if (records.reservations === 0) return;
  const lanes = world.state.range.resources.filter(
    (lane) => lane.type === 'lane' && lane.status === 'active',
  );
  const customers = world.state.shop.customers.all();
  if (lanes.length === 0) throw new SandboxUsageError('records.reservations: the shop has no active lane');
  const firstHour = start - (start % HOUR_MS) - 30 * DAY_MS;
  // Records share their text where it is equal (times, a lane's line description): strings never change
  // in place, and at 50,000 records one copy each is tens of megabytes.
  const times = new Map<number, string>();
  const at = (ms: number) => {
    let text = times.get(ms);
    if (text === undefined) {
      text = new Date(ms).toISOString();
      times.set(ms, text);
    }
    return text;
  };
  const descriptions = new Map<number, string>();
  const names = new Map<number, string>();
  for (let index = 0; index < records.reservations; index++) {
    const lane = lanes[index % lanes.length]!;
    // One visit an hour per lane, back through the 30 days, wrapping round when there are more.
    const startsAt = firstHour + (Math.floor(index / lanes.length) % (30 * 24 - 1)) * HOUR_MS;
    const customer = customers[index % customers.length]!;
    let description = descriptions.get(lane.id);
    if (description === undefined) {
      description = `${lane.name}, 60 min, party of 1`;
      descriptions.set(lane.id, description);
    }
    let name = names.get(customer.id);
    if (name === undefined) {
      name = `${customer.first_name} ${customer.last_name}`;
      names.set(customer.id, name);
    }
    const reservation = insertReservation(world, {
      locationId: lane.location_id,
      classSessionId: null,
      source: 'api',
      partySize: 1,
      startsAt: at(startsAt),
      endsAt: at(startsAt + HOUR_MS),
      customer,
      contact: { name },
      paid: true,
      lines: [
        {
          kind: 'lane_time',
          resource_id: lane.id,
          product_id: null,
          description,
          quantity: 1,
          unit_cents: 2500,
          total_cents: 2500,
        },
      ],
      createdAt: at(startsAt - DAY_MS),
    });
    Object.assign(reservation, {
      status: 'completed',
      checked_in_at: at(startsAt),
      completed_at: at(startsAt + HOUR_MS),
      updated_at: at(startsAt + HOUR_MS),
    });
  }
}

function addCustomer(world: SandboxWorld, start: number, index: number): void {
  const created = new Date(start - (1 + (index % 365)) * DAY_MS).toISOString();
  world.state.shop.customers.insert(
    (id): CustomerRecord => ({
      object: 'customer',
      id,
      first_name: 'Load',
      last_name: `Test ${id}`,
      email: `load.test${id}@example.com`,
      phone: null,
      date_of_birth: null,
      created_at: created,
      updated_at: created,
    }),
  );
}
