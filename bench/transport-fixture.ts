/** The records the transport bench serves: range reservations shaped as the reference's section 2 says. */
export function reservation(id: number): Record<string, unknown> {
  const starts = new Date(Date.UTC(2026, 9, 1, 9) + id * 3_600_000);
  const ends = new Date(starts.getTime() + 3_600_000);
  return {
    object: 'range_reservation',
    id,
    location_id: 1 + (id % 3),
    class_session_id: id % 4 === 0 ? 100 + id : null,
    status: ['booked', 'checked_in', 'completed', 'cancelled'][id % 4],
    source: id % 2 ? 'api' : 'storefront_widget',
    party_size: 1 + (id % 4),
    starts_at: starts.toISOString().replace('.000', ''),
    ends_at: ends.toISOString().replace('.000', ''),
    contact: {
      name: `Guest Number ${id}`,
      email: `guest${id}@example-shooting-range.com`,
      phone: '+1 555 010 0000',
    },
    customer_ids: [5000 + id, 6000 + id],
    payment_status: 'paid',
    paid_cents: 4500,
    refunded_cents: 0,
    order_id: id % 3 ? 90_000 + id : null,
    storefront_order_id: id % 2 ? null : `SO-${10_000 + id}`,
    lines: [
      line('resource', id, null, 'Lane 7 - 25 yard pistol bay, one hour, standard targets included', 1, 3000),
      line(
        'lane_time',
        id,
        null,
        'Additional lane time (30 minutes, same lane, billed per half hour)',
        1,
        1000,
      ),
      line(
        'rental',
        id,
        7000 + id,
        'Rental: Glock 19 Gen 5, 9mm, with eye and ear protection and two magazines',
        1,
        500,
      ),
      line(
        'adjustment',
        id,
        null,
        'Member discount (Gold plan, 10% off lane time, applied at booking)',
        1,
        0,
      ),
    ],
    confirmed_at: starts.toISOString().replace('.000', ''),
    checked_in_at: null,
    completed_at: null,
    cancelled_at: null,
    no_show_at: null,
    cancel_reason: null,
    created_at: '2026-09-24T12:00:00Z',
    updated_at: '2026-09-25T08:30:00Z',
  };
}

function line(
  kind: string,
  id: number,
  productId: number | null,
  description: string,
  qty: number,
  unit: number,
) {
  return {
    kind,
    resource_id: 10 + (id % 12),
    product_id: productId,
    description,
    quantity: qty,
    unit_cents: unit,
    total_cents: qty * unit,
  };
}

/** The success envelope of a cursor-paginated list of `count` reservations. */
export function listEnvelope(count: number): string {
  const data = Array.from({ length: count }, (_, i) => reservation(i + 1));
  return JSON.stringify({
    status: 'ok',
    data,
    meta: { limit: count, has_more: true, next_cursor: 'c_Zm9vYmFy' },
  });
}

/** The success envelope of one reservation. */
export function recordEnvelope(): string {
  return JSON.stringify({ status: 'ok', data: reservation(1) });
}
