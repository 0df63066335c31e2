// The Node adapter, typed structurally so this entry needs neither node:http nor @types/node at runtime.
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

/** The part of Node's `IncomingMessage` (and Express's `Request`) the adapter reads. */
export interface NodeIncomingMessage extends AsyncIterable<unknown> {
  readonly method?: string | undefined;
  /** The path and query, as Node gives them. */
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | readonly string[] | undefined };
  /** Set by a body parser that ran first (Express, Koa): used when raw, refused when parsed. */
  readonly body?: unknown;
  readonly readableEnded?: boolean;
  /** Node's: drops the connection of a sender too slow to send its body. */
  destroy?(): unknown;
}

/** The part of Node's `ServerResponse` the adapter writes. */
export interface NodeServerResponse {
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body and ends the response. */
  end(body: string): unknown;
  /** Node's: the 408 drops the connection once it has been sent. */
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
  // A body parser on this route already consumed the stream; hand its result to the verifier, which accepts
  // a raw Buffer or string and explains a parsed object. The cap holds for what a parser left as well.
  // (Express 4's body-parser leaves `{}` on a request whose type it skipped, with the stream unread.)
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
    // UTF-8 takes 1 to 3 bytes per UTF-16 unit: encode only when the length alone cannot tell.
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

/**
 * Wraps the delivery receiver for Node: reads the raw body from the request stream, with a size limit and a
 * deadline (a sender too slow gets 408, then its connection is dropped).
 */
export function nodeHandler(receiver: DeliveryReceiver, limits: BodyLimits): NodeRequestHandler {
  // Never rejects: the promise is often not awaited (`void webhooks.node(req, res)`), and Express 4 turns a
  // rejection into an unhandled one. What fails is answered and told to onError.
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
        // Not a response that can be written: onError has been told.
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
    // Said here, not as "no body": the body was sent, and the receiver's own middleware took it.
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
    // A client that hung up mid-body gets an answer it will not read.
    return unreadable();
  }
  if (body === TOO_LARGE) return tooLarge(maxBodyBytes);
  if (body === TOO_SLOW) return bodyTimedOut(timeoutMs);
  // Past respondWithin the answer goes while the handlers run on in this process.
  return receiver.process({ body, headers: request.headers }, fromNodeRequest(request), { startedAt });
}
