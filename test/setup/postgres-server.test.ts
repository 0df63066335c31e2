import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';

const postgresUrl = inject('postgresUrl');

describe.skipIf(!postgresUrl)('the test run’s PostgreSQL server', () => {
  it('answers queries on loopback', async () => {
    const client = new pg.Client({ connectionString: postgresUrl ?? '' });
    await client.connect();
    try {
      const { rows } = await client.query<{ one: number }>('select 1 as one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });
});
