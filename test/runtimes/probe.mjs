// What every runtime of the matrix runs, from the installed package: a client call and a list walk against a
// sandbox that Node serves on 127.0.0.1, webhook verification, the web-Request webhook handler (accepted,
// forged, duplicate), and the sandbox's own in-process fetch; where the runtime gives a D1 binding (workerd), the
// D1 inbox (shop-mgmt/inbox/d1): a verified event added once, run once with its write. Runtime-neutral: no
// node: import, no process.
import { ShopClient, ShopError } from 'shop-mgmt';
import { Inbox } from 'shop-mgmt/inbox';
import { D1InboxStore } from 'shop-mgmt/inbox/d1';
import { createSandbox } from 'shop-mgmt/testing';
import {
  createWebhookHandler,
  signPayload,
  verifyWebhook,
  WebhookVerificationError,
} from 'shop-mgmt/webhooks';

const SECRET = 'whsec_test_secret';

function check(condition, message) {
  if (!condition) throw new Error(`probe: ${message}`);
}

/** Runs every check; resolves to the names of those that passed, rejects on the first failure. */
export async function runProbe({ url, key, d1 }) {
  const passed = [];
  const shop = new ShopClient({ apiKey: key, baseUrl: url, maxRetries: 0 });

  const me = await shop.me.retrieve();
  check(me.object === 'api_key' && me.environment === 'sandbox', 'me.retrieve() gave another key');
  passed.push('client call over HTTP');

  const ids = new Set();
  let pages = 0;
  for await (const page of shop.range.sessions.list({ limit: 2 }).pages()) {
    pages += 1;
    for (const session of page.data) ids.add(session.id);
    if (pages === 3) break;
  }
  check(pages === 3 && ids.size === 6, `list walk saw ${pages} pages and ${ids.size} distinct sessions`);
  passed.push('list walk, 3 pages');

  const body = JSON.stringify({
    id: 'evt_probe_1',
    object: 'event',
    type: 'customer.created',
    api_version: '2026-09-24',
    created_at: '2026-10-01T15:00:00Z',
    livemode: false,
    data: { object: { object: 'customer', id: 1 } },
  });
  const signature = await signPayload({ body, secret: SECRET });
  const event = await verifyWebhook({ body, headers: { 'service-signature': signature }, secret: SECRET });
  check(event.id === 'evt_probe_1', 'verifyWebhook gave another event');
  const forged = await verifyWebhook({
    body: body.replace('"id":1', '"id":2'),
    headers: { 'service-signature': signature },
    secret: SECRET,
  }).catch((error) => error);
  check(
    forged instanceof WebhookVerificationError && forged.reason === 'signature_mismatch',
    'forgery passed',
  );
  passed.push('verifyWebhook');

  const seen = [];
  const webhooks = createWebhookHandler({ secret: SECRET, onEvent: (received) => seen.push(received.id) });
  const post = (payload, sig) =>
    webhooks(
      new Request('https://receiver.test/webhooks/shop', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-signature': sig },
        body: payload,
      }),
    );
  const statuses = [
    (await post(body, signature)).status,
    (await post(body.replace('"id":1', '"id":2'), signature)).status,
    (await post(body, signature)).status,
  ];
  check(statuses[0] === 200 && statuses[1] === 400 && statuses[2] === 200, `handler answered ${statuses}`);
  check(seen.length === 1, `the handler ran ${seen.length} times for one event`);
  passed.push('web-Request handler (signed 200, forged 400, duplicate 200 once)');

  if (d1) {
    const inbox = new Inbox(new D1InboxStore(d1));
    const added = [await inbox.add(event, 'webhook'), await inbox.add(event, 'webhook')];
    check(added[0] === 'added' && added[1] === 'duplicate', `the D1 inbox added ${added}`);
    const run = await inbox.runOnce(async (received, { tx }) => {
      await tx.execute('CREATE TABLE IF NOT EXISTS probe_effects (event_id TEXT NOT NULL)');
      await tx.execute('INSERT INTO probe_effects (event_id) VALUES (?)', [received.id]);
    });
    const effects = await d1.prepare('SELECT event_id FROM probe_effects').all();
    check(run.done === 1 && effects.results.length === 1, `the D1 inbox ran ${JSON.stringify(run)}`);
    passed.push('D1 inbox (added once, run once with its write)');
  } else {
    let refused;
    try {
      new D1InboxStore({});
    } catch (error) {
      refused = error;
    }
    check(refused instanceof ShopError, 'D1InboxStore took something that is no D1 binding');
    passed.push('shop-mgmt/inbox/d1 loads');
  }

  const sandbox = createSandbox({ seed: 3 });
  const local = new ShopClient({
    apiKey: sandbox.createKey(),
    baseUrl: sandbox.baseUrl,
    fetch: sandbox.fetch,
  });
  const firstPage = await local.range.sessions.list({ limit: 5 });
  check(firstPage.data.length === 5, `sandbox.fetch listed ${firstPage.data.length} sessions`);
  passed.push('sandbox.fetch in-process');
  return passed;
}
