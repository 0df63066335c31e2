import { defineCommand } from 'citty';
import { readEnv } from '../../internal/env.js';
import { CONTROL_PREFIX } from '../control.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import type { Output } from '../output.js';
import { httpUrl } from '../parse.js';
import { run } from '../run.js';
import { triggerCatalog } from '../triggers.js';

/** `shop-mgmt trigger`: makes one event happen in a `shop-mgmt sandbox` process. */
export const triggerCommand = defineCommand({
  meta: {
    name: 'trigger',
    description:
      'Make an event happen in a running `shop-mgmt sandbox` (SHOP_API_BASE_URL, SHOP_API_KEY): the sandbox performs the API calls or register actions that make it.',
  },
  args: {
    type: { type: 'positional', description: 'The event type, e.g. sale.completed', required: false },
    list: {
      type: 'boolean',
      description: 'List every catalog type: which the sandbox makes, and why not the others',
    },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      if (flags.list) return listTypes(output);
      if (!flags.type)
        throw usageError('name an event type, e.g. npx shop-mgmt trigger sale.completed (--list shows them)');
      const { apiKey, baseUrl } = sandboxTarget();
      output.spin(`triggering ${flags.type}`);
      const response = await controlCall(baseUrl, apiKey, 'trigger', { type: flags.type });
      output.stopSpinner();
      const body = (await response.json().catch(() => ({}))) as {
        did?: string;
        events?: { id: string; type: string }[];
        error?: string;
        unsupported?: boolean;
      };
      if (!response.ok) {
        throw new CliError(
          body.error ?? `the sandbox answered ${response.status}`,
          body.unsupported ? EXIT.unsupported : EXIT.failed,
        );
      }
      const events = body.events ?? [];
      output.record(
        { type: flags.type, did: body.did, events },
        `${output.paint('green', 'Triggered')} ${flags.type}: ${body.did}\n` +
          (events.length > 0
            ? events.map((event) => `  ${event.type} ${event.id}`).join('\n')
            : '  no event recorded: no webhook endpoint of the sandbox subscribes (start it with --forward-to)'),
      );
      return EXIT.ok;
    }),
});

function listTypes(output: Output): number {
  for (const entry of triggerCatalog()) {
    output.record(
      entry,
      entry.supported
        ? `${output.paint('green', 'yes')} ${entry.type}`
        : `${output.paint('dim', 'no ')} ${entry.type}: ${entry.reason}`,
    );
  }
  return EXIT.ok;
}

function sandboxTarget(): { apiKey: string; baseUrl: string } {
  const apiKey = readEnv('SHOP_API_KEY');
  const baseUrl = readEnv('SHOP_API_BASE_URL');
  if (!apiKey || !baseUrl) {
    throw usageError('set SHOP_API_BASE_URL and SHOP_API_KEY to what `npx shop-mgmt sandbox` printed');
  }
  return { apiKey, baseUrl: httpUrl(baseUrl, 'SHOP_API_BASE_URL').replace(/\/+$/, '') };
}

/** One call to the sandbox process's control surface; a refused connection is EXIT.unreachable. */
async function controlCall(baseUrl: string, apiKey: string, route: string, body: unknown): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${CONTROL_PREFIX}${route}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new CliError(
      `cannot reach a sandbox at ${baseUrl} (${cause}); start one with npx shop-mgmt sandbox`,
      EXIT.unreachable,
    );
  }
  if (response.status === 404 && !response.headers.get('content-type')?.includes('json')) {
    throw new CliError(
      `${baseUrl} is not a shop-mgmt sandbox process (trigger works only against one)`,
      EXIT.failed,
    );
  }
  return response;
}
