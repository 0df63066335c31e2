// The fleet's one webhook entrance: `POST /webhooks/<shop>`, verified with that shop's secrets (every one
// it lists, for a rotation), written into the inbox tagged with the shop. A delivery signed with another
// shop's secret fails verification (400), an unknown shop is 404, and the answers say nothing of the setup.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookVerificationError } from '../../webhooks/errors.js';
import { verifyWebhook } from '../../webhooks/verify.js';
import type { SyncEvent } from '../engine/apply-event.js';
import type { RegisteredShop } from './registry.js';

/** The most bytes a delivery may have. */
const MAX_BODY_BYTES = 1_048_576;
const PATH = /^\/webhooks\/([A-Za-z0-9][A-Za-z0-9_-]{0,62})\/?$/;

export interface FleetEntranceOptions {
  readonly server: Server;
  /** A port to listen on (the fleet made the server), or null when the caller's server already listens. */
  readonly port: number | null;
  readonly host: string;
  readonly shops: (name: string) => RegisteredShop | null;
  /** Stores a verified event of `shop`; resolves once it is durable. */
  readonly receive: (shop: string, event: SyncEvent) => Promise<void>;
}

export interface FleetEntrance {
  readonly url: string | null;
  close(): Promise<void>;
}

/** Serves the entrance on `server` (listening on `port` when given). */
export async function fleetEntrance(options: FleetEntranceOptions): Promise<FleetEntrance> {
  const { server } = options;
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    void handle(options, request, response).catch(() => {
      if (!response.headersSent) answer(response, 500, { error: { type: 'internal_error' } });
      else response.destroy();
    });
  };
  server.on('request', listener);
  if (options.port !== null) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port!, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }
  const address = server.address() as AddressInfo | string | null;
  const url =
    address && typeof address === 'object'
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : null;
  return {
    url,
    async close() {
      server.off('request', listener);
      if (options.port === null) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
    },
  };
}

async function handle(
  options: FleetEntranceOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://entrance').pathname;
  const match = PATH.exec(path);
  const shop = match ? options.shops(match[1]!) : null;
  if (!shop) {
    request.resume();
    return answer(response, 404, { error: { type: 'unknown_endpoint' } });
  }
  if (request.method !== 'POST') {
    request.resume();
    response.setHeader('Allow', 'POST');
    return answer(response, 405, { error: { type: 'method_not_allowed' } });
  }
  const body = await readBody(request);
  if (body === null) return answer(response, 413, { error: { type: 'payload_too_large' } });
  const secrets = shop.webhookSecrets();
  if (secrets.length === 0) return answer(response, 404, { error: { type: 'unknown_endpoint' } });
  let event: SyncEvent;
  try {
    event = (await verifyWebhook({
      body,
      headers: request.headers as Record<string, string>,
      secret: secrets,
    })) as unknown as SyncEvent;
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      return answer(response, 400, { error: { type: 'webhook_verification_failed', reason: error.reason } });
    }
    throw error;
  }
  await options.receive(shop.name, event);
  answer(response, 200, { received: true });
}

async function readBody(request: IncomingMessage): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    length += (chunk as Buffer).length;
    if (length > MAX_BODY_BYTES) {
      request.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}
