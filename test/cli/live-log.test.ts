import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { followLiveLog, type LiveEntry } from '../../src/cli/live-log.js';

// A stand-in for the sandbox's /_sandbox/logs on 127.0.0.1 that misbehaves on purpose: it answers one entry
// per connection and then goes silent (no keep-alive), as a hung connection behind a proxy would.
let server: Server | undefined;
const seenLastIds: (string | undefined)[] = [];

function entry(id: string, path: string): string {
  return `id: ${id}\ndata: ${JSON.stringify({ kind: 'request', method: 'GET', path, status: 200 })}\n\n`;
}

async function startHangingLog(): Promise<string> {
  let connection = 0;
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    connection += 1;
    seenLastIds.push(req.headers['last-event-id'] as string | undefined);
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    // Garbage first: a data line that is not JSON must be passed over, not end the reader.
    res.write('data: {not json\n\n');
    res.write(entry(`run.${connection}`, `/v1/hit-${connection}`));
    // ...and then nothing, ever: the socket stays open.
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

afterEach(async () => {
  seenLastIds.length = 0;
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('followLiveLog', () => {
  it('takes a connection that stays silent past idleMs as dead and resumes with Last-Event-ID', async () => {
    const baseUrl = await startHangingLog();
    const stop = new AbortController();
    const entries: LiveEntry[] = [];
    const states: string[] = [];
    const done = followLiveLog({
      baseUrl,
      apiKey: 'sk_test_live_log',
      signal: stop.signal,
      // Long enough for a loaded machine to open the first connection inside it (the watchdog also bounds
      // connecting): a first connection that never opens is reported as an unreachable sandbox.
      idleMs: 1_000,
      onConnection: (state) => states.push(state),
      onEntry: (e) => {
        entries.push(e);
        if (entries.length === 3) stop.abort();
      },
    });
    await done;
    expect(entries.map((e) => e.id)).toEqual(['run.1', 'run.2', 'run.3']);
    expect(entries.map((e) => (e.activity as { path?: string }).path)).toEqual([
      '/v1/hit-1',
      '/v1/hit-2',
      '/v1/hit-3',
    ]);
    // The first connection had nothing to resume from; each later one named the last entry it had.
    expect(seenLastIds.slice(0, 3)).toEqual([undefined, 'run.1', 'run.2']);
    expect(states.slice(0, 3)).toEqual(['connected', 'lost', 'connected']);
  });

  it('ends at once when the caller aborts a silent connection', async () => {
    const baseUrl = await startHangingLog();
    const stop = new AbortController();
    const done = followLiveLog({
      baseUrl,
      apiKey: 'sk_test_live_log',
      signal: stop.signal,
      idleMs: 60_000,
      onEntry: () => stop.abort(),
    });
    await expect(done).resolves.toBeUndefined();
  });
});
