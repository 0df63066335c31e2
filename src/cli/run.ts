import { AuthenticationError, PermissionDeniedError } from '../core/errors/api-errors.js';
import { isShopError } from '../core/errors/shop-error.js';
import { ConnectionError } from '../core/errors/transport-errors.js';
import { CliError, EXIT } from './exit-codes.js';
import { Output, outputMode } from './output.js';

/**
 * Runs a command body with an Output for its flags, and exits with its code: a CliError prints its
 * message alone; any other error prints its name and message (never a stack, which may quote a request).
 */
export async function run(
  json: boolean | undefined,
  body: (output: Output) => Promise<number>,
): Promise<void> {
  const output = new Output(outputMode(json));
  let code: number;
  try {
    code = await body(output);
  } catch (thrown) {
    const error = asCliError(thrown);
    output.stopSpinner();
    code = error instanceof CliError ? error.code : EXIT.failed;
    const message = error instanceof Error ? error.message : String(error);
    output.error(
      error instanceof CliError || !isShopError(error) ? message : `${(error as Error).name}: ${message}`,
    );
  }
  output.stopSpinner();
  process.exitCode = code;
  // Timers that never keep the process alive (sandbox retries) are gone with it; a clean exit is immediate.
  process.exit(code);
}

/** Resolves with the signal's name at the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<'SIGINT' | 'SIGTERM'> {
  return new Promise((resolve) => {
    const stop = (signal: 'SIGINT' | 'SIGTERM') => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}

/** The SDK's errors a command meets talking to the shop, as the CLI reports them. */
function asCliError(error: unknown): unknown {
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    return new CliError(`the shop refused the key: ${error.message}`, EXIT.failed);
  }
  if (error instanceof ConnectionError) {
    return new CliError(`cannot reach the shop: ${error.message}`, EXIT.unreachable);
  }
  return error;
}
