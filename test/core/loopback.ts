// A node:http server on 127.0.0.1 for the tests where the wire matters (resets, slow answers, measured
// waits): every request is recorded, and the current handler answers it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** One request as the server received it. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly at: number;
}

/** Answers one request; `index` counts from 0 per test. */
export type Handler = (seen: Seen, res: ServerResponse, req: IncomingMessage, index: number) => void;

/** Writes a JSON answer. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A loopback server for the file: started before, closed after, its record cleared before each test. */
export function useLoopback(): {
  readonly baseUrl: string;
  readonly seen: Seen[];
  handle(handler: Handler): void;
} {
  let server: Server;
  let handler: Handler = (_seen, res) => json(res, 500, {});
  const state = {
    baseUrl: '',
    seen: [] as Seen[],
    handle(next: Handler) {
      handler = next;
    },
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const entry = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: performance.now(),
        };
        state.seen.push(entry);
        handler(entry, res, req, state.seen.length - 1);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    state.seen.length = 0;
  });
  return state;
}
