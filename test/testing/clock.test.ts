import { describe, expect, it, vi } from 'vitest';
import { parseDuration, SandboxUsageError } from '../../src/testing/index.js';
import { call, newSandbox, START } from './helpers.js';

describe('sandbox clock', () => {
  it('parses durations', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration(250)).toBe(250);
    expect(() => parseDuration('soon')).toThrow(SandboxUsageError);
    expect(() => parseDuration('5 minutes')).toThrow(SandboxUsageError);
  });

  it('stays frozen until advanced or set, and never goes back', () => {
    const sandbox = newSandbox();
    expect(sandbox.clock.now().toISOString()).toBe(START);
    expect(sandbox.clock.advance('2h').toISOString()).toBe('2026-10-01T17:20:00.000Z');
    sandbox.clock.set('2026-10-05T00:00:00Z');
    expect(sandbox.clock.iso()).toBe('2026-10-05T00:00:00.000Z');
    expect(() => sandbox.clock.set(START)).toThrow(/backwards/);
  });

  it('runs at wall-clock speed in real mode', async () => {
    const sandbox = newSandbox({ clock: 'real' });
    const before = sandbox.clock.nowMs();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sandbox.clock.nowMs()).toBeGreaterThan(before);
  });

  it('runs clockSpeed times wall speed, and asks a client to wait wall-clock seconds', async () => {
    vi.useFakeTimers({ now: Date.parse(START), toFake: ['Date'] });
    try {
      // Established's 60 a minute; at 10x that minute lasts six wall seconds.
      const sandbox = newSandbox({ clock: 'real', clockSpeed: 10, now: '2026-10-01T15:20:00.000Z' });
      vi.advanceTimersByTime(3_000);
      expect(sandbox.clock.iso()).toBe('2026-10-01T15:20:30.000Z');
      const key = sandbox.createKey();
      for (let i = 0; i < 60; i++) await call(sandbox, 'GET', '/v1/locations', { key });
      const limited = await call(sandbox, 'GET', '/v1/locations', { key });
      expect(limited.status).toBe(429);
      // The 30 sandbox seconds left in the window pass in three wall seconds.
      expect(limited.headers.get('Retry-After')).toBe('3');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a clockSpeed that is not a positive number', () => {
    expect(() => newSandbox({ clockSpeed: 0 })).toThrow(/clockSpeed must be a positive number/);
    expect(() => newSandbox({ clockSpeed: Number.NaN })).toThrow(SandboxUsageError);
  });

  it('stamps records with the sandbox time and moves default windows with it', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const first = (await call(sandbox, 'GET', '/v1/range/sessions?limit=1', { key })).json.data[0];
    sandbox.clock.set(first.starts_at);
    sandbox.clock.advance('1s');
    const next = (await call(sandbox, 'GET', '/v1/range/sessions?limit=1', { key })).json.data[0];
    expect(next.id).not.toBe(first.id);
    const booked = (await call(sandbox, 'GET', '/v1/range/reservations?status=booked&limit=1', { key })).json
      .data[0];
    const cancelled = await call(sandbox, 'POST', `/v1/range/reservations/${booked.id}/cancel`, { key });
    expect(cancelled.json.data.cancelled_at).toBe(sandbox.clock.iso());
  });

  it('runs scheduled work when the clock reaches it', () => {
    const sandbox = newSandbox();
    const ran: string[] = [];
    sandbox.clock.schedule(sandbox.clock.nowMs() + 600_000, () => ran.push('ten minutes'));
    sandbox.clock.advance('9m');
    expect(ran).toEqual([]);
    sandbox.clock.advance('1m');
    expect(ran).toEqual(['ten minutes']);
  });
});
