// Issue 32 item 6: the listen checkpoint file shared by two processes, `listen` (which moves the checkpoint
// and sets events aside) and `replay` (which takes one off the list): each write lays its own changes over
// the file as it is then, so neither undoes the other's.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ListenFileStore } from '../../src/cli/listen-file.js';

const dir = mkdtempSync(join(tmpdir(), 'shop-mgmt-listen-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BASE = 'http://127.0.0.1:4010';

function onDisk(path: string): {
  checkpoint: { lastEventId: string } | null;
  deadLetters: { eventId: string }[];
} {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const letter = (eventId: string) => ({
  eventId,
  eventType: 'coupon.created',
  at: '2026-11-29T09:00:00.000Z',
  attempts: 1,
  status: 422,
  answer: null,
});

describe('ListenFileStore shared by listen and replay', () => {
  it('keeps a dead letter replay cleared off the list when listen writes next', async () => {
    const path = join(dir, 'a.json');
    const listen = ListenFileStore.open(path, BASE);
    await listen.save({ lastEventId: 'evt_1', createdAt: '2026-11-29T09:00:00.000Z' });
    await listen.deadLetter(letter('evt_1'));
    const replay = ListenFileStore.open(path, BASE);
    expect(await replay.clearDeadLetter('evt_1')).toBe(true);
    await listen.deadLetter(letter('evt_2'));
    await listen.save({ lastEventId: 'evt_3', createdAt: '2026-11-29T09:00:01.000Z' });
    expect(onDisk(path).deadLetters.map((entry) => entry.eventId)).toEqual(['evt_2']);
    expect(listen.deadLetters.map((entry) => entry.eventId)).toEqual(['evt_2']);
  });

  it('never writes back an older checkpoint from replay after listen moved on', async () => {
    const path = join(dir, 'b.json');
    const listen = ListenFileStore.open(path, BASE);
    await listen.save({ lastEventId: 'evt_1', createdAt: '2026-11-29T09:00:00.000Z' });
    await listen.deadLetter(letter('evt_1'));
    const replay = ListenFileStore.open(path, BASE); // reads the checkpoint at evt_1
    await listen.save({ lastEventId: 'evt_9', createdAt: '2026-11-29T09:05:00.000Z' });
    expect(await replay.clearDeadLetter('evt_1')).toBe(true);
    expect(onDisk(path).checkpoint?.lastEventId).toBe('evt_9');
    expect(onDisk(path).deadLetters).toEqual([]);
  });
});
