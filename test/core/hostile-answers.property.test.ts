// Issue 20's closing figures: a fuzz of hostile answers over HTTP (msw). Any status, any body (JSON of any
// depth, text, the key echoed anywhere, a body bigger than the limit), to a POST, a GET or a list, with a
// logger and hooks watching. Every call must settle within its deadline, fail (if it fails) with a ShopError,
// and leave the key in no printed form of the error, no log line, no hook argument.
import { inspect } from 'node:util';
import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { isShopError } from '../../src/core/errors/index.js';
import type { Logger } from '../../src/core/observe/logger.js';
import {
  API_KEY,
  BASE_URL,
  createReservation,
  listReservations,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();
const FUNCTION_KEY = 'sk_live_fuzzed_function_key_77aa';
const WHSEC = 'whsec_ZnV6emVkLXdlYmhvb2stc2VjcmV0';
const SECRETS = [API_KEY, FUNCTION_KEY, WHSEC];

/** A JSON text nested `depth` levels, the key or a webhook secret at the bottom, built without recursion. */
function deepJson(depth: number, leaf: string, array: boolean): string {
  const open = array ? '[' : '{"k":';
  const close = array ? ']' : '}';
  return `${open.repeat(depth)}${JSON.stringify(leaf)}${close.repeat(depth)}`;
}

const leaf = fc.constantFrom(...SECRETS.map((secret) => `Bearer ${secret}`), ...SECRETS, 'plain text');
const answerBody = fc.oneof(
  // The envelope with deep or echoing parts.
  fc
    .record({
      depth: fc.integer({ min: 0, max: 6_000 }),
      leaf,
      array: fc.boolean(),
      where: fc.constantFrom('data', 'meta', 'details', 'message'),
    })
    .map(({ depth, leaf: text, array, where }) =>
      where === 'details'
        ? `{"status":"error","error":{"code":"INVALID_STATE","message":"m","details":${deepJson(depth, text, array)}}}`
        : where === 'message'
          ? JSON.stringify({ status: 'error', error: { code: 'X', message: text.repeat(1 + (depth % 50)) } })
          : where === 'meta'
            ? `{"status":"ok","data":[],"meta":${deepJson(depth, text, array)}}`
            : `{"status":"ok","data":${deepJson(depth, text, array)}}`,
    ),
  // Any JSON value at all, or text that is not JSON.
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 300 }),
  leaf.map((text) => `<html><body>proxy error for ${text}</body></html>`),
);

describe('hostile answers, fuzzed (issue 20)', () => {
  it('every call settles within its deadline with a result or a ShopError, and nothing leaks the key', async () => {
    const tally = { runs: 0, hangs: 0, untyped: 0, leaks: 0, succeeded: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          status: fc.constantFrom(200, 201, 204, 400, 404, 409, 422, 429, 500, 502, 503),
          body: answerBody,
          kind: fc.constantFrom('get', 'post', 'list'),
          functionKey: fc.boolean(),
          maxResponseBytes: fc.constantFrom(256, 16 * 1024 * 1024),
        }),
        async ({ status, body, kind, functionKey, maxResponseBytes }) => {
          server.resetHandlers(
            http.all(`${BASE_URL}/*`, () =>
              status === 204
                ? new HttpResponse(null, { status })
                : new HttpResponse(body, {
                    status,
                    headers: { 'content-type': 'application/json', 'retry-after': '0' },
                  }),
            ),
          );
          const seen: string[] = [];
          const log = (...args: unknown[]) => void seen.push(inspect(args, { depth: 8 }));
          const logger: Logger = { debug: log, info: log, warn: log, error: log };
          const shop = testClient({
            apiKey: functionKey ? () => FUNCTION_KEY : API_KEY,
            logger,
            logLevel: 'debug',
            maxRetries: 1,
            deadline: 2_000,
            maxResponseBytes,
            hooks: {
              beforeRetry: [(context) => void seen.push(inspect(context, { depth: 8 }))],
              beforeError: [(error) => void seen.push(inspect(error, { depth: 8 }))],
            },
          });
          const call =
            kind === 'get'
              ? shop.request(retrieveReservation, { path: { id: 1 } })
              : kind === 'post'
                ? shop.request(createReservation, { body: { party_size: 2 } })
                : shop.list(listReservations).toArray({ max: 5 });
          const started = performance.now();
          let outcome: unknown = 'ok';
          try {
            await call;
          } catch (error) {
            outcome = error;
          }
          tally.runs++;
          if (performance.now() - started > 2_000 + 1_500) tally.hangs++;
          if (outcome === 'ok') tally.succeeded++;
          else {
            tally.failed++;
            if (!isShopError(outcome)) tally.untyped++;
            const printed = [
              String(outcome),
              (outcome as Error).stack ?? '',
              inspect(outcome, { depth: Number.POSITIVE_INFINITY }),
              JSON.stringify(outcome),
            ].join('\n');
            seen.push(printed);
          }
          // This client's key and any webhook secret (a key the client never held cannot be known to it).
          const secrets = [functionKey ? FUNCTION_KEY : API_KEY, WHSEC];
          if (seen.some((text) => secrets.some((secret) => text.includes(secret)))) tally.leaks++;
        },
      ),
      { numRuns: 250 },
    );
    expect(tally).toMatchObject({ hangs: 0, untyped: 0, leaks: 0 });
    expect(tally.failed).toBeGreaterThan(100);
    if (process.env.FUZZ_FIGURES) console.info('hostile-answer fuzz', tally);
  }, 120_000);
});
