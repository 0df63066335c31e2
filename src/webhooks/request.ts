import type { WebhookHeaders } from './headers.js';

/** The request a delivery came in on, as every adapter describes it. */
export interface WebhookRequest {
  /** The URL posted to; on Node rebuilt over `http:` from the Host header. */
  readonly url: URL;
  /** The request headers; only the signature's is signed. */
  readonly headers: WebhookHeaders;
  /** The framework's own request (`Request`, `IncomingMessage`, or what `handle()` was given). */
  readonly native: unknown;
}

const FALLBACK_ORIGIN = 'http://localhost';

/** Parses the URL only when read. */
class DeliveryRequest implements WebhookRequest {
  readonly #href: string;
  readonly #origin: string;
  #url: URL | undefined;

  constructor(
    readonly native: unknown,
    readonly headers: WebhookHeaders,
    href: string,
    origin: string,
  ) {
    this.#href = href;
    this.#origin = origin;
  }

  get url(): URL {
    this.#url ??= parseUrl(this.#href, this.#origin);
    return this.#url;
  }
}

function parseUrl(href: string, origin: string): URL {
  try {
    return new URL(href, origin);
  } catch {
    // A Host that is no host name: the path still tells the tenant.
    try {
      return new URL(href, FALLBACK_ORIGIN);
    } catch {
      return new URL(FALLBACK_ORIGIN);
    }
  }
}

/** The description of a fetch `Request`. */
export function fromWebRequest(request: Request): WebhookRequest {
  return new DeliveryRequest(request, request.headers, request.url, FALLBACK_ORIGIN);
}

/** The description of Node's `IncomingMessage`, whose `url` is the path and query. */
export function fromNodeRequest(request: {
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | readonly string[] | undefined };
}): WebhookRequest {
  const host = request.headers.host;
  const origin = typeof host === 'string' && host !== '' ? `http://${host}` : FALLBACK_ORIGIN;
  return new DeliveryRequest(request, request.headers, request.url ?? '/', origin);
}

/** The description of what `handle()` was given. */
export function fromInput(input: {
  readonly headers: WebhookHeaders;
  readonly url?: string | URL | undefined;
  readonly request?: unknown;
}): WebhookRequest {
  return new DeliveryRequest(input.request, input.headers, String(input.url ?? '/'), FALLBACK_ORIGIN);
}
