import type { ActivityEntry, ActivityLog } from '../testing/activity.js';

/** How often an idle stream sends a comment, so proxies and the reader know it is alive. */
const HEARTBEAT_MS = 15_000;
/** What a reader waits before it reconnects (the SSE `retry` field). */
const RETRY_MS = 500;

/** Messages queued for one slow reader before it is cut off. */
const MAX_QUEUED = 5_000;

const encoder = new TextEncoder();

/**
 * `GET /_sandbox/logs`: the sandbox's live log as server-sent events, one `request`, `delivery` or `event`
 * message per entry with its id, so a reader that reconnects with `Last-Event-ID` gets what it missed. A
 * `gap` message says how many entries the ring dropped before the reader came back.
 */
export function logStream(log: ActivityLog, lastEventId: string | null): Response {
  let stop: () => void = () => undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          // A reader this far behind is cut off; it comes back with Last-Event-ID and a gap notice.
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED) throw new Error('reader too slow');
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
          try {
            controller.error(new Error('the live log reader fell too far behind'));
          } catch {
            // Already closed: nothing to tell.
          }
        }
      };
      send(`retry: ${RETRY_MS}\n: shop-mgmt sandbox live log, run ${log.run}\n\n`);
      const { entries, missed } = log.after(lastEventId);
      if (missed > 0) send(`event: gap\ndata: ${JSON.stringify({ missed })}\n\n`);
      for (const entry of entries) send(message(entry));
      const unfollow = log.follow((entry) => send(message(entry)));
      const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      (heartbeat as { unref?: () => void }).unref?.();
      stop = () => {
        unfollow();
        clearInterval(heartbeat);
      };
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
    },
  });
}

function message(entry: ActivityEntry): string {
  return `id: ${entry.id}\nevent: ${entry.activity.kind}\ndata: ${JSON.stringify(entry.activity)}\n\n`;
}
