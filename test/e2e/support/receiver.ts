// Webhook receivers on 127.0.0.1 for the sandbox tests (test/testing) and the e2e tests: one records the raw
// bytes and headers of every delivery and answers as a script says, the other mounts the SDK's Node adapter.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running receiver. */
export interface Receiver {
  readonly url: string;
  close(): Promise<void>;
}

/** A delivery as the recording receiver got it. */
export interface RawDelivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How the recording receiver answers one delivery: a status, a 302 to `redirect`, or no answer at all. */
export type ScriptedAnswer = number | 'hang' | { redirect: string };

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

/**
 * Records every delivery's raw body and headers and answers each with the next scripted answer, then 200
 * once the script is used up.
 */
export async function startReceiver(
  script: ScriptedAnswer[] = [],
): Promise<Receiver & { readonly received: RawDelivery[] }> {
  const received: RawDelivery[] = [];
  const receiver = await listen(
    createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = script.shift() ?? 200;
      if (next === 'hang') return;
      if (typeof next === 'object') {
        response.writeHead(302, { Location: next.redirect }).end();
        return;
      }
      response.writeHead(next, { 'Content-Type': 'text/plain' }).end(next < 300 ? 'ok' : 'nope');
    }),
  );
  return { ...receiver, received };
}

/** Serves a Node request handler, e.g. the SDK's adapter (`createWebhookHandler(...).node`), as a partner would. */
export function serveHandler(
  handler: (request: IncomingMessage, response: ServerResponse) => unknown,
): Promise<Receiver> {
  return listen(createServer((request, response) => void handler(request, response)));
}
