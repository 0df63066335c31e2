// The walk counter of the many-shop sandbox on a clock of the test's: what one walk is, and when two walks
// of one shop are under way at once. Over HTTP (the sandbox feeding it): shops.test.ts.
import { describe, expect, it } from 'vitest';
import { WalkCounter } from '../../src/testing/walkers.js';

const IDLE = 500;
const PATH = '/v1/events';

function counter() {
  let now = 0;
  const walks = new WalkCounter(IDLE, () => now);
  return {
    walks,
    advance: (ms: number) => {
      now += ms;
    },
    /** One page asked for and answered at once (the sandbox answers a page within one turn). */
    page: (cursor: string | null, next: string | null, ok = true, key = 'key') => {
      const walk = walks.page(key, PATH, cursor);
      walks.answered(key, PATH, walk, ok, ok ? next : null);
    },
  };
}

describe('WalkCounter', () => {
  it('two one-page walks of one list within idleMs are 2 walkers (two workers reading one feed)', () => {
    const { walks, advance, page } = counter();
    page(null, null);
    advance(IDLE - 1);
    page(null, null);
    expect(walks.count()).toEqual({ now: 2, max: 2 });
  });

  it('one-page walks more than idleMs apart are 1 walker (one worker reading its feed on an interval)', () => {
    const { walks, advance, page } = counter();
    for (let read = 0; read < 5; read++) {
      page(null, null);
      advance(IDLE + 1);
    }
    expect(walks.count()).toEqual({ now: 0, max: 1 });
  });

  it('two multi-page walks interleaved are 2; pages that follow each cursor are 1 walk each', () => {
    const { walks, advance, page } = counter();
    page(null, 'a1');
    advance(10);
    page(null, 'b1');
    advance(10);
    page('a1', null);
    page('b1', 'b2');
    advance(10);
    page('b2', null);
    expect(walks.count().max).toBe(2);
    advance(IDLE + 1);
    expect(walks.count().now).toBe(0);
  });

  it('a walk continued from its cursor by another walker after its idle time is still 1 (a takeover)', () => {
    const { walks, advance, page } = counter();
    page(null, 'c1');
    advance(IDLE * 10);
    expect(walks.count().now).toBe(0);
    page('c1', 'c2');
    page('c2', null);
    expect(walks.count()).toEqual({ now: 1, max: 1 });
  });

  it('a refused first page starts no walk: its retry is 1 walker', () => {
    const { walks, page } = counter();
    page(null, null, false);
    page(null, null, false);
    page(null, null);
    expect(walks.count()).toEqual({ now: 1, max: 1 });
  });

  it('keys and paths are counted apart', () => {
    const { walks, page } = counter();
    page(null, null, true, 'one');
    page(null, null, true, 'two');
    const walk = walks.page('one', '/v1/customers', null);
    walks.answered('one', '/v1/customers', walk, true, null);
    expect(walks.count()).toEqual({ now: 1, max: 1 });
  });
});
