import { createParser } from 'eventsource-parser';
import type { Activity } from '../testing/activity.js';
import { CONTROL_PREFIX } from './control.js';
import { CliError, EXIT } from './exit-codes.js';

/** One entry of the sandbox's live log, as read from its stream. */
export interface LiveEntry {
  /** `<run>.<seq>`: what `Last-Event-ID` carries on a reconnect. */
  readonly id: string;
  readonly activity: Activity;
}

/** Options of {@link followLiveLog}. */
export interface FollowOptions {
  baseUrl: string;
  apiKey: string;
  signal: AbortSignal;
  onEntry: (entry: LiveEntry) => void;
  /** The ring buffer dropped `missed` entries before the reader came back. */
  onGap?: (missed: number) => void;
  /** The connection went (`lost`) or came back (`connected`). */
  onConnection?: (state: 'connected' | 'lost') => void;
  /**
   * A connection that brings nothing for this long is taken as dead and opened again (the sandbox sends a
   * keep-alive comment every 15 s, so only a hung connection stays silent). @default 45_000
   */
  idleMs?: number;
}

/** The sandbox answered that it has no live log: not a `shop-mgmt sandbox` process. */
export class NotASandboxError extends CliError {}

/**
 * Follows `GET /_sandbox/logs` of a sandbox process until `signal` aborts, parsed with eventsource-parser.
 * When the connection drops (the sandbox restarts) it reconnects with `Last-Event-ID`, so entries made
 * meanwhile still arrive, none twice. Unreachable at the start: CliError with EXIT.unreachable; a key the
 * sandbox refuses: EXIT.failed; no live log there: NotASandboxError.
 */
export async function followLiveLog(options: FollowOptions): Promise<void> {
  let lastId: string | null = null;
  let retryMs = 500;
  let connectedOnce = false;
  const idleMs = options.idleMs ?? 45_000;
  while (!options.signal.aborted) {
    // One controller a connection: the caller's signal ends it, and so does the idle watchdog below.
    const connection = new AbortController();
    const endConnection = () => connection.abort();
    options.signal.addEventListener('abort', endConnection, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(endConnection, idleMs);
    };
    let response: Response;
    try {
      watch();
      response = await fetch(`${options.baseUrl}${CONTROL_PREFIX}logs`, {
        headers: streamHeaders(options.apiKey, lastId),
        signal: connection.signal,
      });
    } catch (error) {
      clearTimeout(idle);
      options.signal.removeEventListener('abort', endConnection);
      if (options.signal.aborted) return;
      if (!connectedOnce) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
        throw new CliError(
          `cannot reach a sandbox at ${options.baseUrl} (${cause}); start one with npx shop-mgmt sandbox`,
          EXIT.unreachable,
        );
      }
      await pause(retryMs, options.signal);
      continue;
    }
    if (!response.ok || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      clearTimeout(idle);
      options.signal.removeEventListener('abort', endConnection);
      await response.body?.cancel().catch(() => undefined);
      if (response.status === 401) {
        throw new CliError('the sandbox refused the key: use one it printed (SHOP_API_KEY)', EXIT.failed);
      }
      if (!connectedOnce) {
        throw new NotASandboxError(
          `${options.baseUrl} has no live log (${response.status}): it is not a shop-mgmt sandbox process`,
          EXIT.failed,
        );
      }
      await pause(retryMs, options.signal);
      continue;
    }
    connectedOnce = true;
    options.onConnection?.('connected');
    const parser = createParser({
      onRetry: (ms) => {
        retryMs = Math.min(Math.max(ms, 100), 5_000);
      },
      onEvent: (message) => {
        const data = parseData(message.data);
        if (data === undefined) return; // not JSON: not an entry this reader can show
        if (message.event === 'gap') {
          const missed = (data as { missed?: unknown } | null)?.missed;
          options.onGap?.(typeof missed === 'number' ? missed : 0);
          return;
        }
        if (!message.id) return;
        lastId = message.id;
        options.onEntry({ id: message.id, activity: data as Activity });
      },
    });
    try {
      const decoder = new TextDecoder();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        watch();
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      // A dropped connection, or one the watchdog ended: reconnect below.
    } finally {
      clearTimeout(idle);
      options.signal.removeEventListener('abort', endConnection);
    }
    if (options.signal.aborted) return;
    options.onConnection?.('lost');
    await pause(retryMs, options.signal);
  }
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function streamHeaders(apiKey: string, lastId: string | null): Record<string, string> {
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, Accept: 'text/event-stream' };
  if (lastId !== null) headers['Last-Event-ID'] = lastId;
  return headers;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Rings when the sandbox records an event, so `listen` reads the feed at once instead of at its next
 * poll. Null when the shop has no live log (a real shop): polling alone then.
 */
export async function sandboxDoorbell(
  baseUrl: string,
  apiKey: string,
): Promise<{ onRing: (ring: () => void) => void; close: () => void } | null> {
  const stop = new AbortController();
  let ring: () => void = () => undefined;
  return new Promise((resolve) => {
    followLiveLog({
      baseUrl,
      apiKey,
      signal: stop.signal,
      onConnection: (state) => {
        if (state === 'connected') resolve({ onRing: (next) => (ring = next), close: () => stop.abort() });
      },
      // A gap or a reconnect may hide events: ring so the feed is read.
      onGap: () => ring(),
      onEntry: (entry) => {
        if (entry.activity.kind === 'event') ring();
      },
    }).then(
      () => resolve(null),
      () => resolve(null),
    );
  });
}
