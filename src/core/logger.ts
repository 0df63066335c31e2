import { redact } from '../internal/redact.js';

/** How much the SDK logs: `debug` adds one line per HTTP attempt, `info` each retry, `warn` waits refused. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Where the SDK logs; `console` fits, as do pino and winston loggers. */
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
  readonly #secrets: readonly string[];
  /** Precomputed, so a request only builds its debug line when someone reads it. */
  readonly debugEnabled: boolean;

  constructor(logger: Logger, level: LogLevel, secrets: readonly string[]) {
    this.#logger = logger;
    this.#rank = RANK[level];
    this.#secrets = secrets;
    this.debugEnabled = this.#rank <= RANK.debug;
  }

  debug(message: string): void {
    if (this.#rank <= RANK.debug) this.#logger.debug(this.#clean(message));
  }

  info(message: string): void {
    if (this.#rank <= RANK.info) this.#logger.info(this.#clean(message));
  }

  warn(message: string): void {
    if (this.#rank <= RANK.warn) this.#logger.warn(this.#clean(message));
  }

  #clean(message: string): string {
    return `shop-sdk: ${redact(message, this.#secrets)}`;
  }
}
