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
      'Deliver one event of the feed (SHOP_API_BASE_URL, SHOP_API_KEY) again to your receiver: signed with the secret of `listen`, a new delivery id, the next attempt number.',
  },
  args: {
    id: { type: 'positional', description: 'The event id (evt_...)', required: true },
    'forward-to': { type: 'string', description: 'Your receiver', required: true },
    checkpoint: {
      type: 'string',
      description: 'The file of `listen` (its secret and attempt counts)',
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
      const forwarder = new Forwarder({
        url: forwardTo,
        secret: store.secret,
        attempts: 1,
        attemptsOf: (id) => store.attemptsOf(id),
        onAttempt: (result) => printDelivery(output, result),
      });
      try {
        const result = await forwarder.deliver(found);
        await store.noteAttempt(result.eventId, result.attempt);
      } catch (error) {
        if (error instanceof ForwardError) throw new CliError(error.message, EXIT.unreachable);
        throw error;
      }
      return EXIT.ok;
    }),
});
