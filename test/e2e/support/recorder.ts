// Records every exchange a ShopClient has with the sandbox (through the client's `fetch` option) and checks
// each response against the spec's JSON Schema for its operation and status, as it arrives.
import type { FetchLike } from '../../../src/index.js';
import type { SpecValidator } from './spec.js';

/** One request the sandbox answered, with what the spec says about the answer. */
export interface Exchange {
  readonly method: string;
  readonly path: string;
  /** The spec operation it matched; null for a path or method the spec does not have. */
  readonly operationId: string | null;
  readonly status: number;
  readonly body: unknown;
  readonly requestHeaders: Headers;
  /** Schema violations; empty when the response conforms. */
  readonly problems: readonly string[];
}

/** A network-level failure the client saw (a dropped connection): nothing to validate, but worth counting. */
export interface DroppedExchange {
  readonly method: string;
  readonly path: string;
}

/** Checks one response body against the spec; exported for the validator's own tests. */
export function checkResponse(
  spec: SpecValidator,
  method: string,
  path: string,
  status: number,
  body: unknown,
): { operationId: string | null; problems: string[] } {
  const operation = spec.match(method, path);
  if (!operation) {
    // No operation to hold it to: only the error envelope can be asked of it (404 unknown path, 405).
    const problems = spec.validateAt('/components/schemas/ErrorEnvelope', body);
    if (status < 400)
      problems.push(`${method} ${path} answered ${status} but the spec has no such operation`);
    if (status === 405 && !spec.pathExists(path)) problems.push(`405 for ${path}, a path the spec lacks`);
    return { operationId: null, problems };
  }
  const schema = spec.responseSchema(operation, status);
  if ('problem' in schema) return { operationId: operation.id, problems: [schema.problem] };
  const problems = spec.validateAt(schema.pointer, body);
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  // A code whose status the spec leaves open (x-http-status null: MEMBERSHIP_FULL) may come with any status.
  if (
    schema.errorCodes &&
    typeof code === 'string' &&
    !schema.errorCodes.includes(code) &&
    spec.codeStatus(code) !== null
  ) {
    problems.push(`error code ${code} is not one the spec lists for status ${status}`);
  }
  // The feed's items are typed only as events; hold each to its own event type's delivery schema too.
  if (operation.id === 'events.list' && status === 200) {
    for (const [index, event] of ((body as { data?: unknown[] }).data ?? []).entries()) {
      for (const problem of checkEvent(spec, event)) problems.push(`/data/${index}${problem}`);
    }
  }
  return { operationId: operation.id, problems };
}

/** Checks an event envelope (from the feed or a webhook delivery) against its type's schema in `webhooks`. */
export function checkEvent(spec: SpecValidator, event: unknown): string[] {
  const type = (event as { type?: unknown } | null)?.type;
  const pointer = typeof type === 'string' ? spec.eventSchema(type) : null;
  return spec.validateAt(pointer ?? '/components/schemas/Event', event);
}

/** A `fetch` for ShopClient that records and checks every response the sandbox sends back. */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly dropped: DroppedExchange[] = [];

  constructor(private readonly spec: SpecValidator) {}

  readonly fetch: FetchLike = async (input, init) => {
    // The SDK sends through ky, which hands fetch a Request.
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    const method = request.method.toUpperCase();
    const requestHeaders = new Headers(request.headers);
    let response: Response;
    try {
      response = await globalThis.fetch(request);
    } catch (error) {
      this.dropped.push({ method, path: pathname });
      throw error;
    }
    const text = await response.clone().text();
    let body: unknown = text;
    let problems: string[];
    let operationId: string | null = null;
    try {
      body = JSON.parse(text);
      ({ operationId, problems } = checkResponse(this.spec, method, pathname, response.status, body));
    } catch {
      problems = [`the body is not JSON: ${text.slice(0, 80)}`];
    }
    this.exchanges.push({
      method,
      path: pathname,
      operationId,
      status: response.status,
      body,
      requestHeaders,
      problems,
    });
    return response;
  };

  /** Exchanges with at least one problem, as one readable line each. */
  violations(): string[] {
    return this.exchanges
      .filter((exchange) => exchange.problems.length > 0)
      .map(
        (exchange) =>
          `${exchange.method} ${exchange.path} -> ${exchange.status} (${exchange.operationId ?? 'no operation'}): ${exchange.problems.join('; ')}`,
      );
  }

  /** `operationId status` pairs seen, e.g. `range.reservations.create 201`. */
  covered(): Set<string> {
    return new Set(
      this.exchanges
        .filter((exchange) => exchange.operationId !== null)
        .map((exchange) => `${exchange.operationId} ${exchange.status}`),
    );
  }

  /** Operation ids that answered at least once with a 2xx. */
  succeededOperations(): Set<string> {
    return new Set(
      this.exchanges
        .filter((exchange) => exchange.operationId !== null && exchange.status < 300)
        .map((exchange) => exchange.operationId as string),
    );
  }

  /** Requests to one path template and method, in order (what reached the server). */
  to(method: string, pathPattern: RegExp): Exchange[] {
    return this.exchanges.filter((exchange) => exchange.method === method && pathPattern.test(exchange.path));
  }
}
