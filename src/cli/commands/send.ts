import { existsSync, readFileSync } from 'node:fs';
import { defineCommand } from 'citty';
import { EVENT_PAYLOAD_SCHEMAS } from '../../generated/events.js';
import { readEnv } from '../../internal/env.js';
import { API_VERSION } from '../../testing/events/event-permissions.js';
import { isKnownEventType } from '../../webhooks/events.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { Forwarder, newDeliveryId } from '../forwarder.js';
import { httpUrl, repeatedFlag, wholeNumber } from '../parse.js';
import { run } from '../run.js';
import { printDelivery } from './listen.js';

/** `shop-mgmt send`: one custom event body, signed and delivered as the service would. */
export const sendCommand = defineCommand({
  meta: {
    name: 'send',
    description:
      'Sign an event body from a file and deliver it to your receiver as the service would: the same five Service-* headers, one attempt.',
  },
  args: {
    event: {
      type: 'string',
      description: 'A JSON file holding the event (an envelope; see docs/cli.md)',
      required: true,
    },
    'forward-to': { type: 'string', description: 'Your receiver', required: true },
    secret: {
      type: 'string',
      description:
        'The whsec_ secret to sign with (default: SHOP_WEBHOOK_SECRET, else the secret of `listen`)',
    },
    checkpoint: {
      type: 'string',
      description: 'The file of `listen` whose secret is used when no other is given',
      default: '.shop-mgmt/listen.json',
    },
    attempt: { type: 'string', description: 'The Service-Attempt to send', default: '1' },
    header: {
      type: 'string',
      description:
        'An extra header, "Name: value", as an endpoint\'s custom auth header is sent (repeatable; never a Service-* header)',
    },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags, rawArgs }) =>
    run(flags.json, async (output) => {
      const forwardTo = httpUrl(flags['forward-to'], 'forward-to');
      const extraHeaders = customHeaders(repeatedFlag(rawArgs, 'header'));
      const attempt = wholeNumber(flags.attempt, 'attempt', 1, 9)!;
      const { secret, source } = signingSecret(flags.secret, flags.checkpoint);
      output.note(`signed with ${source}`);
      const { event, body, filled } = readEvent(flags.event);
      if (filled.length > 0) output.note(`${flags.event}: filled in ${filled.join(', ')}`);
      const problem = payloadProblem(event);
      if (problem) output.note(`${flags.event}: sent as written, but ${problem}`);
      const forwarder = new Forwarder({
        url: forwardTo,
        secret,
        attempts: 1,
        attemptsOf: () => attempt - 1,
        userAgent: 'shop-mgmt-cli-send',
        extraHeaders,
        onAttempt: () => undefined,
      });
      const result = await forwarder.send(event, newDeliveryId(), body);
      printDelivery(output, result);
      if (result.status === null) {
        throw new CliError(`${forwardTo} did not answer (${result.error})`, EXIT.unreachable);
      }
      if (result.error !== null) throw new CliError(`${forwardTo} answered ${result.status}`, EXIT.failed);
      return EXIT.ok;
    }),
});

/** `--header "Name: value"` flags as headers; the service's own headers and the body's type are not the caller's. */
function customHeaders(flags: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const flag of flags) {
    const colon = flag.indexOf(':');
    const name = colon > 0 ? flag.slice(0, colon).trim() : '';
    const value = colon > 0 ? flag.slice(colon + 1).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || value === '' || /[\r\n]/.test(value)) {
      throw usageError(
        `--header takes "Name: value", e.g. --header "Authorization: Bearer abc" (got ${JSON.stringify(flag.slice(0, 40))})`,
      );
    }
    const lower = name.toLowerCase();
    if (
      lower.startsWith('service-') ||
      lower === 'content-type' ||
      lower === 'content-length' ||
      lower === 'host'
    ) {
      throw usageError(
        `--header ${name}: that header is the delivery's own; send sets it as the service does`,
      );
    }
    headers[name] = value;
  }
  return headers;
}

/**
 * --secret, SHOP_WEBHOOK_SECRET, or the secret `listen` keeps in its checkpoint file (read, never written),
 * with where it came from: send says which secret signs, so a receiver's 400 is never a guess.
 */
function signingSecret(flag: string | undefined, checkpoint: string): { secret: string; source: string } {
  if (flag !== undefined) {
    if (!flag.startsWith('whsec_')) throw usageError('--secret must be a whsec_ secret');
    return { secret: flag, source: 'the secret of --secret' };
  }
  const fromEnv = readEnv('SHOP_WEBHOOK_SECRET');
  if (fromEnv !== undefined) {
    if (!fromEnv.startsWith('whsec_')) throw usageError('SHOP_WEBHOOK_SECRET must be a whsec_ secret');
    return { secret: fromEnv, source: 'SHOP_WEBHOOK_SECRET (set in this shell)' };
  }
  if (existsSync(checkpoint)) {
    try {
      const file = JSON.parse(readFileSync(checkpoint, 'utf8')) as { secret?: unknown; baseUrl?: unknown };
      if (typeof file.secret === 'string' && file.secret.startsWith('whsec_')) {
        const shop = typeof file.baseUrl === 'string' ? `, written by listen for ${file.baseUrl}` : '';
        return {
          secret: file.secret,
          source: `the local secret of ${checkpoint}${shop} (SHOP_WEBHOOK_SECRET is not set; --secret picks another)`,
        };
      }
    } catch {
      // Not a checkpoint file: said below.
    }
  }
  throw usageError(
    `give the receiver's secret: --secret whsec_..., SHOP_WEBHOOK_SECRET, or a listen checkpoint file (${checkpoint} has none)`,
  );
}

/**
 * The event of the file. An envelope field it leaves out is filled in (id, object, api_version, created_at,
 * livemode), and then the body is the filled event; otherwise the file's text is sent byte for byte.
 */
function readEvent(path: string): {
  event: { id: string; type: string } & Record<string, unknown>;
  body: string;
  filled: string[];
} {
  let text: string;
  let value: unknown;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw usageError(
      `--event ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`--event ${path} is not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError(`--event ${path} must hold one event object`);
  }
  const event = value as Record<string, unknown>;
  if (typeof event.type !== 'string' || event.type === '') {
    throw usageError(`--event ${path} needs a "type", e.g. "sale.completed"`);
  }
  const data = event.data as { object?: unknown } | undefined;
  if (typeof data !== 'object' || data === null || typeof data.object !== 'object' || data.object === null) {
    throw usageError(`--event ${path} needs "data": { "object": { ... } }, the changed record`);
  }
  const defaults: Record<string, unknown> = {
    id: `evt_local_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`,
    object: 'event',
    api_version: API_VERSION,
    created_at: new Date().toISOString(),
    livemode: false,
  };
  const filled = Object.keys(defaults).filter((field) => event[field] === undefined);
  if (typeof event.id === 'string' && !event.id.startsWith('evt_')) {
    throw usageError(`--event ${path}: an event id begins evt_, got ${JSON.stringify(event.id)}`);
  }
  const full = { ...Object.fromEntries(filled.map((field) => [field, defaults[field]])), ...event } as {
    id: string;
    type: string;
  } & Record<string, unknown>;
  return { event: full, body: filled.length > 0 ? JSON.stringify(full) : text, filled };
}

/** What the reference's schema says of the payload of a known type (a custom body may break it on purpose). */
function payloadProblem(event: { type: string } & Record<string, unknown>): string | null {
  if (!isKnownEventType(event.type)) return `${event.type} is not a type this SDK knows`;
  const result = EVENT_PAYLOAD_SCHEMAS[event.type].safeParse((event.data as { object: unknown }).object);
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  return `data.object does not match the ${event.type} schema (${issue.path.join('.') || '(root)'}: ${issue.message})`;
}
