/**
 * The records the transport and walk benches serve: range reservations with every field the reference's
 * section 2 lists, sized like the sandbox's (one priced line, a contact; ~0.8 kB of JSON each).
 */
export function reservation(id: number): Record<string, unknown> {
  const starts = new Date(Date.UTC(2026, 9, 1, 9) + id * 3_600_000);
  const ends = new Date(starts.getTime() + 3_600_000);
  const at = (date: Date) => date.toISOString().replace('.000', '');
  return {
    object: 'range_reservation',
    id,
    location_id: 1 + (id % 3),
    class_session_id: id % 4 === 0 ? 100 + id : null,
    status: ['booked', 'checked_in', 'completed', 'cancelled'][id % 4],
    source: id % 2 ? 'api' : 'storefront_widget',
    party_size: 1 + (id % 4),
    starts_at: at(starts),
    ends_at: at(ends),
    contact: { name: `Guest ${id}`, email: `guest${id}@example.com`, phone: '+12085552010' },
    customer_ids: [5000 + id],
    payment_status: 'paid',
    paid_cents: 4500,
    refunded_cents: 0,
    order_id: id % 3 ? 90_000 + id : null,
    storefront_order_id: id % 2 ? null : `SO-${10_000 + id}`,
    lines: [
      {
        kind: 'resource',
        resource_id: 10 + (id % 12),
        product_id: id % 4 === 0 ? 9001 : null,
        description: 'Lane 7, 25 yd pistol bay, 1 hour',
        quantity: 1,
        unit_cents: 4500,
        total_cents: 4500,
      },
    ],
    confirmed_at: at(starts),
    checked_in_at: null,
    completed_at: null,
    cancelled_at: null,
    no_show_at: null,
    cancel_reason: null,
    created_at: '2026-09-24T12:00:00Z',
    updated_at: '2026-09-25T08:30:00Z',
  };
}

/** The success envelope of one page of a cursor list: `count` reservations from id `first`, and its meta. */
export function listEnvelope(count: number, first = 1, nextCursor: string | null = 'c_Zm9vYmFy'): string {
  const data = Array.from({ length: count }, (_, i) => reservation(first + i));
  return JSON.stringify({
    status: 'ok',
    data,
    meta: { limit: count, has_more: nextCursor !== null, next_cursor: nextCursor },
  });
}

/** The success envelope of one reservation. */
export function recordEnvelope(): string {
  return JSON.stringify({ status: 'ok', data: reservation(1) });
}
