// The quickstart against a real shop (SHOP_API_KEY and SHOP_API_BASE_URL set): reads only, changes nothing.
import { ShopApiError, ShopClient } from '../../src/index.js';
import { describeError, detail, heading, money, window } from './print.js';

/**
 * A step the key may not be allowed to take (no Range add-on: 402; no range:read: 403) is reported and
 * skipped; anything else (a bad key, an unreachable host) ends the tour.
 */
async function optional(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ShopApiError && (error.status === 402 || error.status === 403)) {
      detail(`skipped: ${describeError(error)}`);
      return;
    }
    throw error;
  }
}

/** Lists lanes, availability, upcoming reservations and the rental fleet of the shop the key belongs to. */
export async function readOnlyTour(): Promise<void> {
  const shop = new ShopClient({ logLevel: 'error' });
  console.log(
    `shop-mgmt quickstart: SHOP_API_KEY and SHOP_API_BASE_URL are set, so this runs read-only against`,
  );
  console.log(`${process.env.SHOP_API_BASE_URL}: it lists and reads, and changes nothing.`);

  heading('Lanes');
  await optional(async () => {
    const lanes = await shop.range.resources.list({ type: 'lane' }).toArray({ max: 200 });
    const active = lanes.filter((lane) => lane.status === 'active');
    detail(
      `${lanes.length} lanes (${active.length} active), e.g. ${lanes
        .slice(0, 3)
        .map((l) => l.name)
        .join(', ')}`,
    );
  });

  heading('Availability tomorrow for a party of 2');
  await optional(async () => {
    const hour = 3_600_000;
    const start = Math.ceil(Date.now() / hour) * hour + 24 * hour;
    const slot = { starts_at: new Date(start).toISOString(), ends_at: new Date(start + hour).toISOString() };
    const free = await shop.range.availability.list({ ...slot, party_size: 2 });
    const cheapest = [...free].sort((a, b) => a.price_cents - b.price_cents)[0];
    detail(
      `${window(slot.starts_at, slot.ends_at)}: ${free.length} free` +
        (cheapest ? `, from ${money(cheapest.price_cents)} (${cheapest.resource.name})` : ''),
    );
  });

  heading('Upcoming reservations');
  await optional(async () => {
    const page = await shop.range.reservations.list({ from: new Date(), limit: 5 });
    for (const reservation of page.data) {
      detail(
        `#${reservation.id} ${reservation.status} ${window(reservation.starts_at, reservation.ends_at)}`,
      );
    }
    detail(page.data.length === 0 ? 'none' : page.hasMore ? '(more on the next pages)' : '(all of them)');
  });

  heading('Rental fleet');
  await optional(async () => {
    const guns = await shop.range.rentals.list().toArray({ max: 200 });
    const byStatus = new Map<string, number>();
    for (const gun of guns) byStatus.set(gun.status, (byStatus.get(gun.status) ?? 0) + 1);
    const summary = [...byStatus].map(([status, count]) => `${count} ${status}`).join(', ');
    detail(`${guns.length} guns${summary ? `: ${summary}` : ''}`);
  });

  console.log('\nDone: read-only, nothing was changed.');
}
