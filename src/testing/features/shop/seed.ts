import type { CustomerRecord } from '../../state/shop.js';
import { DAY_MS, isoAt, type SeedContext } from '../seed-context.js';

const FIRST_NAMES = [
  'Avery',
  'Jordan',
  'Casey',
  'Morgan',
  'Riley',
  'Taylor',
  'Dana',
  'Jesse',
  'Quinn',
  'Reese',
];
const LAST_NAMES = ['Holloway', 'Marsh', 'Okafor', 'Lindqvist', 'Reyes', 'Brandt', 'Nakamura', 'Castillo'];
const YEAR_MS = 365.25 * DAY_MS;

/** The shop's two locations and its customers (one of them a minor, for age rules). */
export function seedShop(context: SeedContext): void {
  const { state, random } = context.world;
  const created = isoAt(context, -400 * DAY_MS);
  const locations = [
    { name: 'Ridgeline Range & Guns', address: '1200 Quarry Rd, Boise, ID 83702', storefront: 'sf_loc_main' },
    { name: 'Ridgeline North', address: '88 Foothill Ave, Eagle, ID 83616', storefront: null },
  ];
  for (const location of locations) {
    state.shop.locations.insert((id) => ({
      object: 'location',
      id,
      name: location.name,
      address: location.address,
      phone: `+1208555${String(1000 + id).slice(-4)}`,
      email: `store${id}@ridgeline.example`,
      business_hours: 'Mon-Sat 09:00-21:00, Sun 10:00-18:00',
      storefront_location_id: location.storefront,
      created_at: created,
      updated_at: created,
    }));
  }
  for (let index = 0; index < 14; index++) {
    const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
    const last = LAST_NAMES[(index * 3) % LAST_NAMES.length]!;
    // Customer 14 is 15 years old: the one a class's or gun's min_age refuses.
    const ageYears = index === 13 ? 15 : random.int(21, 68);
    const birth = new Date(context.nowMs - ageYears * YEAR_MS - random.int(10, 300) * DAY_MS);
    const since = isoAt(context, -random.int(30, 390) * DAY_MS);
    state.shop.customers.insert(
      (id): CustomerRecord => ({
        object: 'customer',
        id,
        first_name: first,
        last_name: last,
        email: `${first}.${last}${id}@example.com`.toLowerCase(),
        phone: index % 4 === 3 ? null : `+1208555${String(2000 + id).slice(-4)}`,
        date_of_birth: birth.toISOString().slice(0, 10),
        created_at: since,
        updated_at: since,
      }),
    );
  }
}
