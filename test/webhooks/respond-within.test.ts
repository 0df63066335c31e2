// The service fails a delivery that gets no 2xx within 10 seconds (reference section 6). Past respondWithin
// the handler answers 202 and lets the event handlers finish: on the platform's waitUntil when given one, in
// the running process otherwise; a late failure is told to onError and releases the claim.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  DEFAULT_RESPOND_WITHIN_MS,
  type DedupeStore,
  MemoryDedupeStore,
  WebhookConfigurationError,
  type WebhookErrorInfo,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { deliveryHeaders, eventBody, unixNow } from './helpers.js';
import { serveNode, serveWeb, type TestServer } from './server.js';

const SECRET = 'whsec_respond_within_secret';
const BOUND_MS = 150;

/** A promise opened from outside: the slow handler waits on it, so no timing decides when it ends. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A handler held until its gate opens, that records when it ended, and fails on demand. */
function slowHandler(fail = false) {
  const hold = gate();
  const ended = gate();
  let finished = false;
  const onEvent = vi.fn(async () => {
    await hold.opened;
    finished = true;
    ended.open();
    if (fail) throw new Error('warehouse API down');
  });
  return { onEvent, release: hold.open, ended: ended.opened, finished: () => finished };
}

function signedRequest(body: string, attempt = 1, url = 'http://127.0.0.1/webhooks') {
  return new Request(url, {
    method: 'POST',
    body,
    headers: deliveryHeaders(body, SECRET, unixNow(), attempt),
  });
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => {
  unhandled.push(reason);
};
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe.each([
  ['node', serveNode],
  ['web', serveWeb],
] as const)('respondWithin over HTTP (%s adapter)', (_adapter, serveWith) => {
  async function serve(options: Partial<WebhookHandlerOptions>) {
    const server = await serveWith(
      createWebhookHandler({ secret: SECRET, respondWithin: BOUND_MS, ...options }),
    );
    servers.push(server);
    return (body: string, attempt = 1) =>
      fetch(server.url, { method: 'POST', body, headers: deliveryHeaders(body, SECRET, unixNow(), attempt) });
  }

  it('answers 202 once the bound passes while the handler runs on, and keeps the claim when it succeeds', async () => {
    const slow = slowHandler();
    const deliver = await serve({ onEvent: slow.onEvent });
    const body = eventBody();
    const started = performance.now();
    const response = await deliver(body);
    const elapsed = performance.now() - started;
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ received: true, processing: true });
    expect(slow.finished()).toBe(false);
    // Not before the bound (load only lengthens it); that it comes AT the bound is shown on a fake clock below.
    expect(elapsed).toBeGreaterThanOrEqual(BOUND_MS - 5);

    // A retry while it still runs meets its lease: 409, so the sender tries again later.
    const retry = await deliver(body, 2);
    expect(retry.status).toBe(409);
    expect(await retry.json()).toEqual({ error: { type: 'in_progress' } });
    slow.release();
    await slow.ended;
    expect(slow.finished()).toBe(true);
    expect(await (await deliver(body, 3)).json()).toEqual({ received: true, duplicate: true });
    expect(slow.onEvent).toHaveBeenCalledTimes(1);
  });

  it('tells onError of a late failure and releases the claim, so a retry is processed', async () => {
    const slow = slowHandler(true);
    const onError = vi.fn();
    const errorTold = new Promise<void>((resolve) => onError.mockImplementation(() => resolve()));
    const retried = vi.fn();
    const deliver = await serve({
      onEvent: (event, context) => (context.delivery?.attempt === 1 ? slow.onEvent() : retried(event)),
      onError,
    });
    const body = eventBody();
    expect((await deliver(body, 1)).status).toBe(202);
    slow.release();
    await errorTold;
    const [error, info] = onError.mock.calls[0] as [Error, WebhookErrorInfo];
    expect(error.message).toBe('warehouse API down');
    expect(info).toMatchObject({ outcome: 'failed', background: true, event: { id: JSON.parse(body).id } });
    // The release follows the report; the claim is gone once the next delivery can take it.
    await vi.waitFor(async () => {
      expect(await (await deliver(body, 2)).json()).toEqual({ received: true });
    });
    expect(retried).toHaveBeenCalledTimes(1);
  });

  it('answers 200 as before when the handler finishes within the bound', async () => {
    const onEvent = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    const deliver = await serve({ onEvent });
    const response = await deliver(eventBody());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
  });

  it('waits however long with respondWithin: false', async () => {
    const onEvent = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, BOUND_MS * 2));
    });
    const deliver = await serve({ onEvent, respondWithin: false });
    expect((await deliver(eventBody())).status).toBe(200);
  });
});

describe('respondWithin and waitUntil on the fetch handler', () => {
  it("hands the unfinished work to Workers' ctx.waitUntil, called as a method", async () => {
    const slow = slowHandler();
    const handler = createWebhookHandler({ secret: SECRET, respondWithin: BOUND_MS, onEvent: slow.onEvent });
    const kept: Promise<unknown>[] = [];
    const ctx = {
      waitUntil(this: unknown, promise: Promise<unknown>) {
        // Workers throws "Illegal invocation" for a detached ctx.waitUntil.
        expect(this).toBe(ctx);
        kept.push(promise);
      },
    };
    const response = await handler(signedRequest(eventBody()), { env: 'bindings' }, ctx);
    expect(response.status).toBe(202);
    expect(kept).toHaveLength(1);
    let settled = false;
    void kept[0]!.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    slow.release();
    await kept[0];
    expect(slow.finished()).toBe(true);
  });

  it('resolves the waitUntil promise (never rejects) after a late failure has released the claim', async () => {
    const slow = slowHandler(true);
    const onError = vi.fn();
    const dedupe = new MemoryDedupeStore();
    const handler = createWebhookHandler({
      secret: SECRET,
      respondWithin: BOUND_MS,
      onEvent: slow.onEvent,
      onError,
      dedupe,
    });
    const kept: Promise<unknown>[] = [];
    const body = eventBody();
    expect(
      (await handler(signedRequest(body), { waitUntil: (p: Promise<unknown>) => kept.push(p) })).status,
    ).toBe(202);
    expect(dedupe.size).toBe(1);
    slow.release();
    await expect(kept[0]).resolves.toBeUndefined();
    expect(dedupe.size).toBe(0);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'warehouse API down' }),
      expect.objectContaining({ background: true }),
    );
  });

  it("uses the waitUntil option (Vercel's) when the call brings none, and the call's when it does", async () => {
    const fromOption = vi.fn();
    const fromCall = vi.fn();
    const slow = slowHandler();
    const handler = createWebhookHandler({
      secret: SECRET,
      respondWithin: BOUND_MS,
      onEvent: slow.onEvent,
      waitUntil: fromOption,
    });
    expect((await handler(signedRequest(eventBody()))).status).toBe(202);
    expect((await handler(signedRequest(eventBody()), { waitUntil: fromCall })).status).toBe(202);
    expect(fromOption).toHaveBeenCalledTimes(1);
    expect(fromCall).toHaveBeenCalledTimes(1);
    expect(fromOption.mock.calls[0]![0]).toBeInstanceOf(Promise);
    slow.release();
    await Promise.all([fromOption.mock.calls[0]![0], fromCall.mock.calls[0]![0]]);
  });

  it('does not call waitUntil when the handler finishes in time', async () => {
    const waitUntil = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, onEvent: () => undefined, waitUntil });
    expect((await handler(signedRequest(eventBody()))).status).toBe(200);
    expect(waitUntil).not.toHaveBeenCalled();
  });

  it('survives a throwing waitUntil, a throwing onError and a failing release, without a rejection', async () => {
    const slow = slowHandler(true);
    const released = gate();
    const broken: DedupeStore = {
      claim: () => 'tok',
      release: () => {
        released.open();
        throw new Error('redis gone');
      },
    };
    const onError = vi.fn((_error: unknown, _info: WebhookErrorInfo) => {
      throw new Error('logger broken');
    });
    const handler = createWebhookHandler({
      secret: SECRET,
      respondWithin: BOUND_MS,
      onEvent: slow.onEvent,
      onError,
      dedupe: broken,
      waitUntil: () => {
        throw new Error('waitUntil called outside a request');
      },
    });
    expect((await handler(signedRequest(eventBody()))).status).toBe(202);
    expect(onError.mock.calls.map(([error]) => (error as Error).message)).toEqual([
      'waitUntil called outside a request',
    ]);
    slow.release();
    await released.opened;
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(3));
    expect(onError.mock.calls.map(([error]) => (error as Error).message)).toEqual([
      'waitUntil called outside a request',
      'warehouse API down',
      'redis gone',
    ]);
  });

  it('counts the bound from the call, through handle() with its own waitUntil', async () => {
    const slow = slowHandler();
    const waitUntil = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, respondWithin: BOUND_MS, onEvent: slow.onEvent });
    const body = eventBody();
    const result = await handler.handle({
      body,
      headers: deliveryHeaders(body, SECRET, unixNow()),
      waitUntil,
    });
    expect(result).toMatchObject({ status: 202, outcome: 'accepted', event: { id: JSON.parse(body).id } });
    expect(waitUntil).toHaveBeenCalledTimes(1);
    slow.release();
    await waitUntil.mock.calls[0]![0];
  });
});

describe('respondWithin on a fake clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers exactly at the bound: nothing at BOUND_MS - 1 ms, 202 at BOUND_MS, the handler still running', async () => {
    // Date too: the bound counts from the call's Date.now().
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now() });
    const slow = slowHandler();
    const handler = createWebhookHandler({ secret: SECRET, respondWithin: BOUND_MS, onEvent: slow.onEvent });
    let answered: Response | null = null;
    const pending = handler(signedRequest(eventBody())).then((response) => {
      answered = response;
      return response;
    });
    // Verified and handed to the handler (Web Crypto settles outside the fake clock): the clock has not moved.
    while (slow.onEvent.mock.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(BOUND_MS - 1);
    expect(answered).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).not.toBeNull();
    expect((await pending).status).toBe(202);
    expect(slow.finished()).toBe(false);
    slow.release();
    await slow.ended;
  });
});

describe('respondWithin setup', () => {
  it('defaults to 8 s and refuses what is not a whole number of ms or false', () => {
    expect(DEFAULT_RESPOND_WITHIN_MS).toBe(8000);
    for (const respondWithin of [0, -1, 1.5, Number.NaN, '8000' as never, true as never]) {
      expect(() => createWebhookHandler({ secret: SECRET, respondWithin })).toThrow(
        WebhookConfigurationError,
      );
    }
    expect(() => createWebhookHandler({ secret: SECRET, waitUntil: 'ctx' as never })).toThrow(
      /waitUntil must be a function/,
    );
  });
});
