// The handler's `now` option: a receiver tested against a sandbox that signs with its own clock
// (`signatureClock: 'sandbox'`, far from the wall's) verifies by reading the sandbox clock on every delivery.
// By default the sandbox signs with the wall clock, so a receiver on its own clock verifies as it is.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import {
  createWebhookHandler,
  type ShopEvent,
  WebhookConfigurationError,
  type WebhookHandler,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { deliveryHeaders, eventBody } from './helpers.js';
import { serveWeb, type TestServer } from './server.js';

const SECRET = 'whsec_clock_secret';
/** A fixed receiver time, far from the wall clock. */
const FIXED = new Date('2026-10-01T15:20:00Z');
const FIXED_SECONDS = FIXED.getTime() / 1000;

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** Posts a delivery signed at `timestamp` straight into a handler made with `options`. */
async function deliverAt(options: Partial<WebhookHandlerOptions>, timestamp: number) {
  const handler = createWebhookHandler({ secret: SECRET, ...options });
  const body = eventBody();
  const response = await handler(
    new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      body,
      headers: deliveryHeaders(body, SECRET, timestamp),
    }),
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('createWebhookHandler({ now }) against a sandbox on its own clock', () => {
  async function receiverFor(optionsFor: (sandbox: Sandbox) => Partial<WebhookHandlerOptions>) {
    const sandbox = createSandbox({ now: FIXED, signatureClock: 'sandbox' });
    const events: ShopEvent[] = [];
    // The endpoint's secret exists once it is added, and adding it needs the receiver's URL: the server
    // starts first and reaches the handler made right after.
    let handler: WebhookHandler | undefined;
    const server = await serveWeb(((request: Request) => handler!(request)) as WebhookHandler);
    servers.push(server);
    const endpoint = sandbox.webhooks.addEndpoint({ url: server.url, types: ['*'] });
    handler = createWebhookHandler({
      secret: endpoint.secret,
      onEvent: (event) => {
        events.push(event);
      },
      ...optionsFor(sandbox),
    });
    const ping = async () => {
      sandbox.webhooks.sendTest(endpoint.id);
      return (await sandbox.webhooks.flush()).map((attempt) => attempt.httpStatus);
    };
    return { sandbox, events, ping };
  }

  it('refuses the sandbox signature by the wall clock, and accepts it by the sandbox clock as it moves', async () => {
    expect(Math.abs(Date.now() - FIXED.getTime())).toBeGreaterThan(300_000);
    const wall = await receiverFor(() => ({}));
    expect(await wall.ping()).toEqual([400]);
    expect(wall.events).toEqual([]);

    const { sandbox, events, ping } = await receiverFor((box) => ({ now: () => box.clock.now() }));
    expect(await ping()).toEqual([200]);
    // Read on every delivery: two hours later on the sandbox clock, still in step.
    sandbox.clock.advance('2h');
    expect(await ping()).toEqual([200]);
    expect(events.map((event) => event.created_at)).toEqual([
      FIXED.toISOString(),
      new Date(FIXED.getTime() + 7_200_000).toISOString(),
    ]);
  });

  it('takes unix seconds from the function as well as a Date', async () => {
    const { ping } = await receiverFor((box) => ({ now: () => box.clock.nowMs() / 1000 }));
    expect(await ping()).toEqual([200]);
  });
});

describe('now and toleranceSeconds together', () => {
  it('measures the tolerance from a fixed now, in both directions', async () => {
    expect((await deliverAt({ now: FIXED }, FIXED_SECONDS - 300)).status).toBe(200);
    const late = await deliverAt({ now: FIXED }, FIXED_SECONDS - 301);
    expect(late.status).toBe(400);
    expect(late.json).toMatchObject({ error: { reason: 'timestamp_out_of_tolerance' } });
    expect((await deliverAt({ now: FIXED_SECONDS }, FIXED_SECONDS + 301)).status).toBe(400);
  });

  it('passes toleranceSeconds through: a wider window accepts what the default refuses', async () => {
    expect((await deliverAt({ now: FIXED, toleranceSeconds: 600 }, FIXED_SECONDS - 599)).status).toBe(200);
    expect((await deliverAt({ now: FIXED, toleranceSeconds: 0 }, FIXED_SECONDS - 1)).status).toBe(400);
  });

  it('refuses a bad fixed now when the handler is made', () => {
    expect(() => createWebhookHandler({ secret: SECRET, now: Date.now() })).toThrow(/milliseconds/);
    expect(() => createWebhookHandler({ secret: SECRET, now: new Date('nope') })).toThrow(
      WebhookConfigurationError,
    );
  });

  it('fails the delivery (500, for a retry) and tells onError when the now function misbehaves', async () => {
    const onError = vi.fn();
    const throwing = await deliverAt(
      {
        now: () => {
          throw new Error('clock unavailable');
        },
        onError,
      },
      FIXED_SECONDS,
    );
    expect(throwing.status).toBe(500);
    const milliseconds = await deliverAt({ now: () => FIXED.getTime(), onError }, FIXED_SECONDS);
    expect(milliseconds.status).toBe(500);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[1]![0]).toBeInstanceOf(WebhookConfigurationError);
    expect(onError.mock.calls[1]![1]).toMatchObject({ outcome: 'failed' });
  });
});
