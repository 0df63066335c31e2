import { type ArgsDef, type CommandDef, defineCommand, renderUsage, runCommand, runMain } from 'citty';
import { VERSION } from '../version.js';
import { COMMANDS } from './commands/index.js';
import { EXAMPLES } from './examples.js';
import { CliError, EXIT } from './exit-codes.js';
import { Output, outputMode } from './output.js';
import { checkArgs } from './strict.js';

/** `shop-mgmt`: the sandbox as a process, tunnel-free local webhooks, trigger and replay (docs/cli.md). */
const main = defineCommand({
  meta: {
    name: 'shop-mgmt',
    version: VERSION,
    description:
      'Local development against the Shop Management API: a sandbox process, webhooks without a tunnel.',
  },
  subCommands: COMMANDS,
});

const STYLE = String.raw`(?:\x1b\[[0-9;]*m)*`;
/** `USAGE logs tail`, coloured or not, where the bin's name is missing. */
const NESTED_USAGE = new RegExp(`^(${STYLE}USAGE${STYLE}) (?!${STYLE}shop-mgmt )`, 'm');

/** citty's usage of a command, then its examples; plain text when piped (citty colours by environment only). */
async function usageWithExamples<T extends ArgsDef = ArgsDef>(
  command: CommandDef<T>,
  parent?: CommandDef<T>,
): Promise<void> {
  const meta = await (typeof command.meta === 'function' ? command.meta() : command.meta);
  const examples = EXAMPLES[meta?.name ?? ''] ?? [];
  let text = await renderUsage(command, parent);
  // citty names one parent only: a nested command (`logs tail`) gets the bin's name in front here.
  text = text.replace(NESTED_USAGE, '$1 shop-mgmt ');
  if (examples.length > 0) text += `\n\nEXAMPLES\n\n${examples.map((line) => `  ${line}`).join('\n')}`;
  const plain = outputMode(false).tty ? text : withoutEscapes(text);
  process.stdout.write(`${plain}\n`);
}

/** Text without terminal escape codes (citty colours some of its messages whatever the stream). */
function withoutEscapes(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is being removed
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

const argv = process.argv.slice(2);
const wantsHelp =
  argv.length === 0 ||
  argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version' || arg === '-v');
if (wantsHelp) {
  // citty prints the usage of the command named, with its example, and exits 0.
  await runMain(main, { rawArgs: argv, showUsage: usageWithExamples });
} else {
  // A command still under way when nothing is left to wait on (no timer, socket or child holds the event
  // loop) would end with Node's exit code 13 ("unsettled top-level await"), silently. It is a bug of the
  // command: said so, and ended with the failure code of the table (docs/cli.md) instead.
  let settled = false;
  process.once('beforeExit', () => {
    if (settled) return;
    new Output(outputMode(argv.includes('--json'), process.stderr)).error(
      `internal error: ${argv[0]} stopped with its work unfinished (nothing left to wait on); please report it`,
    );
    process.exit(EXIT.failed);
  });
  try {
    // citty ignores a flag it does not know: check the line first (an unknown flag is a usage error).
    checkArgs(COMMANDS, argv);
    await runCommand(main, { rawArgs: argv });
    settled = true;
  } catch (error) {
    settled = true;
    // citty's own errors are usage errors too: a missing argument. Honour --json and NO_COLOR here as well.
    const output = new Output(outputMode(argv.includes('--json'), process.stderr));
    const message = withoutEscapes((error as Error).message);
    output.error(error instanceof CliError ? message : message.charAt(0).toLowerCase() + message.slice(1));
    if (!argv.includes('--json')) output.note('Run npx shop-mgmt --help for the commands.');
    process.exit(error instanceof CliError ? error.code : EXIT.usage);
  }
}
