import type { SandboxCore } from './core.js';
import { SandboxUsageError } from './errors.js';
import { insertReservation } from './features/range/reservations.js';
import type { CustomerRecord } from './state/shop.js';

/**
 * Extra records for load tests, added after the seeded shop (`createSandbox({ records })`, the CLI's
 * `--records reservations=50000`). They are history: completed lane visits spread over the 30 days before
 * the sandbox's start and customers created then, so they fill lists and pages without taking any lane time
 * a test books. They record no events.
 */
export interface SandboxRecords {
  /** Completed lane reservations in the past 30 days. */
  reservations?: number;
  /** Customers (lane reservations are spread over them too). */
  customers?: number;
}

/** The kinds `records` takes. */
export const RECORD_KINDS = ['reservations', 'customers'] as const;
/** The most of one kind a sandbox takes: a snapshot of more would not fit a JSON string. */
export const MAX_RECORDS = 500_000;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** @internal Checks `records` and fills the defaults. */
export function checkRecords(records: SandboxRecords | undefined): Required<SandboxRecords> {
  const checked = { reservations: 0, customers: 0 };
  for (const [kind, count] of Object.entries(records ?? {})) {
    if (!(RECORD_KINDS as readonly string[]).includes(kind)) {
      throw new SandboxUsageError(
        `records.${kind}: the sandbox bulk-seeds ${RECORD_KINDS.join(' and ')} only`,
      );
    }
    if (count === undefined) continue;
    if (!Number.isSafeInteger(count) || count < 0 || count > MAX_RECORDS) {
      throw new SandboxUsageError(
        `records.${kind} must be a whole number from 0 to ${MAX_RECORDS}, got ${count}`,
      );
    }
    checked[kind as keyof SandboxRecords] = count;
  }
  return checked;
}

/** @internal Adds the bulk records to a seeded shop. */
export function seedRecords(core: SandboxCore, records: Required<SandboxRecords>): void {
  const start = core.clock.nowMs();
  for (let index = 0; index < records.customers; index++) addCustomer(core, start, index);
  if (records.reservations === 0) return;
  const lanes = core.state.range.resources.filter((lane) => lane.type === 'lane' && lane.status === 'active');
  const customers = core.state.shop.customers.all();
  if (lanes.length === 0) throw new SandboxUsageError('records.reservations: the shop has no active lane');
  const firstHour = start - (start % HOUR_MS) - 30 * DAY_MS;
  for (let index = 0; index < records.reservations; index++) {
    const lane = lanes[index % lanes.length]!;
    // One visit an hour per lane, back through the 30 days, wrapping round when there are more.
    const startsAt = firstHour + (Math.floor(index / lanes.length) % (30 * 24 - 1)) * HOUR_MS;
    const customer = customers[index % customers.length]!;
    const at = (ms: number) => new Date(ms).toISOString();
    const reservation = insertReservation(core, {
      locationId: lane.location_id,
      classSessionId: null,
      source: 'api',
      partySize: 1,
      startsAt: at(startsAt),
      endsAt: at(startsAt + HOUR_MS),
      customer,
      paid: true,
      lines: [
        {
          kind: 'lane_time',
          resource_id: lane.id,
          product_id: null,
          description: `${lane.name}, 60 min, party of 1`,
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

function addCustomer(core: SandboxCore, start: number, index: number): void {
  const created = new Date(start - (1 + (index % 365)) * DAY_MS).toISOString();
  core.state.shop.customers.insert(
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
