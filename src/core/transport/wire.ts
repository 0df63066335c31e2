import type { KyInstance } from 'ky';
import { MAX_TIMER_MS } from '../../internal/limits.js';
import { defaultFunction, loadOnce } from '../../internal/load-once.js';
import { redact, redactedCause } from '../../internal/redact.js';
import { ConnectionError, ResponseTooLargeError } from '../errors/transport-errors.js';

/** A failed fetch as a ConnectionError, message and `cause` redacted (the runtime may quote headers). */
export function connectionError(cause: unknown, apiKeys: readonly string[], url?: string): ConnectionError {
  const reason = redact(cause instanceof Error ? cause.message : String(cause), apiKeys);
  const code = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const where = url === undefined ? '' : ` to ${redact(urlWithoutQuery(url), apiKeys)}`;
  return new ConnectionError(
    `Connection error${where}: ${reason}${typeof code === 'string' ? ` (${code})` : ''}`,
    {
      cause: redactedCause(cause, apiKeys),
    },
  );
}

/** Origin and path of a URL: no query (it may carry values), no credentials. */
function urlWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(an unparsable URL)';
  }
}

/** Passed through ky to fetch: the attempt's signal; whether hooks see the response. */
export interface AttemptInit {
  shopSdkSignal?: AbortSignal;
  shopSdkHooks?: boolean;
}

/** The runtime's fetch with the attempt's own signal (ky's `signal` would cost an AbortSignal.any). */
export function fetchWithAttemptSignal(input: Request | URL | string, init?: RequestInit): Promise<Response> {
  const attempt = init as AttemptInit | undefined;
  const signal = attempt?.shopSdkSignal;
  const sent = globalThis.fetch(input, signal ? { signal } : init);
  return attempt?.shopSdkHooks ? sent.then(deferClones) : sent;
}

const loadDeferral = loadOnce(() => import('../observe/deferred-clone.js'));

/** The response with deferred clones (deferred-clone.ts, loaded on first use). */
function deferClones(response: Response): Promise<Response> {
  return loadDeferral().then(
    (module) => module.deferClones(response),
    () => response,
  );
}

/** A caller's `fetch`, with deferred clones when hooked. */
export function callersFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const attempt = init as AttemptInit | undefined;
    if (!attempt?.shopSdkHooks) return fetch(input, init);
    const { shopSdkHooks: _, ...rest } = attempt;
    return Promise.resolve(fetch(input, rest as RequestInit)).then(deferClones);
  };
}

/** ky, imported once per process. */
export const loadKy = loadOnce(() => import('ky').then((module) => defaultFunction<KyInstance>(module)));

/** `work`, or a rejection once `ms` pass or `signal` aborts (caller code that never settles). */
export function within<T>(
  work: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  onTimeout: () => unknown,
): Promise<T> {
  if (ms === Number.POSITIVE_INFINITY && !signal) return work;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      work.catch(() => {});
      reject(signal.reason);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    if (ms !== Number.POSITIVE_INFINITY) {
      timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          reject(onTimeout());
        },
        Math.max(0, Math.min(ms, MAX_TIMER_MS)),
      );
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

/** Rejects with `signal`'s reason on abort (for an exchange that may ignore it). */
export function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** The body as text, refused once past `max` decoded bytes (counted as it inflates). */
export async function readBody(response: Response, max: number): Promise<string> {
  const headers = response.headers;
  const declared = headers.get('content-length');
  if (declared !== null) {
    const length = Number(declared);
    if (length > max) {
      response.body?.cancel().catch(() => {});
      throw tooLarge(response, max, length);
    }
    if (Number.isSafeInteger(length) && headers.get('content-encoding') === null) return response.text();
  }
  const body = response.body;
  if (body === null) return response.text();
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      reader.cancel().catch(() => {});
      throw tooLarge(response, max, null);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function tooLarge(response: Response, max: number, length: number | null): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `The response body (HTTP ${response.status}) is ${length === null ? 'over' : `${length} bytes, over`} maxResponseBytes (${max}); it was not read${length === null ? ' past the limit' : ''}`,
    response.status,
    response.headers,
    max,
  );
}
