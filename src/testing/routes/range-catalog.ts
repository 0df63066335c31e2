import { visibleRows } from '../http/access.js';
import { FieldReader } from '../http/fields.js';
import { changedSince, paginate, readPageParams } from '../http/pagination.js';
import type { RouteDefinition } from '../http/route.js';

const DAY_MS = 86_400_000;

/** GET /v1/range/resources, /classes and /sessions. */
export const rangeCatalogRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/v1/range/resources',
    permission: 'range:read',
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      const type = reader.string('type');
      const locationId = reader.integer('location_id');
      const since = reader.dateTime('updated_since');
      const page = readPageParams(reader);
      reader.done();
      const rows = visibleRows(key, sandbox.state.range.resources.all()).filter(
        (row) =>
          (type === undefined || row.type === type) &&
          (locationId === undefined || row.location_id === locationId),
      );
      return paginate(
        changedSince(rows, since, (row) => row.updated_at),
        page,
        (row) => row.id,
      );
    },
  },
  {
    // The reference shows no filters for classes: only the common pagination parameters apply.
    method: 'GET',
    path: '/v1/range/classes',
    permission: 'range:read',
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      const page = readPageParams(reader);
      reader.done();
      return paginate(visibleRows(key, sandbox.state.range.classes.all()), page, (row) => row.id);
    },
  },
  {
    method: 'GET',
    path: '/v1/range/sessions',
    permission: 'range:read',
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      const from = reader.dateTime('from') ?? sandbox.clock.nowMs();
      const to = reader.dateTime('to') ?? sandbox.clock.nowMs() + 30 * DAY_MS;
      const classId = reader.integer('class_id');
      const page = readPageParams(reader);
      reader.done();
      const rows = visibleRows(key, sandbox.state.range.sessions.all()).filter((row) => {
        const startsAt = Date.parse(row.starts_at);
        return startsAt >= from && startsAt <= to && (classId === undefined || row.class_id === classId);
      });
      return paginate(rows, page, (row) => row.id);
    },
  },
];
