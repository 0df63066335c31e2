// Real HTTP servers on 127.0.0.1 for the handler tests: one mounts the Node adapter, the other turns each
// request into a fetch Request for the web handler, as Next.js, Hono or Bun would.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookHandler } from '../../src/webhooks/index.js';

export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Serves `handler.node`, optionally behind a middleware that plays a body parser. */
export function serveNode(
  handler: WebhookHandler,
  before?: (request: IncomingMessage & { body?: unknown }) => Promise<void>,
): Promise<TestServer> {
  return listen(
    createServer(async (request: IncomingMessage & { body?: unknown }, response: ServerResponse) => {
      await before?.(request);
      await handler.node(request, response);
    }),
  );
}

/** Serves the web handler: IncomingMessage -> Request -> handler -> Response -> ServerResponse. */
export function serveWeb(handler: WebhookHandler): Promise<TestServer> {
  return listen(
    createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
      }
      const method = request.method ?? 'GET';
      const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
      const answer = await handler(new Request(`http://127.0.0.1${request.url}`, { method, headers, body }));
      response.statusCode = answer.status;
      answer.headers.forEach((value, name) => {
        response.setHeader(name, value);
      });
      response.end(Buffer.from(await answer.arrayBuffer()));
    }),
  );
}

/** Reads a server's body into a Buffer; for middlewares that play express.raw or express.json. */
export async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
