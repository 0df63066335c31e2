import { defineCommand } from 'citty';
import { readEnv } from '../../internal/env.js';
import { triggerList } from '../../testing/triggers.js';
import { CONTROL_PREFIX } from '../control.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import type { Output } from '../output.js';
import { type OverrideMap, overridesFromFlags, readFixture } from '../overrides.js';
import { httpUrl, repeatedFlag } from '../parse.js';
import { run } from '../run.js';
import { nearest } from '../strict.js';

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
      description: 'List every event type and whether the sandbox makes it',
    },
    override: {
      type: 'string',
      description:
        'Set a field of the event payload: customer.email=a@b.example (dotted path; repeat the flag for more)',
    },
    fixture: {
      type: 'string',
      description:
        'Run a scenario file: {"steps": [{"trigger": TYPE, "override": {...}}]}, checked whole first',
    },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags, rawArgs }) =>
    run(flags.json, async (output) => {
      if (flags.list) return listTypes(output);
      const overrideFlags = repeatedFlag(rawArgs, 'override');
      if (flags.fixture !== undefined) {
        if (flags.type || overrideFlags.length > 0) {
          throw usageError('--fixture runs the steps of its file: give no event type or --override with it');
        }
        const steps = readFixture(flags.fixture);
        const target = sandboxTarget();
        for (const [index, step] of steps.entries()) {
          await triggerOne(
            output,
            target,
            step.trigger,
            step.override,
            `step ${index + 1}/${steps.length}: `,
          );
        }
        return EXIT.ok;
      }
      if (!flags.type)
        throw usageError('name an event type, e.g. npx shop-mgmt trigger sale.completed (--list shows them)');
      knownType(flags.type);
      // Checked against the event schemas before any call.
      const override = overridesFromFlags(flags.type, overrideFlags);
      await triggerOne(output, sandboxTarget(), flags.type, override, '');
      return EXIT.ok;
    }),
});

/** One trigger call and its lines; a refusal throws with the exit code it means. */
async function triggerOne(
  output: Output,
  target: { apiKey: string; baseUrl: string },
  type: string,
  override: OverrideMap,
  prefix: string,
): Promise<void> {
  output.spin(`${prefix}triggering ${type}`);
  const hasOverride = Object.keys(override).length > 0;
  const response = await controlCall(target.baseUrl, target.apiKey, 'trigger', {
    type,
    ...(hasOverride ? { override } : {}),
  });
  output.stopSpinner();
  const body = (await response.json().catch(() => ({}))) as {
    did?: string;
    events?: { id: string; type: string }[];
    overridden?: boolean;
    error?: string;
    unsupported?: boolean;
    invalid?: boolean;
  };
  if (!response.ok) {
    const code = body.unsupported ? EXIT.unsupported : body.invalid ? EXIT.usage : EXIT.failed;
    // A key the sandbox accepts but that may not do what the trigger does (403): said, exit 1.
    throw new CliError(`${prefix}${body.error ?? `the sandbox answered ${response.status}`}`, code);
  }
  const events = body.events ?? [];
  const lines = [`${output.paint('green', 'Triggered')} ${prefix}${type}: ${body.did}`];
  if (events.length > 0) lines.push(...events.map((event) => `  ${event.type} ${event.id}`));
  else
    lines.push(
      '  no event recorded: no webhook endpoint of the sandbox subscribes (start it with --forward-to)',
    );
  if (hasOverride) {
    lines.push(
      body.overridden
        ? `  ${type} carries your override of ${Object.keys(override).join(', ')} (the shop's record does not)`
        : `  override not applied: no ${type} event was recorded`,
    );
  }
  output.record(
    {
      type,
      did: body.did,
      events,
      ...(hasOverride ? { override, overridden: body.overridden === true } : {}),
    },
    lines.join('\n'),
  );
}

/** An event type `trigger` knows, or a usage error (exit 2) with the nearest known type. */
function knownType(type: string): void {
  const types = triggerList().map((entry) => entry.type);
  if (types.includes(type)) return;
  const hint = nearest(type, types);
  throw usageError(
    `${JSON.stringify(type)} is not a known event type${hint ? `; did you mean ${hint}?` : ''} (npx shop-mgmt trigger --list shows them)`,
  );
}

function listTypes(output: Output): number {
  for (const entry of triggerList()) {
    output.record(
      entry,
      entry.supported
        ? `${output.paint('green', 'yes')} ${entry.type}`
        : `${output.paint('dim', 'no ')} ${entry.type}: ${entry.reason}`,
    );
  }
  return EXIT.ok;
}

/** The sandbox process of SHOP_API_BASE_URL and SHOP_API_KEY, or a usage error. */
export function sandboxTarget(): { apiKey: string; baseUrl: string } {
  const apiKey = readEnv('SHOP_API_KEY');
  const baseUrl = readEnv('SHOP_API_BASE_URL');
  if (!apiKey || !baseUrl) {
    throw usageError('set SHOP_API_BASE_URL and SHOP_API_KEY to what `npx shop-mgmt sandbox` printed');
  }
  return { apiKey, baseUrl: httpUrl(baseUrl, 'SHOP_API_BASE_URL').replace(/\/+$/, '') };
}

/** One call to the sandbox process's control surface; a refused connection is EXIT.unreachable. */
export async function controlCall(
  baseUrl: string,
  apiKey: string,
  route: string,
  body: unknown,
): Promise<Response> {
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
