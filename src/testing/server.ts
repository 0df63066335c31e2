import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientInfo, SandboxAnswer, SandboxRequest } from './http/pipeline.js';

/** A running sandbox HTTP server. */
export interface SandboxServer {
  /** `http://127.0.0.1:<port>`: pass it as the client's baseUrl (the SDK adds /v1). */
  readonly url: string;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** Options of `sandbox.listen()`. */
export interface ListenOptions {
  /** @default 0 (a free port) */
  port?: number;
}

type CoreHandler = (request: Request, info: ClientInfo) => Promise<Response>;

/** The pipeline without web Request and Response (`answerRequest`): null drops the connection. */
type AnswerHandler = (request: SandboxRequest, info: ClientInfo) => Promise<SandboxAnswer | null>;

/**
 * Serves `handle` on 127.0.0.1 with node:http, imported on the first listen() so other bundles never load it.
 */
export function listen(handle: CoreHandler, options: ListenOptions = {}): Promise<SandboxServer> {
  return start((incoming, outgoing) => serve(handle, incoming, outgoing), options);
}

/**
 * Serves the sandbox's pipeline on 127.0.0.1 (`sandbox.listen()`): node:http's request is read in place
 * and the answer's text written as it is, with no web Request or Response in between (on a page of 200
 * records those copies and stream reads were most of a request's cost).
 */
export function listenAnswers(answer: AnswerHandler, options: ListenOptions = {}): Promise<SandboxServer> {
  const buffers = new BodyBuffers();
  return start((incoming, outgoing) => serveAnswer(answer, buffers, incoming, outgoing), options);
}

/**
 * Serves `answer` on 127.0.0.1 as `listenAnswers` does, and the requests whose path `toHandle` picks through
 * `handle` with web Request and Response (the CLI's many-shop process: its control routes, a live log that
 * streams, beside the shops' API on the direct path).
 */
export function listenBoth(
  answer: AnswerHandler,
  handle: CoreHandler,
  toHandle: (path: string) => boolean,
  options: ListenOptions = {},
): Promise<SandboxServer> {
  const buffers = new BodyBuffers();
  return start(
    (incoming, outgoing) =>
      toHandle((incoming.url ?? '/').split('?')[0]!)
        ? serve(handle, incoming, outgoing)
        : serveAnswer(answer, buffers, incoming, outgoing),
    options,
  );
}

async function start(
  onRequest: (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>,
  options: ListenOptions,
): Promise<SandboxServer> {
  const { createServer } = await import('node:http');
  const server = createServer((incoming, outgoing) => {
    void onRequest(incoming, outgoing);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** Reused buffers for large bodies (a 200-record page is ~160 kB; new ones pile up outside the heap). */
class BodyBuffers {
  private readonly free: Uint8Array[] = [];
  private readonly lent = new WeakSet<ArrayBufferLike>();

  take(length: number): Uint8Array {
    const at = this.free.findIndex((buffer) => buffer.byteLength >= length);
    const buffer = at >= 0 ? this.free.splice(at, 1)[0]! : new Uint8Array(Math.max(length, 64 * 1024));
    this.lent.add(buffer.buffer);
    return buffer;
  }

  /** Takes `body`'s buffer back if it is one of these (a view of it, as the page's bytes are). */
  give(body: string | Uint8Array): void {
    if (typeof body === 'string' || !this.lent.has(body.buffer)) return;
    this.lent.delete(body.buffer);
    if (this.free.length < 16) this.free.push(new Uint8Array(body.buffer));
  }
}

async function serveAnswer(
  answer: AnswerHandler,
  buffers: BodyBuffers,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  try {
    const answered = await answer(sandboxRequest(incoming), {
      ip: incoming.socket.remoteAddress ?? '127.0.0.1',
      allocate: (length) => buffers.take(length),
    });
    if (answered === null) {
      incoming.socket.destroy();
      return;
    }
    const body = answered.body;
    outgoing.writeHead(answered.status, {
      ...answered.headers,
      'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
    });
    outgoing.end(body, () => buffers.give(body));
  } catch {
    failed(outgoing);
  }
}

/** node:http's request as the pipeline reads it; the body is read when asked for (GET and HEAD have none). */
function sandboxRequest(incoming: IncomingMessage): SandboxRequest {
  const method = incoming.method ?? 'GET';
  return {
    method,
    url: `http://127.0.0.1${incoming.url ?? '/'}`,
    headers: {
      get: (name) => {
        const value = incoming.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: async () => {
      if (method === 'GET' || method === 'HEAD') return '';
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      // As a web Request's text(): UTF-8, a leading byte order mark dropped.
      const text = Buffer.concat(chunks).toString('utf8');
      return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    },
  };
}

function failed(outgoing: ServerResponse): void {
  if (!outgoing.headersSent) {
    outgoing.writeHead(500, { 'Content-Type': 'application/json' });
    outgoing.end(
      JSON.stringify({
        status: 'error',
        error: { code: 'SERVER_ERROR', message: 'Sandbox server error', details: {} },
      }),
    );
  } else {
    outgoing.destroy();
  }
}

async function serve(
  handle: CoreHandler,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  try {
    const request = await toWebRequest(incoming);
    const response = await handle(request, { ip: incoming.socket.remoteAddress ?? '127.0.0.1' });
    if (response.type === 'error') {
      incoming.socket.destroy();
      return;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (response.body && headers['content-type']?.startsWith('text/event-stream')) {
      await stream(response.body, headers, response.status, outgoing);
      return;
    }
    const body = Buffer.from(await response.arrayBuffer());
    outgoing.writeHead(response.status, { ...headers, 'Content-Length': String(body.length) });
    outgoing.end(body);
  } catch {
    failed(outgoing);
  }
}

/** A server-sent-events answer, written chunk by chunk until either side ends it. */
async function stream(
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string>,
  status: number,
  outgoing: ServerResponse,
): Promise<void> {
  const reader = body.getReader();
  const closed = new Promise<void>((resolve) =>
    outgoing.on('close', () => {
      void reader.cancel().catch(() => undefined);
      resolve();
    }),
  );
  outgoing.writeHead(status, headers);
  outgoing.flushHeaders();
  for (;;) {
    const { done, value } = await reader.read();
    if (done || outgoing.destroyed) break;
    // A reader that does not keep up is waited for, not buffered without end.
    if (!outgoing.write(value)) {
      await Promise.race([new Promise((resolve) => outgoing.once('drain', resolve)), closed]);
    }
  }
  outgoing.end();
}

async function toWebRequest(incoming: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = incoming.method ?? 'GET';
  const body = chunks.length > 0 && method !== 'GET' && method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
  return new Request(`http://127.0.0.1${incoming.url ?? '/'}`, { method, headers, body });
}
