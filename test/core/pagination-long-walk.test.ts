import { describe, expect, it } from 'vitest';
import { fetchPage, type PageSender } from '../../src/core/api/pagination.js';
import { InvalidResponseError } from '../../src/core/errors/index.js';
import type { CallState } from '../../src/core/transport/call.js';

// The loop guard past its exact window (issue 21: a walk keeps nothing per page). Thousands of pages, so the
// pages come from a sender in process rather than over HTTP (pagination.test.ts covers the wire); each cursor
// always leads to the same page, as a real server's does.

/** A sender whose page at cursor `c<n>` holds one record and names `nextOf(n)` (null: the last page). */
function sender(nextOf: (n: number) => number | null): PageSender<number> & { requests: number } {
  const counter = { requests: 0 };
  const send = async (cursor: string | undefined) => {
    counter.requests++;
    const n = cursor === undefined ? 0 : Number(cursor.slice(1));
    const next = nextOf(n);
    return {
      data: [n],
      meta: { has_more: next !== null, next_cursor: next === null ? null : `c${next}` },
      response: new Response(null),
      call: {} as CallState,
    };
  };
  return Object.defineProperty(send, 'requests', { get: () => counter.requests }) as PageSender<number> & {
    requests: number;
  };
}

describe('a long walk', () => {
  it('walks 5,000 pages of distinct cursors without a false loop', async () => {
    const send = sender((n) => (n < 4_999 ? n + 1 : null));
    const items = await fetchPage(send).toArray();
    expect(items).toHaveLength(5_000);
    expect(items[4_999]).toBe(4_999);
    expect(send.requests).toBe(5_000);
  });

  it('refuses a loop entered past the exact window, within twice the depth it was entered at', async () => {
    // c1500 -> c1501 -> c1502 -> c1500 -> ...: a loop of three entered at page 1,500.
    const send = sender((n) => (n === 1_502 ? 1_500 : n + 1));
    const error = await fetchPage(send)
      .toArray()
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toBe(
      'The list returned a cursor this walk already requested 3 pages ago; stopping instead of looping',
    );
    expect(send.requests).toBeGreaterThanOrEqual(1_503);
    expect(send.requests).toBeLessThanOrEqual(2 * 1_500 + 3);
  });

  it('still refuses exactly a loop back into the first pages, however far the walk went', async () => {
    // Page 1,999 names c10 again: requested on page 10, remembered exactly.
    const send = sender((n) => (n === 1_999 ? 10 : n + 1));
    const error = await fetchPage(send)
      .toArray()
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(send.requests).toBe(2_000);
  });
});
