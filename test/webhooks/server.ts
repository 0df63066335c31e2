// Real HTTP servers on 127.0.0.1 for the handler tests: one mounts the Node adapter, the other turns each
// request into a fetch Request for the web handler, as Next.js, Hono or Bun would.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
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

/** fetch wants `duplex: 'half'` with a stream body; the DOM lib's RequestInit does not list it yet. */
export const HALF_DUPLEX = { duplex: 'half' } as RequestInit;

/**
 * Serves the web handler: IncomingMessage -> Request -> handler -> Response -> ServerResponse. The body is
 * streamed into the Request, not read first, as Hono's node-server and Next.js do: the handler's size cap
 * meets a chunked body as it arrives. (The sandbox's server, src/testing/server.ts, reads the body first;
 * it serves the simulator, not a receiver under test, so the two are not merged.)
 */
export function serveWeb(handler: WebhookHandler): Promise<TestServer> {
  return listen(
    createServer(async (request, response) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
      }
      const method = request.method ?? 'GET';
      const body =
        method === 'GET' || method === 'HEAD' ? undefined : (Readable.toWeb(request) as ReadableStream);
      const answer = await handler(
        new Request(`http://${request.headers.host}${request.url}`, {
          method,
          headers,
          body,
          ...HALF_DUPLEX,
        }),
      );
      response.statusCode = answer.status;
      answer.headers.forEach((value, name) => {
        response.setHeader(name, value);
      });
      response.end(Buffer.from(await answer.arrayBuffer()));
    }),
  );
}

/**
 * POSTs `total` bytes in chunks with no Content-Length (Transfer-Encoding: chunked), as a sender that
 * streams does; resolves with the answer, or with the error when the server cut the connection.
 */
export function postChunked(
  url: string,
  total: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const outgoing = httpRequest(url, { method: 'POST', headers }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (text: string) => {
        body += text;
      });
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
    });
    outgoing.on('error', (error) => resolve({ error: error.message }));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const write = (): void => {
      while (sent < total) {
        sent += chunk.length;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', write);
          return;
        }
      }
      outgoing.end();
    };
    write();
  });
}

/** Reads a server's body into a Buffer; for middlewares that play express.raw or express.json. */
export async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
