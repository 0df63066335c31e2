// One description of the request a delivery came in on, whichever adapter received it, for the secret resolver,
// dedupeKey and the handlers' context: a fetch Request has an absolute URL, Node's req.url is a path.
import type { WebhookHeaders } from './headers.js';

/** The request a delivery came in on, as every adapter (web, Node, `handle()`) describes it. */
export interface WebhookRequest {
  /**
   * The URL posted to; read its path and query (`url.pathname`, `url.searchParams`). On Node the origin is
   * rebuilt from the Host header over `http:` (behind a TLS proxy it says http); from `handle()`, the `url`
   * it was given on `http://localhost`, or `http://localhost/` when none.
   */
  readonly url: URL;
  /** The request headers as the adapter got them; none but the signature's is signed. */
  readonly headers: WebhookHeaders;
  /**
   * The framework's own request: the fetch `Request`, Node's `IncomingMessage` (Express's `Request`, with
   * `params`), or the `request` given to `handle()`.
   */
  readonly native: unknown;
}

const FALLBACK_ORIGIN = 'http://localhost';

/** Parses the URL only when something reads it: most handlers never do. */
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
    // A Host header that is no host name: the path still tells the tenant.
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
