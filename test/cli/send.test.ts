// `shop-mgmt send`: a custom event body from a file, signed and delivered as the service delivers one
// (the same headers), to a receiver that verifies it; bad files and refused deliveries have their exit codes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSuite } from './helpers.js';

const { cli, receiver, scratch } = cliSuite('send');
const SECRET = 'whsec_send_test_secret';

describe('shop-mgmt send', () => {
  it('delivers the file byte for byte, signed, with the five Service-* headers', async () => {
    const hook = await receiver();
    hook.secret = SECRET;
    const file = join(scratch(), 'refund.json');
    const text = `${JSON.stringify(
      {
        id: 'evt_custom_0001',
        object: 'event',
        type: 'sale.refunded',
        api_version: '2026-09-24',
        created_at: '2026-10-01T15:00:00Z',
        livemode: false,
        data: { object: { object: 'order', id: 77, status: 'refunded', lines: [] } },
      },
      null,
      2,
    )}\n`;
    writeFileSync(file, text);
    const run = await cli.run([
      'send',
      '--event',
      file,
      '--forward-to',
      hook.url,
      '--secret',
      SECRET,
      '--json',
    ]);
    expect(run.code, run.stderr.join('\n')).toBe(0);
    expect(hook.received).toHaveLength(1);
    const [delivery] = hook.received;
    expect(delivery!.verified).toBe(true);
    expect(delivery!.body).toBe(readFileSync(file, 'utf8'));
    expect(delivery!.headers).toMatchObject({
      'content-type': 'application/json',
      'service-event': 'sale.refunded',
      'service-event-id': 'evt_custom_0001',
      'service-attempt': '1',
    });
    expect(delivery!.headers['service-delivery-id']).toMatch(/^whd_local_/);
    expect(delivery!.headers['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(run.records()[0]).toMatchObject({ event: 'delivery', eventId: 'evt_custom_0001', status: 200 });
    expect(run.stdout.join('\n')).not.toContain(SECRET);
  });

  it('fills in the envelope a file leaves out, takes the secret of listen, and says when a payload breaks its schema', async () => {
    const hook = await receiver();
    const checkpoint = join(scratch(), 'listen.json');
    writeFileSync(
      checkpoint,
      JSON.stringify({ version: 1, secret: SECRET, baseUrl: 'x', checkpoint: null, attempts: {} }),
    );
    hook.secret = SECRET;
    const file = join(scratch(), 'short.json');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'membership.payment_failed',
        data: { object: { object: 'membership', id: 'x' } },
      }),
    );
    const run = await cli.run([
      'send',
      '--event',
      file,
      '--forward-to',
      hook.url,
      '--checkpoint',
      checkpoint,
      '--attempt',
      '3',
    ]);
    expect(run.code, run.stderr.join('\n')).toBe(0);
    const [delivery] = hook.received;
    expect(delivery!.verified).toBe(true);
    expect(delivery!.headers['service-attempt']).toBe('3');
    const event = JSON.parse(delivery!.body);
    expect(event).toMatchObject({
      object: 'event',
      type: 'membership.payment_failed',
      livemode: false,
      api_version: '2026-09-24',
    });
    expect(event.id).toMatch(/^evt_local_/);
    expect(run.stderr.join('\n')).toMatch(/filled in id, object, api_version, created_at, livemode/);
    expect(run.stderr.join('\n')).toMatch(
      /data\.object does not match the membership\.payment_failed schema \(id: /,
    );
    // The checkpoint file is read, never written.
    expect(JSON.parse(readFileSync(checkpoint, 'utf8')).baseUrl).toBe('x');
  });

  it('exits 2 for a bad file or no secret, 1 for a refusal, 3 when nobody answers', async () => {
    const hook = await receiver();
    hook.answer = () => 400;
    const file = join(scratch(), 'ok.json');
    writeFileSync(file, JSON.stringify({ type: 'ping', data: { object: { object: 'ping' } } }));
    const args = ['send', '--event', file, '--forward-to', hook.url];
    expect((await cli.run([...args, '--secret', SECRET])).code).toBe(1);
    expect(
      (await cli.run(['send', '--event', file, '--forward-to', 'http://127.0.0.1:9/x', '--secret', SECRET]))
        .code,
    ).toBe(3);
    const noSecret = await cli.run([...args, '--checkpoint', join(scratch(), 'none.json')]);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr.join('\n')).toMatch(/give the receiver's secret/);
    const notJson = join(scratch(), 'bad.json');
    writeFileSync(notJson, '{"type": ');
    expect(
      (await cli.run(['send', '--event', notJson, '--forward-to', hook.url, '--secret', SECRET])).code,
    ).toBe(2);
    const noData = join(scratch(), 'nodata.json');
    writeFileSync(noData, '{"type": "sale.completed"}');
    const missing = await cli.run(['send', '--event', noData, '--forward-to', hook.url, '--secret', SECRET]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.join('\n')).toMatch(/needs "data": \{ "object"/);
  });

  it('sends an endpoint’s custom auth header with --header, and refuses one that would replace a service header', async () => {
    const hook = await receiver();
    hook.secret = SECRET;
    const file = join(scratch(), 'ping.json');
    writeFileSync(
      file,
      JSON.stringify({ type: 'sale.completed', data: { object: { object: 'order', id: 1 } } }),
    );
    const base = ['send', '--event', file, '--forward-to', hook.url, '--secret', SECRET];
    const sent = await cli.run([
      ...base,
      '--header',
      'X-Partner-Token: tok_123',
      '--header=Authorization: Basic abc',
    ]);
    expect(sent.code, sent.stderr.join('\n')).toBe(0);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.verified).toBe(true);
    expect(hook.received[0]!.headers).toMatchObject({
      'x-partner-token': 'tok_123',
      authorization: 'Basic abc',
      'service-event': 'sale.completed',
    });

    const replaces = await cli.run([...base, '--header', 'Service-Signature: t=1,v1=00']);
    expect(replaces.code).toBe(2);
    expect(replaces.stderr.join('\n')).toMatch(/the delivery's own/);
    const malformed = await cli.run([...base, '--header', 'no colon here']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr.join('\n')).toMatch(/"Name: value"/);
    expect(hook.received).toHaveLength(1);
  });
});
