// Webhook receivers on 127.0.0.1 for the e2e tests: one mounts the SDK's Node adapter, the other keeps the
// raw bytes and headers of every delivery so the test can verify them itself.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NodeRequestHandler } from '../../../src/webhooks/index.js';

/** A running receiver. */
export interface Receiver {
  readonly url: string;
  close(): Promise<void>;
}

/** A delivery as the raw receiver got it. */
export interface RawDelivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

async function listen(server: Server): Promise<Receiver> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves the SDK's Node adapter (`createWebhookHandler(...).node`) as a partner's receiver would. */
export function serveHandler(handler: NodeRequestHandler): Promise<Receiver> {
  return listen(createServer((request, response) => void handler(request, response)));
}

/** Records every delivery's raw body and headers and answers 200. */
export async function rawReceiver(): Promise<Receiver & { readonly received: RawDelivery[] }> {
  const received: RawDelivery[] = [];
  const receiver = await listen(
    createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    }),
  );
  return { ...receiver, received };
}
