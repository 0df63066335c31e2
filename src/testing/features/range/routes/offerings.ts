import { listRoute } from '../../../http/list.js';
import type { RouteDefinition } from '../../../http/route.js';
import type { RangeClassRecord, RangeResourceRecord, RangeSessionRecord } from '../state.js';

const DAY_MS = 86_400_000;

/** GET /v1/range/resources, /classes and /sessions. */
export const rangeOfferingRoutes: readonly RouteDefinition[] = [
  listRoute<RangeResourceRecord>('range.resources.list', {
    rows: (sandbox) => sandbox.state.range.resources,
    params: [
      { name: 'type', field: 'type' },
      { name: 'location_id', field: 'location_id' },
    ],
    changedAt: 'updated_at',
    location: (row) => row.location_id,
  }),
  // The reference shows no filters for classes: only the common pagination parameters apply.
  listRoute<RangeClassRecord>('range.classes.list', {
    rows: (sandbox) => sandbox.state.range.classes,
    location: (row) => row.location_id,
  }),
  listRoute<RangeSessionRecord>('range.sessions.list', {
    rows: (sandbox) => sandbox.state.range.sessions,
    params: [
      {
        name: 'from',
        match: (row, from: number) => Date.parse(row.starts_at) >= from,
        fallback: (sandbox) => sandbox.clock.nowMs(),
      },
      {
        name: 'to',
        match: (row, to: number) => Date.parse(row.starts_at) <= to,
        fallback: (sandbox) => sandbox.clock.nowMs() + 30 * DAY_MS,
      },
      { name: 'class_id', field: 'class_id' },
    ],
    location: (row) => row.location_id,
  }),
];
