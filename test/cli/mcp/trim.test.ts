import { describe, expect, it } from 'vitest';
import { trimAnswer } from '../../../src/cli/mcp/trim.js';

const long = 'x'.repeat(200);

describe('trimAnswer', () => {
  it('keeps a record scalar fields and short nested values, reduces long nested records to object and id', () => {
    const record = {
      id: 7,
      object: 'order',
      status: 'paid',
      total_cents: 1200,
      location: { id: 1, name: 'Main' },
      customer: { object: 'customer', id: 9, notes: long },
      lines: [1, 2, 3, 4, 5].map((n) => ({ object: 'line', id: n, text: long })),
    };
    expect(trimAnswer(record)).toEqual({
      trimmed: true,
      value: {
        id: 7,
        object: 'order',
        status: 'paid',
        total_cents: 1200,
        location: { id: 1, name: 'Main' },
        customer: { object: 'customer', id: 9 },
        lines: [{ object: 'line', id: 1 }, { object: 'line', id: 2 }, { object: 'line', id: 3 }, '… 2 more'],
      },
    });
  });

  it('in a list, leaves out empty fields and counts nested records', () => {
    const page = {
      data: [
        { id: 1, object: 'reservation', order_id: null, lines: [{ kind: 'resource' }, { kind: 'class' }] },
      ],
      has_more: true,
    };
    expect(trimAnswer(page)).toEqual({
      trimmed: true,
      value: { data: [{ id: 1, object: 'reservation', lines: '2 items' }], has_more: true },
    });
  });

  it('trims each record of a list answer and says nothing was left out when nothing was', () => {
    const page = { data: [{ id: 1, object: 'coupon', code: 'A' }], has_more: false, next_cursor: null };
    expect(trimAnswer(page)).toEqual({ trimmed: false, value: page });
  });
});
