import { ERROR_CLASS, ShopError } from '../core/errors/shop-error.js';

/** The exit codes of `shop-mgmt` (docs/cli.md lists them). */
export const EXIT = {
  /** Done, or stopped by Ctrl-C / SIGTERM after a clean shutdown. */
  ok: 0,
  /** Something failed at run time: the shop or the sandbox answered an error, a file could not be written. */
  failed: 1,
  /** Bad usage: an unknown flag value, a missing argument, an unreadable --state or checkpoint file. */
  usage: 2,
  /** Could not reach the shop, the sandbox process or the --forward-to receiver. */
  unreachable: 3,
  /** `trigger` for an event type the sandbox cannot make (the reason is printed). */
  unsupported: 4,
  /**
   * A command that ends by itself (`sync --once`, `sync --dry-run`) stopped by Ctrl-C (130) or SIGTERM (143)
   * before it was done, after recording where it stopped: 128 + the signal's number, as a shell shows a
   * process the signal ended.
   */
  signal: { SIGINT: 130, SIGTERM: 143 },
} as const;

/** An error the CLI prints as one line and exits with `code`, without a stack. */
export class CliError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'CliError';
  override readonly name: string = 'CliError';

  constructor(
    message: string,
    readonly code: number = EXIT.failed,
  ) {
    super(message);
  }
}

/** A CliError with the usage exit code. */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}
