import { redact } from '../../internal/redact.js';

/** How much the SDK logs: `debug` adds one line per HTTP attempt, `info` each retry, `warn` waits refused. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Fields of a request log line, passed after its message. */
export interface LogFields {
  readonly operation?: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number | null;
  readonly attempt?: number;
  readonly durationMs?: number;
  readonly [field: string]: unknown;
}

/** Where the SDK logs; `console`, pino and winston fit. */
export interface Logger {
  /** One line per HTTP attempt. */
  debug(message: string, ...rest: unknown[]): void;
  /** One line per retry. */
  info(message: string, ...rest: unknown[]): void;
  /** A refused wait (a Retry-After over `maxRetryAfterSeconds`). */
  warn(message: string, ...rest: unknown[]): void;
  /** Unused by the SDK. */
  error(message: string, ...rest: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/** True when `value` names a log level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/** The caller's logger behind a one-comparison level check, every line redacted of the API key. */
export class SdkLogger {
  readonly #logger: Logger;
  readonly #rank: number;
  readonly #apiKeys: readonly string[];
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
    // Fields hold nothing secret; a throwing logger never fails the call.
    try {
      const returned: unknown = fields
        ? this.#logger[level](this.#clean(message), fields)
        : this.#logger[level](this.#clean(message));
      if (typeof (returned as Promise<unknown> | undefined)?.then === 'function') {
        (returned as Promise<unknown>).then(undefined, () => {});
      }
    } catch {
      // Nowhere left to report it.
    }
  }

  #clean(message: string): string {
    return `shop-mgmt: ${redact(message, this.#apiKeys)}`;
  }
}
