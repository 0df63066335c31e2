// What `onError` is told beside the error, every secret and `whsec_...` string redacted.
import { redact } from '../internal/redact.js';
import type { WebhookDelivery, WebhookHeaders } from './headers.js';
import type { WebhookRequest } from './request.js';

/** The delivery's header fields, each redacted of `hidden` and `whsec_...` strings. */
export function reportedDelivery(delivery: WebhookDelivery, hidden: readonly string[]): WebhookDelivery {
  return {
    eventType: redactedOrNull(delivery.eventType, hidden),
    eventId: redactedOrNull(delivery.eventId, hidden),
    deliveryId: redactedOrNull(delivery.deliveryId, hidden),
    attempt: delivery.attempt,
  };
}

function redactedOrNull(value: string | null, hidden: readonly string[]): string | null {
  return value === null ? null : redact(value, hidden);
}

/** The request as `onError` sees it: redacted headers and URL; `native` is a getter, so logging skips it. */
class ReportedRequest implements WebhookRequest {
  readonly headers: WebhookHeaders;
  readonly #source: WebhookRequest;
  readonly #hidden: readonly string[];
  #url: URL | undefined;

  constructor(source: WebhookRequest, hidden: readonly string[]) {
    this.#source = source;
    this.#hidden = hidden;
    this.headers = redactedHeaders(source.headers, hidden);
  }

  get url(): URL {
    this.#url ??= redactedUrl(this.#source.url, this.#hidden);
    return this.#url;
  }

  /** The framework's own request, unredacted: never log it whole. */
  get native(): unknown {
    return this.#source.native;
  }
}

/** `request` for `onError`, redacted. */
export function reportedRequest(request: WebhookRequest, hidden: readonly string[]): WebhookRequest {
  return new ReportedRequest(request, hidden);
}

function redactedUrl(url: URL, hidden: readonly string[]): URL {
  const href = redact(url.href, hidden);
  if (href === url.href) return url;
  try {
    return new URL(href);
  } catch {
    return new URL(`${url.protocol}//localhost/`);
  }
}

/** A redacted copy of the headers, in the form they came in. */
function redactedHeaders(headers: WebhookHeaders, hidden: readonly string[]): WebhookHeaders {
  if (typeof headers !== 'object' || headers === null) return {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    const copy = new Headers();
    (headers as Headers).forEach((value, name) => {
      try {
        copy.append(redact(name, hidden), redact(value, hidden));
      } catch {
        // A name the redaction made invalid is left out.
      }
    });
    return copy;
  }
  const copy: Record<string, string | readonly string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    // Defined, not assigned, so a header named __proto__ stays a header.
    Object.defineProperty(copy, redact(name, hidden), {
      value:
        typeof value === 'string'
          ? redact(value, hidden)
          : Array.isArray(value)
            ? value.map((item: unknown) => redact(String(item), hidden))
            : undefined,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
