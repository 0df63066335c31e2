import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHmacBackend } from '../../src/webhooks/hmac.js';
import {
  verifyWebhook,
  WebhookConfigurationError,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { eventBody, nodeHmac } from './helpers.js';

const SECRET = 'whsec_property_secret';
const T = 1_700_000_000;

async function refusal(body: Uint8Array | string, header: string): Promise<unknown> {
  return verifyWebhook({ body, headers: { 'service-signature': header }, secret: SECRET, now: T }).then(
    () => null,
    (error: unknown) => error,
  );
}

describe.each(['node:crypto', 'web-crypto'] as const)(
  'one changed byte fails verification (%s)',
  (backend) => {
    beforeAll(() => useHmacBackend(backend));
    afterAll(() => useHmacBackend('auto'));

    const body = Buffer.from(eventBody({ data: { object: { object: 'x', note: 'héllo wörld', n: 12345 } } }));
    const v1 = nodeHmac(SECRET, T, body);

    it('accepts the unchanged delivery (so a refusal below is caused by the change)', async () => {
      expect(await refusal(body, `t=${T},v1=${v1}`)).toBeNull();
    });

    it('any change to one byte of the body', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: body.length - 1 }),
          fc.integer({ min: 1, max: 255 }),
          async (index, flip) => {
            const changed = Buffer.from(body);
            changed[index] = changed[index]! ^ flip;
            const error = await refusal(changed, `t=${T},v1=${v1}`);
            expect(error).toBeInstanceOf(WebhookVerificationError);
            expect((error as WebhookVerificationError).reason).toBe('signature_mismatch');
          },
        ),
        { numRuns: 300 },
      );
    });

    it('any change to one character of t', async () => {
      const t = String(T);
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: t.length - 1 }),
          fc.integer({ min: 0, max: 255 }),
          async (index, code) => {
            const char = String.fromCharCode(code);
            fc.pre(char !== t[index]);
            const changed = t.slice(0, index) + char + t.slice(index + 1);
            const error = await refusal(body, `t=${changed},v1=${v1}`);
            expect(error).toBeInstanceOf(WebhookVerificationError);
            // A digit gives another t (mismatch); anything else a malformed t. Never accepted.
            expect(['signature_mismatch', 'malformed_header']).toContain(
              (error as WebhookVerificationError).reason,
            );
          },
        ),
        { numRuns: 300 },
      );
    });

    it('any change to one character of v1', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: v1.length - 1 }),
          fc.integer({ min: 0x21, max: 0x7e }),
          async (index, code) => {
            const char = String.fromCharCode(code);
            fc.pre(char !== v1[index] && char !== ',');
            const changed = v1.slice(0, index) + char + v1.slice(index + 1);
            const error = await refusal(body, `t=${T},v1=${changed}`);
            expect(error).toBeInstanceOf(WebhookVerificationError);
            expect((error as WebhookVerificationError).reason).toBe('signature_mismatch');
          },
        ),
        { numRuns: 300 },
      );
    });
  },
);

describe('arbitrary input never escapes as a bare error', () => {
  it('any header and body string give an event or a WebhookVerificationError', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc
        .tuple(fc.string({ maxLength: 20 }), fc.array(fc.string({ maxLength: 70 }), { maxLength: 4 }))
        .map(([t, v1s]) => [`t=${t}`, ...v1s.map((v) => `v1=${v}`)].join(',')),
    );
    const body = fc.oneof(fc.string({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), fc.jsonValue());
    await fc.assert(
      fc.asyncProperty(header, body, async (h, b) => {
        const outcome = await verifyWebhook({
          body: b as string,
          headers: { 'service-signature': h },
          secret: SECRET,
          now: T,
        }).then(
          () => 'accepted',
          (error: unknown) => error,
        );
        expect(outcome).toBeInstanceOf(WebhookVerificationError);
        expect(outcome).not.toBeInstanceOf(WebhookConfigurationError);
      }),
      { numRuns: 500 },
    );
  });
});
