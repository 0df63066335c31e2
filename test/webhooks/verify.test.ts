import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacBackend, useHmacBackend } from '../../src/webhooks/hmac.js';
import {
  isKnownEventType,
  readDeliveryHeaders,
  signPayload,
  verifyWebhook,
  verifyWebhookSignature,
  WebhookConfigurationError,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../../src/webhooks/index.js';
import { eventBody, hasOpenssl, nodeHmac, opensslHmac, signatureHeader } from './helpers.js';

const SECRET = 'whsec_test_secret';
const T = 1_700_000_000;

async function reasonOf(promise: Promise<unknown>): Promise<WebhookVerificationReason> {
  const error = await promise.then(
    () => {
      throw new Error('expected the delivery to be refused');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  const verificationError = error as WebhookVerificationError;
  expect(verificationError.message).not.toContain(SECRET);
  return verificationError.reason;
}

function verify(
  body: unknown,
  signature: string | undefined,
  options: { secret?: string | string[]; now?: number } = {},
) {
  return verifyWebhook({
    body: body as string,
    headers: signature === undefined ? {} : { 'Service-Signature': signature },
    secret: options.secret ?? SECRET,
    now: options.now ?? T,
  });
}

describe.each(['node:crypto', 'web-crypto'] as const)('verifyWebhook on %s', (backend) => {
  beforeAll(() => useHmacBackend(backend));
  afterAll(() => useHmacBackend('auto'));

  it('runs on the backend under test', () => {
    expect(hmacBackend()).toBe(backend);
  });

  describe('signature vectors computed outside the SDK', () => {
    it('matches the fixed vector of the design (and openssl), then refuses that body as not an event', async () => {
      const body = '{"id":"evt_1","object":"event"}';
      const vector = '0c8670ed117751cc551a20e35839447075c42800ea3cf3e8a2fbda99cd1e6edd';
      expect(nodeHmac(SECRET, T, body)).toBe(vector);
      expect(await signPayload({ body, secret: SECRET, timestamp: T })).toBe(`t=${T},v1=${vector}`);
      // The signature passes: the refusal is about the payload (the vector's body has no type), not the HMAC.
      expect(await reasonOf(verify(body, `t=${T},v1=${vector}`))).toBe('invalid_payload');
    });

    // openssl's own HMAC of the vector: reported skipped where openssl is missing, never passed unchecked.
    it.runIf(hasOpenssl)('openssl computes the same vector', () => {
      expect(opensslHmac(SECRET, T, '{"id":"evt_1","object":"event"}')).toBe(
        '0c8670ed117751cc551a20e35839447075c42800ea3cf3e8a2fbda99cd1e6edd',
      );
    });

    it.runIf(hasOpenssl)(
      'accepts deliveries signed by openssl, for unicode bodies and several secrets',
      async () => {
        const secrets = ['whsec_test_secret', 'whsec_ÄÖÜ_ünïcode_秘密', `whsec_${'k'.repeat(200)}`];
        const bodies = [eventBody(), eventBody({ data: { object: { object: 'x', note: 'café ☕ 🎯 ∑' } } })];
        for (const secret of secrets) {
          for (const body of bodies) {
            const header = `t=${T},v1=${opensslHmac(secret, T, body)}`;
            const event = await verify(body, header, { secret });
            expect(event.id).toBe(JSON.parse(body).id);
          }
        }
      },
    );

    it('accepts the raw body as a string, a Buffer, a Uint8Array, an ArrayBuffer and a DataView', async () => {
      const body = eventBody({ data: { object: { object: 'x', name: 'Glock 19 – 9×19mm' } } });
      const header = signatureHeader(SECRET, T, body);
      const bytes = new TextEncoder().encode(body);
      const forms: unknown[] = [
        body,
        Buffer.from(body),
        bytes,
        bytes.buffer,
        new DataView(bytes.buffer),
        // A Buffer that is a slice of a bigger pool, as Node's request chunks are.
        Buffer.concat([Buffer.from('xxxx'), Buffer.from(body)]).subarray(4),
      ];
      for (const form of forms) expect((await verify(form, header)).id).toBe(JSON.parse(body).id);
    });

    it('parses the event typed by its type, and an unknown type as a generic event', async () => {
      const known = eventBody({
        type: 'inventory.changed',
        data: { object: { object: 'inventory_level', qty_available: 4 } },
      });
      const event = await verify(known, signatureHeader(SECRET, T, known));
      expect(event.type).toBe('inventory.changed');
      if (event.type === 'inventory.changed') expect(event.data.object.qty_available).toBe(4);

      const future = eventBody({
        type: 'range.lane.repainted',
        data: { object: { object: 'range_lane', colour: 'red' } },
      });
      const unknown = await verify(future, signatureHeader(SECRET, T, future));
      expect(unknown.type).toBe('range.lane.repainted');
      expect(isKnownEventType(unknown.type)).toBe(false);
      expect(unknown.data.object).toEqual({ object: 'range_lane', colour: 'red' });
    });
  });

  describe('rotation', () => {
    const body = eventBody();
    const both = signatureHeader(['whsec_old', 'whsec_new'], T, body);

    it('accepts a delivery signed with old and new secrets by a receiver holding either or both', async () => {
      for (const secret of [
        ['whsec_old'],
        ['whsec_new'],
        ['whsec_old', 'whsec_new'],
        ['whsec_new', 'whsec_old'],
      ]) {
        expect((await verify(body, both, { secret })).id).toBe(JSON.parse(body).id);
      }
    });

    it('accepts a delivery signed only with the new secret by a receiver holding both', async () => {
      const onlyNew = signatureHeader('whsec_new', T, body);
      expect((await verify(body, onlyNew, { secret: ['whsec_old', 'whsec_new'] })).id).toBe(
        JSON.parse(body).id,
      );
      expect(await reasonOf(verify(body, onlyNew, { secret: ['whsec_old'] }))).toBe('signature_mismatch');
    });

    it('refuses a receiver whose secrets signed neither v1', async () => {
      expect(await reasonOf(verify(body, both, { secret: ['whsec_other', 'whsec_another'] }))).toBe(
        'signature_mismatch',
      );
    });

    it('signPayload with a list signs with each secret, one v1 per secret', async () => {
      const header = await signPayload({ body, secret: ['whsec_old', 'whsec_new'], timestamp: T });
      expect(header).toBe(both);
    });
  });

  describe('tolerance', () => {
    const body = eventBody();
    const header = signatureHeader(SECRET, T, body);

    it.each([
      [-301, false],
      [-300, true],
      [-299, true],
      [0, true],
      [299, true],
      [300, true],
      [301, false],
    ])('with the clock %i s from t, accepts: %s', async (offset, accepted) => {
      const attempt = verify(body, header, { now: T + offset });
      if (accepted) expect((await attempt).id).toBe(JSON.parse(body).id);
      else expect(await reasonOf(attempt)).toBe('timestamp_out_of_tolerance');
    });

    it('takes a custom tolerance and a Date for now', async () => {
      const options = {
        body,
        headers: { 'service-signature': header },
        secret: SECRET,
        toleranceSeconds: 10,
      };
      await expect(verifyWebhook({ ...options, now: new Date((T + 10) * 1000) })).resolves.toBeDefined();
      await expect(verifyWebhook({ ...options, now: new Date((T - 11) * 1000) })).rejects.toMatchObject({
        reason: 'timestamp_out_of_tolerance',
        message: expect.stringContaining('11 s in the future'),
      });
    });

    it('checks the signature before the time, so an old forged delivery is a mismatch', async () => {
      expect(await reasonOf(verify(body, header, { now: T + 10_000, secret: 'whsec_wrong' }))).toBe(
        'signature_mismatch',
      );
    });
  });
});

describe('verifyWebhook refuses with a reason', () => {
  const body = eventBody();
  const v1 = nodeHmac(SECRET, T, body);

  it.each([
    ['no Service-Signature header', undefined, 'missing_header'],
    ['a blank header', '   ', 'missing_header'],
    ['t=abc (the time check must not switch off)', `t=abc,v1=${v1}`, 'malformed_header'],
    ['a signed t', `t=+${T},v1=${v1}`, 'malformed_header'],
    ['a fractional t', `t=${T}.5,v1=${v1}`, 'malformed_header'],
    ['an empty t', `t=,v1=${v1}`, 'malformed_header'],
    ['no t', `v1=${v1}`, 'malformed_header'],
    ['two t (two headers joined by Node)', `t=${T},v1=${v1}, t=${T},v1=${v1}`, 'malformed_header'],
    ['no v1', `t=${T}`, 'malformed_header'],
    ['only another scheme', `t=${T},v0=${v1}`, 'malformed_header'],
    ['a part without =', `t=${T},${v1}`, 'malformed_header'],
    ['a header over the cap', `t=${T},v1=${v1},x=${'a'.repeat(5000)}`, 'malformed_header'],
    ['more v1 than the cap', `t=${T}${`,v1=${v1}`.repeat(9)}`, 'malformed_header'],
    ['uppercase hex (never matches)', `t=${T},v1=${v1.toUpperCase()}`, 'signature_mismatch'],
    ['a v1 of 63 characters', `t=${T},v1=${v1.slice(1)}`, 'signature_mismatch'],
    ['a v1 of 65 characters', `t=${T},v1=${v1}0`, 'signature_mismatch'],
    ['a v1 that is not hex', `t=${T},v1=${'z'.repeat(64)}`, 'signature_mismatch'],
    ['a v1 for another t', `t=${T + 1},v1=${v1}`, 'signature_mismatch'],
  ] as const)('%s', async (_name, header, reason) => {
    expect(await reasonOf(verify(body, header))).toBe(reason);
  });

  it('accepts parts with spaces around them, and ignores other schemes beside v1', async () => {
    const event = await verify(body, `  t = ${T} , v0=abc ,  v1= ${v1}  ,`);
    expect(event.id).toBe(JSON.parse(body).id);
  });

  it('accepts a good v1 beside malformed ones', async () => {
    expect((await verify(body, `t=${T},v1=nothex,v1=${v1.toUpperCase()},v1=${v1}`)).id).toBe(
      JSON.parse(body).id,
    );
  });

  it('explains two joined headers, and the same header given as an array', async () => {
    const joined = verifyWebhook({
      body,
      headers: { 'service-signature': [`t=${T},v1=${v1}`, `t=${T},v1=${v1}`] },
      secret: SECRET,
      now: T,
    });
    await expect(joined).rejects.toMatchObject({ reason: 'malformed_header', message: /joined/ });
  });

  it('reads the header from fetch Headers and from objects in any letter case', async () => {
    const header = `t=${T},v1=${v1}`;
    for (const headers of [new Headers({ 'Service-Signature': header }), { 'SERVICE-SIGNATURE': header }]) {
      expect((await verifyWebhook({ body, headers, secret: SECRET, now: T })).id).toBe(JSON.parse(body).id);
    }
  });

  describe('invalid_body', () => {
    const header = `t=${T},v1=${v1}`;

    it('says to pass the raw body when given a parsed object', async () => {
      await expect(verify(JSON.parse(body), header)).rejects.toMatchObject({
        reason: 'invalid_body',
        message: expect.stringMatching(/body was parsed to an object: pass the raw body/),
      });
    });

    it('refuses an empty, null or numeric body', async () => {
      for (const empty of ['', new Uint8Array(0), null, undefined, 42]) {
        expect(await reasonOf(verify(empty, header))).toBe('invalid_body');
      }
    });

    it('recognises a body a serverless platform encoded as base64', async () => {
      const base64 = Buffer.from(body).toString('base64');
      await expect(verify(base64, header)).rejects.toMatchObject({
        reason: 'invalid_body',
        message: /base64/,
      });
      // Decoded as the message says, it verifies.
      expect((await verify(Buffer.from(base64, 'base64'), header)).id).toBe(JSON.parse(body).id);
    });

    it('refuses authentic bytes that are not UTF-8, and hints when a string was decoded lossily', async () => {
      const bytes = Buffer.concat([
        Buffer.from(body.slice(0, -2)),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('}}'),
      ]);
      const signed = signatureHeader(SECRET, T, bytes);
      await expect(verify(bytes, signed)).rejects.toMatchObject({ reason: 'invalid_body', message: /UTF-8/ });
      const lossy = bytes.toString('utf8');
      await expect(verify(lossy, signed)).rejects.toMatchObject({
        reason: 'signature_mismatch',
        message: /U\+FFFD/,
      });
    });
  });

  describe('invalid_payload', () => {
    it.each([
      ['not JSON', 'not json at all'],
      ['a JSON array', '[1,2]'],
      ['no id', JSON.stringify({ object: 'event', type: 'x', created_at: 'x', data: { object: {} } })],
      ['no type', JSON.stringify({ id: 'evt_1', object: 'event', created_at: 'x', data: { object: {} } })],
      [
        'no data.object',
        JSON.stringify({ id: 'evt_1', object: 'event', type: 'x', created_at: 'x', data: {} }),
      ],
      [
        'another object',
        JSON.stringify({ id: 'evt_1', object: 'order', type: 'x', created_at: 'x', data: { object: {} } }),
      ],
    ])('refuses an authentic body that is %s', async (_name, text) => {
      expect(await reasonOf(verify(text, signatureHeader(SECRET, T, text)))).toBe('invalid_payload');
    });

    it('refuses a Service-Event-Id or Service-Event header that disagrees with the signed body', async () => {
      const signature = `t=${T},v1=${v1}`;
      const id = JSON.parse(body).id as string;
      const base = { body, secret: SECRET, now: T };
      await expect(
        verifyWebhook({
          ...base,
          headers: { 'service-signature': signature, 'service-event-id': 'evt_other' },
        }),
      ).rejects.toMatchObject({ reason: 'invalid_payload', message: /Service-Event-Id/ });
      await expect(
        verifyWebhook({
          ...base,
          headers: { 'service-signature': signature, 'service-event': 'sale.voided' },
        }),
      ).rejects.toMatchObject({ reason: 'invalid_payload', message: /Service-Event header/ });
      const agreeing = {
        'service-signature': signature,
        'service-event-id': id,
        'service-event': 'range.reservation.booked',
      };
      expect((await verifyWebhook({ ...base, headers: agreeing })).id).toBe(id);
    });
  });

  it('hints at a secret without its whsec_ prefix, without showing the secret', async () => {
    const error = await verify(body, `t=${T},v1=${v1}`, { secret: 'test_secret' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ reason: 'signature_mismatch', message: /whsec_/ });
    expect((error as Error).message).not.toContain('test_secret');
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts an authentic, fresh delivery without parsing the body', async () => {
    const body = 'not an event, but signed';
    const header = signatureHeader(SECRET, T, body);
    await expect(
      verifyWebhookSignature({ body, headers: { 'service-signature': header }, secret: SECRET, now: T }),
    ).resolves.toBeUndefined();
  });

  it('refuses a forged, stale or malformed delivery like verifyWebhook', async () => {
    const body = eventBody();
    const options = { body, secret: SECRET, now: T };
    const cases: [string | undefined, number, WebhookVerificationReason][] = [
      [signatureHeader('whsec_other', T, body), T, 'signature_mismatch'],
      [signatureHeader(SECRET, T, body), T + 301, 'timestamp_out_of_tolerance'],
      [`t=abc,v1=${nodeHmac(SECRET, T, body)}`, T, 'malformed_header'],
      [undefined, T, 'missing_header'],
    ];
    for (const [header, now, reason] of cases) {
      const headers = header === undefined ? {} : { 'service-signature': header };
      expect(await reasonOf(verifyWebhookSignature({ ...options, headers, now }))).toBe(reason);
    }
  });

  it('checks each call against the secret it is given, one call after another', async () => {
    const body = eventBody();
    const headers = { 'service-signature': signatureHeader(SECRET, T, body) };
    await expect(verifyWebhookSignature({ body, headers, secret: SECRET, now: T })).resolves.toBeUndefined();
    expect(await reasonOf(verifyWebhookSignature({ body, headers, secret: 'whsec_next', now: T }))).toBe(
      'signature_mismatch',
    );
    await expect(verifyWebhookSignature({ body, headers, secret: ' ', now: T })).rejects.toBeInstanceOf(
      WebhookConfigurationError,
    );
    await expect(verifyWebhookSignature({ body, headers, secret: SECRET, now: T })).resolves.toBeUndefined();
  });
});

describe('setup mistakes are configuration errors, not verification errors', () => {
  const body = eventBody();
  const headers = { 'service-signature': signatureHeader(SECRET, T, body) };

  it.each([
    ['an empty secret', { secret: '' }],
    ['a blank secret', { secret: '  \n' }],
    ['an empty list', { secret: [] as string[] }],
    ['a list with a blank secret', { secret: [SECRET, ' '] }],
    ['a missing secret', { secret: undefined as unknown as string }],
    ['a negative tolerance', { secret: SECRET, toleranceSeconds: -1 }],
    ['an infinite tolerance', { secret: SECRET, toleranceSeconds: Number.POSITIVE_INFINITY }],
    ['now in milliseconds', { secret: SECRET, now: T * 1000 }],
  ])('%s', async (_name, options) => {
    await expect(verifyWebhook({ body, headers, now: T, ...options })).rejects.toBeInstanceOf(
      WebhookConfigurationError,
    );
  });

  it('signPayload refuses a blank secret and a timestamp that is not whole seconds', async () => {
    await expect(signPayload({ body, secret: ' ' })).rejects.toBeInstanceOf(WebhookConfigurationError);
    await expect(signPayload({ body, secret: SECRET, timestamp: 1.5 })).rejects.toBeInstanceOf(
      WebhookConfigurationError,
    );
  });
});

describe('readDeliveryHeaders', () => {
  it('exposes the delivery headers, and nulls for absent or malformed ones', () => {
    expect(
      readDeliveryHeaders(
        new Headers({
          'Service-Event': 'sale.completed',
          'Service-Event-Id': 'evt_9',
          'Service-Delivery-Id': 'dlv_1',
          'Service-Attempt': '3',
        }),
      ),
    ).toEqual({ eventType: 'sale.completed', eventId: 'evt_9', deliveryId: 'dlv_1', attempt: 3 });
    expect(readDeliveryHeaders({ 'service-attempt': 'two' })).toEqual({
      eventType: null,
      eventId: null,
      deliveryId: null,
      attempt: null,
    });
  });
});
