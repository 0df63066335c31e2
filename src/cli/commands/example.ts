import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineCommand } from 'citty';
import { readEnv } from '../../internal/env.js';
import { verifyWebhook } from '../../webhooks/verify.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { clockTime, type Output } from '../output.js';
import { wholeNumber } from '../parse.js';
import { run, untilSignal } from '../run.js';

/** The path the receiver answers, the one every example forwards to. */
const PATH = '/webhooks/shop';

const receiver = defineCommand({
  meta: {
    name: 'receiver',
    description: `A webhook receiver to forward to while you write your own: POST http://localhost:PORT${PATH} verifies each delivery (SHOP_WEBHOOK_SECRET, --secret, or the secret \`listen\` keeps in its checkpoint file) and logs its event. Answers 200 when verified, 400 with the reason when not.`,
  },
  args: {
    port: { type: 'string', description: 'The port (0: any free one)', default: '3000' },
    secret: {
      type: 'string',
      description:
        'The whsec_ secret to verify with (default: SHOP_WEBHOOK_SECRET, else the secret of `listen`)',
    },
    checkpoint: {
      type: 'string',
      description: 'The file of `listen` whose secret is used when no other is given (read at each delivery)',
      default: '.shop-mgmt/listen.json',
    },
    json: { type: 'boolean', description: 'One JSON object a line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const port = wholeNumber(flags.port, 'port', 0, 65_535)!;
      // An empty variable (`SHOP_WEBHOOK_SECRET=` in a shell profile) is no secret: fall back to listen's.
      const given = flags.secret ?? (readEnv('SHOP_WEBHOOK_SECRET') || undefined);
      if (given !== undefined && !given.startsWith('whsec_')) {
        throw usageError(
          `${flags.secret !== undefined ? '--secret' : 'SHOP_WEBHOOK_SECRET'} must be a whsec_ secret`,
        );
      }
      const source =
        flags.secret !== undefined
          ? '--secret'
          : given !== undefined
            ? 'SHOP_WEBHOOK_SECRET'
            : `the secret of listen in ${flags.checkpoint}`;
      // listen writes its file on its first run, maybe after this receiver started: read at each delivery.
      const secretNow = (): string | null => given ?? listenSecret(flags.checkpoint);
      const server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const reply = (status: number, body: unknown) => {
            response.writeHead(status, { 'content-type': 'application/json' });
            response.end(JSON.stringify(body));
          };
          if (request.method !== 'POST' || new URL(request.url ?? '/', 'http://x').pathname !== PATH) {
            reply(404, { error: `this receiver answers POST ${PATH}` });
            return;
          }
          void handle(output, Buffer.concat(chunks).toString('utf8'), request.headers, secretNow()).then(
            ([status, body]) => reply(status, body),
          );
        });
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', (error: NodeJS.ErrnoException) =>
          reject(
            new CliError(
              error.code === 'EADDRINUSE'
                ? `cannot listen on 127.0.0.1:${port} (EADDRINUSE): another process holds that port. Give another with --port, or --port 0 for any free one`
                : `cannot listen on 127.0.0.1:${port} (${error.code ?? error.message})`,
              EXIT.unreachable,
            ),
          ),
        );
        server.listen(port, '127.0.0.1', resolve);
      });
      const url = `http://localhost:${(server.address() as AddressInfo).port}${PATH}`;
      // Ctrl-C handled before the ready line: a script that stops the receiver once it reads it gets exit 0.
      const stopped = untilSignal();
      output.record(
        { event: 'ready', url, secretSource: source },
        `${output.paint('green', 'Receiving')} webhooks at ${output.paint('bold', url)}, verified with ${source}. Ctrl-C stops it.`,
      );
      await stopped;
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      return EXIT.ok;
    }),
});

/** Verifies one delivery and logs it; the status and body to answer. */
async function handle(
  output: Output,
  body: string,
  headers: Record<string, string | string[] | undefined>,
  secret: string | null,
): Promise<[number, unknown]> {
  const delivery = String(headers['service-delivery-id'] ?? '');
  if (!secret) {
    output.error('no secret to verify with: set SHOP_WEBHOOK_SECRET, give --secret, or run listen once');
    return [400, { error: 'no_secret' }];
  }
  try {
    const event = await verifyWebhook({ body, headers: headers as Record<string, string>, secret });
    output.record(
      {
        event: 'received',
        at: new Date().toISOString(),
        eventId: event.id,
        eventType: event.type,
        deliveryId: delivery,
        verified: true,
      },
      `${clockTime()} ${event.type} ${event.id} ${output.paint('green', 'verified')} (${delivery}, attempt ${String(headers['service-attempt'] ?? '?')})`,
    );
    return [200, { received: true }];
  } catch (error) {
    // The error names what failed (signature, timestamp, body), never the secret.
    const reason = (error as Error).message;
    output.record(
      { event: 'refused', at: new Date().toISOString(), deliveryId: delivery, verified: false, reason },
      `${clockTime()} ${output.paint('red', 'refused')} ${delivery}: ${reason}`,
    );
    return [400, { error: 'signature_mismatch', message: reason }];
  }
}

/** The secret `listen` keeps in its checkpoint file, or null while there is none. */
function listenSecret(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    const secret = (JSON.parse(readFileSync(path, 'utf8')) as { secret?: unknown }).secret;
    return typeof secret === 'string' && secret.startsWith('whsec_') ? secret : null;
  } catch {
    return null;
  }
}

/** `shop-mgmt example`: small programs to run while you build yours. */
export const exampleCommand = defineCommand({
  meta: {
    name: 'example',
    description: 'Runnable examples: `example receiver` verifies and logs the webhooks you forward to it',
  },
  subCommands: { receiver },
});
