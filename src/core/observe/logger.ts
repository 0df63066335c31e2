import { redact } from '../../internal/redact.js';

/** How much the SDK logs: `debug` adds one line per HTTP attempt, `info` each retry, `warn` waits refused. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/**
 * The fields every log line of a request passes after its message: operation, method, path template (never
 * the filled path), status, attempt and duration, as they apply. pino and winston users get them as fields.
 */
export interface LogFields {
  readonly operation?: string;
  readonly method?: string;
  /** The path template, e.g. `/v1/range/reservations/{id}`. */
  readonly path?: string;
  readonly status?: number | null;
  readonly attempt?: number;
  readonly durationMs?: number;
  readonly [field: string]: unknown;
}

/**
 * Where the SDK logs; `console` fits, as do pino and winston loggers. Each call passes the message, then a
 * {@link LogFields} object.
 */
export interface Logger {
  /** One line per HTTP attempt: method, path, status or error, attempt number, duration. */
  debug(message: string, ...rest: unknown[]): void;
  /** One line per retry: why, and how long the SDK waits before it. */
  info(message: string, ...rest: unknown[]): void;
  /** A wait the SDK refused (a Retry-After over `maxRetryAfterSeconds`). */
  warn(message: string, ...rest: unknown[]): void;
  /** Not used by the SDK today; part of the shape so any console-like logger fits. */
  error(message: string, ...rest: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/** True when `value` names a log level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/**
 * The SDK's view of the caller's logger: level checks are one comparison on the hot path, and every line is
 * redacted, so the API key never reaches a log even inside text the server sent back.
 */
export class SdkLogger {
  readonly #logger: Logger;
  readonly #rank: number;
  readonly #apiKeys: readonly string[];
  /** Precomputed, so a request only builds its debug line when someone reads it. */
  readonly debugEnabled: boolean;

  constructor(logger: Logger, level: LogLevel, apiKeys: readonly string[]) {
    this.#logger = logger;
    this.#rank = RANK[level];
    this.#apiKeys = apiKeys;
    this.debugEnabled = this.#rank <= RANK.debug;
  }

  debug(message: string, fields?: LogFields): void {
    if (this.#rank <= RANK.debug) this.#emit('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    if (this.#rank <= RANK.info) this.#emit('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    if (this.#rank <= RANK.warn) this.#emit('warn', message, fields);
  }

  #emit(level: 'debug' | 'info' | 'warn', message: string, fields: LogFields | undefined): void {
    // Fields hold the path template and figures, never the filled path or a header: nothing to redact.
    // A logger that throws (a closed stream, a broken transport) never fails the call it reports on.
    try {
      const returned: unknown = fields
        ? this.#logger[level](this.#clean(message), fields)
        : this.#logger[level](this.#clean(message));
      // An async logger's rejection must not surface as an unhandled rejection either.
      if (typeof (returned as Promise<unknown> | undefined)?.then === 'function') {
        (returned as Promise<unknown>).then(undefined, () => {});
      }
    } catch {
      // Nothing to do: there is nowhere left to report it.
    }
  }

  #clean(message: string): string {
    return `shop-mgmt: ${redact(message, this.#apiKeys)}`;
  }
}
