// Tests written against the mutants Stryker left alive in webhooks verification and signature header parsing
// (issue 35, `npm run test:mutation -- --mutate src/webhooks/verify.ts`): each pins a boundary, a refusal or
// a message a receiver's operator reads. No wire here: verifyWebhook takes the body and headers as given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SIGNATURE_HEADER_LENGTH, MAX_SIGNATURES, readHeader } from '../../src/webhooks/headers.js';
import { useHmacBackend } from '../../src/webhooks/hmac.js';
import {
  readDeliveryHeaders,
  verifyWebhook,
  verifyWebhookSignature,
  WebhookConfigurationError,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { verifierSettings } from '../../src/webhooks/verify.js';
import { eventBody, nodeHmac, signatureHeader } from './helpers.js';

const SECRET = 'whsec_mutants_0123456789';
const OTHER = 'whsec_mutants_other_9876';
const T = 1_700_000_000;

type Headers = Record<string, string | string[] | null | number | undefined>;

function verify(body: string, headers: Headers, options: { secret?: string | string[]; now?: unknown } = {}) {
  return verifyWebhook({
    body,
    headers: headers as Record<string, string>,
    secret: options.secret ?? SECRET,
    now: (options.now ?? T) as number,
  });
}

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the delivery to be refused');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

async function configurationError(promise: Promise<unknown>): Promise<WebhookConfigurationError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a configuration error');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookConfigurationError);
  return error as WebhookConfigurationError;
}

const v1 = (body: string, secret = SECRET, t = T) => nodeHmac(secret, t, body);

describe('the Service-Signature header, parsed strictly', () => {
  it('names each malformed header exactly', async () => {
    const body = eventBody();
    const sig = v1(body);
    const cases: Array<[string | undefined, string, string]> = [
      [
        undefined,
        'missing_header',
        'No Service-Signature header: not a signed delivery, or a proxy dropped the header.',
      ],
      [
        '  ',
        'missing_header',
        'No Service-Signature header: not a signed delivery, or a proxy dropped the header.',
      ],
      [`v1=${sig}`, 'malformed_header', 'Service-Signature header has no timestamp (t=...).'],
      [
        `t=${T},junk,v1=${sig}`,
        'malformed_header',
        'Service-Signature header has a part without "key=value": expected "t=<unix seconds>,v1=<hex>".',
      ],
      [
        `t=${T},=x,v1=${sig}`,
        'malformed_header',
        'Service-Signature header has a part without "key=value": expected "t=<unix seconds>,v1=<hex>".',
      ],
      [
        `t=${T},v1=${sig}, t=${T},v1=${sig}`,
        'malformed_header',
        'Service-Signature header has 2 timestamps: two such headers were joined into one (Node and fetch join ' +
          'a repeated header with ", "); a delivery carries exactly one.',
      ],
      [
        `t=12ab,v1=${sig}`,
        'malformed_header',
        'Service-Signature header has a timestamp that is not unix seconds (digits only).',
      ],
      [`t=${T}`, 'malformed_header', 'Service-Signature header has no v1 signature.'],
      [
        [`t=${T}`, ...Array.from({ length: MAX_SIGNATURES + 1 }, () => `v1=${sig}`)].join(','),
        'malformed_header',
        `Service-Signature header has ${MAX_SIGNATURES + 1} v1 signatures; at most ${MAX_SIGNATURES} are accepted.`,
      ],
    ];
    expect(cases).toHaveLength(9);
    for (const [header, reason, message] of cases) {
      const error = await refusal(verify(body, header === undefined ? {} : { 'service-signature': header }));
      expect({ header, reason: error.reason, message: error.message }).toEqual({ header, reason, message });
    }
  });

  it('accepts a header of exactly the longest length, and names the length of one a character longer', async () => {
    const body = eventBody();
    const core = `t=${T},v1=${v1(body)}`;
    const longest = core + ','.repeat(MAX_SIGNATURE_HEADER_LENGTH - core.length);
    expect(longest).toHaveLength(MAX_SIGNATURE_HEADER_LENGTH);
    expect((await verify(body, { 'service-signature': longest })).id).toBe(JSON.parse(body).id);
    const error = await refusal(verify(body, { 'service-signature': `${longest},` }));
    expect(error.reason).toBe('malformed_header');
    expect(error.message).toBe(
      `Service-Signature header is ${MAX_SIGNATURE_HEADER_LENGTH + 1} characters long; at most ` +
        `${MAX_SIGNATURE_HEADER_LENGTH} are accepted.`,
    );
  });

  it(`accepts exactly ${MAX_SIGNATURES} v1 values, blank parts and spaces around parts`, async () => {
    const body = eventBody();
    const wrong = v1(body, OTHER);
    const eight = [
      `t=${T}`,
      ...Array.from({ length: MAX_SIGNATURES - 1 }, () => `v1=${wrong}`),
      `v1=${v1(body)}`,
    ];
    expect(eight).toHaveLength(MAX_SIGNATURES + 1);
    expect((await verify(body, { 'service-signature': eight.join(',') })).id).toBe(JSON.parse(body).id);
    // A blank part (a trailing ", ") and spaces around keys and values are not malformed.
    const spaced = ` t = ${T} , , v1 = ${v1(body)} , `;
    expect((await verify(body, { 'service-signature': spaced })).id).toBe(JSON.parse(body).id);
  });
});

describe('reading headers', () => {
  it('refuses a missing or non-object headers as the receiver setup, not the delivery', async () => {
    const body = eventBody();
    for (const headers of [null, 'service-signature: x', 42]) {
      const error = await configurationError(
        verifyWebhook({
          body,
          headers: headers as unknown as Record<string, string>,
          secret: SECRET,
          now: T,
        }),
      );
      expect(error.message).toBe(
        "No headers object: pass the request's headers (fetch Headers or Node's req.headers).",
      );
    }
  });

  it('takes a null header value as absent, and refuses a header value that is not text', async () => {
    const body = eventBody();
    const signed = { 'service-signature': `t=${T},v1=${v1(body)}` };
    expect((await verify(body, { ...signed, 'Service-Event-Id': null, 'service-event': null })).id).toBe(
      JSON.parse(body).id,
    );
    expect((await refusal(verify(body, { 'service-signature': null }))).reason).toBe('missing_header');
    const error = await configurationError(verify(body, { ...signed, 'service-event-id': 42 }));
    expect(error.message).toBe(
      'The service-event-id header is a number: header values are strings (arrays for a repeated header).',
    );
    // A repeated header arrives as an array and is joined, so two signatures meet the duplicate check.
    expect(readHeader({ 'Service-Attempt': ['1', '2'] }, 'service-attempt')).toBe('1, 2');
  });

  it('trims the delivery headers before comparing them with the signed body', async () => {
    const body = eventBody({ type: 'inventory.changed' });
    const id = JSON.parse(body).id as string;
    const event = await verify(body, {
      'service-signature': `t=${T},v1=${v1(body)}`,
      'service-event-id': `  ${id} `,
      'service-event': ' inventory.changed ',
    });
    expect(event.id).toBe(id);
  });

  it('reads the delivery headers trimmed, with Service-Attempt only when it is 1 to 6 digits', () => {
    const read = (attempt: string) =>
      readDeliveryHeaders({
        'service-event': ' inventory.changed ',
        'service-event-id': ' evt_1 ',
        'service-delivery-id': ' dlv_1 ',
        'service-attempt': attempt,
      });
    expect(read(' 12 ')).toEqual({
      eventType: 'inventory.changed',
      eventId: 'evt_1',
      deliveryId: 'dlv_1',
      attempt: 12,
    });
    expect(read('123456').attempt).toBe(123_456);
    expect(['1234567', '3x', 'x3', '-1', '1.5'].map((attempt) => read(attempt).attempt)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('delivery headers that disagree with the signed body', () => {
  it('names the header and quotes the signed value, clipped past 80 characters', async () => {
    const exact = `evt_${'a'.repeat(76)}`;
    const long = `evt_${'b'.repeat(77)}`;
    expect([exact.length, long.length]).toEqual([80, 81]);
    for (const [id, quoted] of [
      [exact, JSON.stringify(exact)],
      [long, JSON.stringify(`${long.slice(0, 80)}...`)],
    ] as const) {
      const body = eventBody({ id });
      const error = await refusal(
        verify(body, { 'service-signature': `t=${T},v1=${v1(body)}`, 'service-event-id': 'evt_forged' }),
      );
      expect(error.reason).toBe('invalid_payload');
      expect(error.message).toBe(
        `The Service-Event-Id header disagrees with the signed body (${quoted}); the header is not signed, ` +
          'so the delivery is refused.',
      );
    }
    const body = eventBody();
    const error = await refusal(
      verify(body, { 'service-signature': `t=${T},v1=${v1(body)}`, 'service-event': 'inventory.changed' }),
    );
    expect(error.message).toBe(
      'The Service-Event header disagrees with the signed body ("range.reservation.booked"); the header is ' +
        'not signed, so the delivery is refused.',
    );
  });
});

describe('the clock', () => {
  it('says how far and which way a stale or early timestamp is, and accepts the tolerance edge', async () => {
    const body = eventBody();
    const signed = { 'service-signature': `t=${T},v1=${v1(body)}` };
    const past = await refusal(verify(body, signed, { now: T + 301 }));
    expect(past.reason).toBe('timestamp_out_of_tolerance');
    expect(past.message).toBe(
      "The signature is valid but its timestamp is 301 s in the past (tolerance 300 s): a replayed delivery, or this machine's clock is off.",
    );
    const future = await refusal(verify(body, signed, { now: T - 400 }));
    expect(future.message).toBe(
      "The signature is valid but its timestamp is 400 s in the future (tolerance 300 s): a replayed delivery, or this machine's clock is off.",
    );
    expect((await verify(body, signed, { now: T + 300 })).id).toBe(JSON.parse(body).id);
    expect((await verify(body, signed, { now: T - 300 })).id).toBe(JSON.parse(body).id);
    // A tolerance of 0 is allowed: only the very second.
    const zero = verifyWebhook({ body, headers: signed, secret: SECRET, now: T, toleranceSeconds: 0 });
    expect((await zero).id).toBe(JSON.parse(body).id);
  });

  it('takes now as a Date or unix seconds from 0 up to, not including, 1e11', async () => {
    const body = eventBody();
    const signedAt = (t: number) => ({ 'service-signature': `t=${t},v1=${v1(body, SECRET, t)}` });
    expect((await verify(body, signedAt(0), { now: 0 })).id).toBe(JSON.parse(body).id);
    expect((await verify(body, signedAt(T), { now: new Date(T * 1000 + 999) })).id).toBe(JSON.parse(body).id);
    const cases: Array<[unknown, string]> = [
      [-1, 'now must be a Date or unix seconds.'],
      [Number.NaN, 'now must be a Date or unix seconds.'],
      [Number.POSITIVE_INFINITY, 'now must be a Date or unix seconds.'],
      ['1700000000', 'now must be a Date or unix seconds.'],
      [new Date(Number.NaN), 'now is an invalid Date.'],
      [1e11, 'now looks like milliseconds: pass unix seconds or a Date.'],
    ];
    expect(cases).toHaveLength(6);
    for (const [now, message] of cases) {
      const error = await configurationError(verify(body, signedAt(T), { now }));
      expect({ now, message: error.message }).toEqual({ now, message });
    }
  });

  it('refuses a tolerance that is negative, not finite or not a number', async () => {
    const body = eventBody();
    const headers = { 'service-signature': `t=${T},v1=${v1(body)}` };
    for (const toleranceSeconds of [-1, Number.NaN, Number.POSITIVE_INFINITY, '300']) {
      const error = await configurationError(
        verifyWebhook({
          body,
          headers,
          secret: SECRET,
          now: T,
          toleranceSeconds: toleranceSeconds as number,
        }),
      );
      expect(error.message).toBe('toleranceSeconds must be a finite number of seconds, 0 or more.');
    }
  });
});

describe('the secrets', () => {
  it('refuses a missing, empty, blank or non-text secret, naming the mistake', async () => {
    const body = eventBody();
    const headers = { 'service-signature': `t=${T},v1=${v1(body)}` };
    const none =
      'No webhook secret: pass the endpoint signing secret (whsec_...), or a list during a rotation.';
    const blank = 'A webhook secret is empty or blank: check the environment variable meant to hold it.';
    const cases: Array<[unknown, string]> = [
      [[], none],
      [undefined, none],
      [42, none],
      ['', blank],
      [[SECRET, '  '], blank],
      [[SECRET, 42], blank],
    ];
    for (const [secret, message] of cases) {
      const error = await configurationError(
        verifyWebhook({ body, headers, secret: secret as string, now: T }),
      );
      expect({ secret, message: error.message }).toEqual({ secret, message });
    }
  });

  it('keeps a rotation list apart from a single secret checked just before (the settings cache)', async () => {
    const body = eventBody();
    const byOther = { 'service-signature': `t=${T},v1=${v1(body, OTHER)}` };
    expect((await verify(body, byOther, { secret: [SECRET, OTHER] })).id).toBe(JSON.parse(body).id);
    expect((await refusal(verify(body, byOther, { secret: SECRET }))).reason).toBe('signature_mismatch');
    expect((await refusal(verify(body, byOther, { secret: [SECRET] }))).reason).toBe('signature_mismatch');
    expect((await verify(body, byOther, { secret: OTHER })).id).toBe(JSON.parse(body).id);
  });

  it('checks a fixed secret once: the same settings object comes back', () => {
    const first = verifierSettings(SECRET, 60);
    expect(verifierSettings(SECRET, 60)).toBe(first);
    expect(verifierSettings(SECRET, 61)).not.toBe(first);
    expect(verifierSettings(SECRET, 61).toleranceSeconds).toBe(61);
  });

  it('names the function and its options when called without an options object', async () => {
    for (const [call, name] of [
      [() => verifyWebhook(undefined as never), 'verifyWebhook'],
      [() => verifyWebhookSignature(null as never), 'verifyWebhookSignature'],
    ] as const) {
      const error = await configurationError(call());
      expect(error.message).toBe(`${name}() needs an options object: ${name}({ body, headers, secret }).`);
    }
  });
});

describe.each(['node:crypto', 'web-crypto'] as const)('a signature mismatch explained, on %s', (backend) => {
  beforeAll(() => useHmacBackend(backend));
  afterAll(() => useHmacBackend('auto'));

  const base = "check it is this endpoint's secret and that the body is the raw bytes received";

  it('with no hint when nothing looks wrong, and with the number of secrets of a rotation', async () => {
    const body = eventBody();
    const byOther = { 'service-signature': `t=${T},v1=${v1(body, 'whsec_someone_else')}` };
    expect((await refusal(verify(body, byOther))).message).toBe(
      `No v1 signature matches this body under the secret: ${base}.`,
    );
    expect((await refusal(verify(body, byOther, { secret: [SECRET, OTHER] }))).message).toBe(
      `No v1 signature matches this body under any of the 2 secrets: ${base}.`,
    );
  });

  it('with a hint for each likely mistake, in order', async () => {
    const body = `${eventBody()}\uFFFD`;
    const header = { 'service-signature': `t=${T},v1=NOT-HEX` };
    const error = await refusal(verify(body, header, { secret: ['test_no_prefix', ' whsec_padded '] }));
    expect(error.reason).toBe('signature_mismatch');
    expect(error.message).toBe(
      `No v1 signature matches this body under any of the 2 secrets: ${base}` +
        '; no v1 is 64 lowercase hex characters' +
        '; the body holds U+FFFD, left by decoding bytes that are not UTF-8: pass the bytes' +
        '; a secret lacks its "whsec_" prefix, which is part of the key' +
        '; a secret has surrounding whitespace.',
    );
    // Only the secret lacking the prefix: one hint, not the whitespace one.
    const one = await refusal(
      verify(
        eventBody(),
        { 'service-signature': `t=${T},v1=${'0'.repeat(64)}` },
        { secret: [SECRET, 'plain'] },
      ),
    );
    expect(one.message).toBe(
      `No v1 signature matches this body under any of the 2 secrets: ${base}` +
        '; a secret lacks its "whsec_" prefix, which is part of the key.',
    );
  });

  it('tells a base64-encoded body (API Gateway) apart from a wrong secret', async () => {
    const body = eventBody();
    const encoded = Buffer.from(body).toString('base64');
    const error = await refusal(verify(encoded, { 'service-signature': signatureHeader(SECRET, T, body) }));
    expect(error.reason).toBe('invalid_body');
    expect(error.message).toBe(
      'The body is base64-encoded (AWS API Gateway or Lambda with isBase64Encoded): decode it to bytes first.',
    );
    // verifyWebhookSignature refuses it the same way, and resolves with nothing for the decoded body.
    const again = await refusal(
      verifyWebhookSignature({
        body: encoded,
        headers: { 'service-signature': signatureHeader(SECRET, T, body) },
        secret: SECRET,
        now: T,
      }),
    );
    expect(again.reason).toBe('invalid_body');
    await expect(
      verifyWebhookSignature({
        body,
        headers: { 'service-signature': signatureHeader(SECRET, T, body) },
        secret: SECRET,
        now: T,
      }),
    ).resolves.toBeUndefined();
  });
});
