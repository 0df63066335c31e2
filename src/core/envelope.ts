import { redact, redactedCopy, snippet } from '../internal/redact.js';
import { createApiError } from './errors/api-errors.js';
import { InvalidResponseError } from './errors/transport-errors.js';

/** The success envelope: `{status: 'ok', data, meta}`. `meta` is present on lists and availability. */
export interface SuccessEnvelope {
  readonly status: 'ok';
  readonly data: unknown;
  readonly meta?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Turns one response, whose body was read once as `text`, into its success envelope, or throws the error it
 * stands for: the status's `ShopApiError` subclass (with `code` null when there is no error envelope), or
 * `InvalidResponseError` for a 2xx that is not the envelope. Server text in messages is redacted of `secrets`.
 * `emptyData`, when given, is the `data` of a 2xx with an empty body (a DELETE's 204 No Content).
 */
export function openEnvelope(
  response: Response,
  text: string,
  secrets: readonly string[],
  emptyData?: unknown,
): SuccessEnvelope {
  const { status, headers } = response;
  if (text === '' && emptyData !== undefined && status >= 200 && status < 300) {
    return { status: 'ok', data: emptyData };
  }
  const parsed = parseJson(text);
  if (status >= 200 && status < 300) {
    if (!parsed.ok) {
      throw new InvalidResponseError(
        `Expected a JSON envelope, got ${text === '' ? 'an empty body' : `'${snippet(text, secrets)}'`} (HTTP ${status})`,
        status,
        headers,
      );
    }
    const body = parsed.value;
    if (!isRecord(body) || body.status !== 'ok' || !('data' in body)) {
      throw new InvalidResponseError(
        `Expected the envelope {status: 'ok', data}, got '${snippet(text, secrets)}' (HTTP ${status})`,
        status,
        headers,
      );
    }
    return body as unknown as SuccessEnvelope;
  }
  const error =
    parsed.ok && isRecord(parsed.value) && parsed.value.status === 'error' ? parsed.value.error : null;
  if (isRecord(error) && typeof error.code === 'string') {
    // The server's words, redacted and cut short: a proxy may echo the request, and a message may be huge.
    const message = typeof error.message === 'string' ? snippet(error.message, secrets, 500) : '';
    const code = snippet(error.code, secrets, 100);
    // A VALIDATION_ERROR's field reasons go into the message too, not only into details.
    const fields = code === 'VALIDATION_ERROR' ? fieldMessages(error.details, secrets) : '';
    return throwApi(
      status,
      code,
      `${status} ${code}${message ? `: ${message}` : ''}${fields}`,
      isRecord(error.details) ? redactedCopy(error.details, secrets) : undefined,
      headers,
    );
  }
  const start = text === '' ? 'empty body' : `'${snippet(text, secrets)}'`;
  const reason = response.statusText ? `${status} ${response.statusText}` : `HTTP ${status}`;
  return throwApi(status, null, `${reason} without an error envelope: ${start}`, undefined, headers);
}

/** ` (limit: must be between 1 and 200; from: is not a date)`: a VALIDATION_ERROR's reasons, for its message. */
function fieldMessages(details: unknown, secrets: readonly string[]): string {
  if (!isRecord(details)) return '';
  const parts: string[] = [];
  for (const [field, messages] of Object.entries(details).slice(0, 10)) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter(
      (message): message is string => typeof message === 'string',
    );
    if (list.length > 0) parts.push(`${field}: ${list.join(', ')}`);
  }
  const text = redact(parts.join('; '), secrets);
  return text === '' ? '' : ` (${text.length > 500 ? `${text.slice(0, 500)}...` : text})`;
}

function throwApi(
  status: number,
  code: string | null,
  message: string,
  details: unknown,
  headers: Headers,
): never {
  throw createApiError({ status, code, message, details: isRecord(details) ? details : {}, headers });
}
