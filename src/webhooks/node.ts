// Typed structurally: this entry needs neither node:http nor @types/node.
import { type ChunkSource, readCapped, stop, TOO_LARGE, TOO_SLOW } from './body-reader.js';
import { WebhookConfigurationError, WebhookVerificationError } from './errors.js';
import { fromNodeRequest } from './request.js';
import {
  bodyTimedOut,
  type DeliveryReceiver,
  refuseBeforeReading,
  responseHeaders,
  tooLarge,
  unreadable,
  type WebhookResult,
} from './results.js';

/** What the adapter reads of `IncomingMessage` (and Express's `Request`). */
export interface NodeIncomingMessage extends AsyncIterable<unknown> {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | readonly string[] | undefined };
  /** Set by a body parser that ran first: used when raw, refused when parsed. */
  readonly body?: unknown;
  readonly readableEnded?: boolean;
  /** Drops a too-slow sender's connection. */
  destroy?(): unknown;
}

/** What the adapter writes of `ServerResponse`. */
export interface NodeServerResponse {
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body and ends the response. */
  end(body: string): unknown;
  /** Drops the connection after the 408. */
  once?(event: 'finish', listener: () => void): unknown;
}

/** `(req, res) => Promise<void>` for `http.createServer` and Express routes. */
export type NodeRequestHandler = (
  request: NodeIncomingMessage,
  response: NodeServerResponse,
) => Promise<void>;

async function readBody(
  request: NodeIncomingMessage,
  maxBodyBytes: number,
  deadline: number,
  sources: ChunkSource[],
): Promise<unknown> {
  // A body parser already consumed the stream: a raw result is verified, a parsed one explained (Express 4
  // leaves `{}` with the stream unread on a skipped type).
  const parsed = request.body;
  if (parsed !== undefined && !(isEmptyObject(parsed) && !request.readableEnded)) {
    return overCap(parsed, maxBodyBytes) ? TOO_LARGE : parsed;
  }
  const chunks = request[Symbol.asyncIterator]();
  const source = { next: () => chunks.next(), stop: () => chunks.return?.() };
  sources.push(source);
  return readCapped(source, maxBodyBytes, deadline);
}

const encoder = new TextEncoder();

function overCap(body: unknown, maxBodyBytes: number): boolean {
  if (typeof body === 'string') {
    // UTF-8 is 1-3 bytes per UTF-16 unit: encode only when the length cannot tell.
    if (body.length > maxBodyBytes) return true;
    return body.length * 3 > maxBodyBytes && encoder.encode(body).length > maxBodyBytes;
  }
  if (ArrayBuffer.isView(body) || body instanceof ArrayBuffer) return body.byteLength > maxBodyBytes;
  return false;
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !ArrayBuffer.isView(value) &&
    Object.keys(value).length === 0
  );
}

function send(response: NodeServerResponse, result: WebhookResult): void {
  response.statusCode = result.status;
  for (const [name, value] of Object.entries(responseHeaders(result.status))) response.setHeader(name, value);
  response.end(result.body);
}

/** The body limits of a handler: its size cap and its read deadline. */
export interface BodyLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** The receiver for Node: reads the raw body with a size limit and a deadline. */
export function nodeHandler(receiver: DeliveryReceiver, limits: BodyLimits): NodeRequestHandler {
  // Never rejects: the promise is often not awaited, and Express 4 makes a rejection unhandled.
  return async (request, response) => {
    try {
      const sources: ChunkSource[] = [];
      const result = await answer(receiver, request, limits, Date.now(), sources);
      if (result.status === 408) {
        dropAfterAnswer(request, response, sources);
        response.setHeader('connection', 'close');
      }
      send(response, result);
    } catch (error) {
      const result = receiver.fail(error, request?.headers);
      try {
        send(response, result);
      } catch {
        // Not writable: onError has been told.
      }
    }
  };
}

function dropAfterAnswer(
  request: NodeIncomingMessage,
  response: NodeServerResponse,
  sources: ChunkSource[],
): void {
  const drop = () => {
    for (const source of sources) stop(source);
    try {
      request.destroy?.();
    } catch {
      // Already gone.
    }
  };
  if (typeof response.once === 'function') response.once('finish', drop);
  else drop();
}

async function answer(
  receiver: DeliveryReceiver,
  request: NodeIncomingMessage,
  { maxBytes: maxBodyBytes, timeoutMs }: BodyLimits,
  startedAt: number,
  sources: ChunkSource[],
): Promise<WebhookResult> {
  if (typeof request?.headers !== 'object' || request.headers === null) {
    throw new WebhookConfigurationError(
      "webhooks.node(req, res) needs Node's IncomingMessage (or Express's Request) as req.",
    );
  }
  const refused = refuseBeforeReading(request.method, request.headers['content-length'], maxBodyBytes);
  if (refused) return refused;
  if (request.body === undefined && request.readableEnded) {
    // The body was sent; the receiver's own middleware took it.
    return receiver.fail(
      new WebhookVerificationError(
        'invalid_body',
        'A body parser consumed the request stream and left no body on req.body: give this route ' +
          "express.raw({ type: 'application/json' }), or register it before the parser.",
      ),
      request.headers,
    );
  }
  let body: unknown;
  try {
    body = await readBody(request, maxBodyBytes, startedAt + timeoutMs, sources);
  } catch {
    return unreadable();
  }
  if (body === TOO_LARGE) return tooLarge(maxBodyBytes);
  if (body === TOO_SLOW) return bodyTimedOut(timeoutMs);
  return receiver.process({ body, headers: request.headers }, fromNodeRequest(request), { startedAt });
}
