import { defineCommand } from 'citty';
import { ShopClient } from '../../client.js';
import { readEnv } from '../../internal/env.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { ForwardError, Forwarder } from '../forwarder.js';
import { ListenFileStore } from '../listen-file.js';
import { httpUrl } from '../parse.js';
import { run } from '../run.js';
import { printDelivery } from './listen.js';

/** `shop-mgmt replay`: one event from the feed, delivered again. */
export const replayCommand = defineCommand({
  meta: {
    name: 'replay',
    description:
      'Deliver one event of the feed (SHOP_API_BASE_URL, SHOP_API_KEY) again to your receiver, as a new delivery (new delivery id, attempt 1) signed as `listen` signs, and print what the receiver answered.',
  },
  args: {
    id: { type: 'positional', description: 'The event id (evt_...)', required: true },
    'forward-to': { type: 'string', description: 'Your receiver', required: true },
    checkpoint: {
      type: 'string',
      description: 'The file of `listen` (its secret and the events it set aside)',
      default: '.shop-mgmt/listen.json',
    },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      if (!flags.id.startsWith('evt_'))
        throw usageError(`an event id begins evt_, got ${JSON.stringify(flags.id)}`);
      const forwardTo = httpUrl(flags['forward-to'], 'forward-to');
      const apiKey = readEnv('SHOP_API_KEY');
      const rawBase = readEnv('SHOP_API_BASE_URL');
      if (!apiKey || !rawBase) throw usageError('set SHOP_API_KEY and SHOP_API_BASE_URL');
      const baseUrl = httpUrl(rawBase, 'SHOP_API_BASE_URL').replace(/\/+$/, '');
      const store = ListenFileStore.open(flags.checkpoint, baseUrl);
      const client = new ShopClient({ apiKey, baseUrl, throttle: { requestsPerMinute: 50 } });
      output.spin(`looking for ${flags.id} in the feed`);
      let found: { id: string; type: string } | null = null;
      for await (const event of client.events.list({ limit: 200 })) {
        if (event.id === flags.id) {
          found = event;
          break;
        }
      }
      output.stopSpinner();
      if (!found)
        throw new CliError(
          `${flags.id} is not in the feed (30 days, and only types the key can read)`,
          EXIT.failed,
        );
      await store.flush();
      const envSecret = readEnv('SHOP_WEBHOOK_SECRET');
      output.note(
        envSecret
          ? 'signed with SHOP_WEBHOOK_SECRET (set in this shell)'
          : `signed with the local secret of ${flags.checkpoint}, as listen signs (SHOP_WEBHOOK_SECRET is not set)`,
      );
      // A new delivery of the event, as the service's resend: its own delivery id, attempt 1.
      const forwarder = new Forwarder({
        url: forwardTo,
        secret: envSecret || store.secret,
        attempts: 1,
        attemptsOf: () => 0,
        onAttempt: (result) => printDelivery(output, result),
      });
      try {
        await forwarder.deliver(found);
      } catch (error) {
        if (!(error instanceof ForwardError)) throw error;
        // The receiver answered with an error (its answer is on the line above), or could not be reached.
        throw new CliError(error.message, error.refused ? EXIT.failed : EXIT.unreachable);
      }
      if (await store.clearDeadLetter(found.id))
        output.note(`${found.id} is off the list of events set aside`);
      return EXIT.ok;
    }),
});
