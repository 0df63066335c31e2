import { type ArgsDef, type CommandDef, defineCommand, renderUsage, runCommand, runMain } from 'citty';
import { VERSION } from '../version.js';
import { listenCommand } from './commands/listen.js';
import { logsCommand } from './commands/logs.js';
import { replayCommand } from './commands/replay.js';
import { sandboxCommand } from './commands/sandbox.js';
import { sendCommand } from './commands/send.js';
import { syncCommand } from './commands/sync.js';
import { triggerCommand } from './commands/trigger.js';
import { EXAMPLES } from './examples.js';
import { EXIT } from './exit-codes.js';

/** `shop-mgmt`: the sandbox as a process, tunnel-free local webhooks, trigger and replay (docs/cli.md). */
const main = defineCommand({
  meta: {
    name: 'shop-mgmt',
    version: VERSION,
    description:
      'Local development against the Shop Management API: a sandbox process, webhooks without a tunnel.',
  },
  subCommands: {
    sandbox: sandboxCommand,
    listen: listenCommand,
    trigger: triggerCommand,
    replay: replayCommand,
    sync: syncCommand,
    logs: logsCommand,
    send: sendCommand,
  },
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
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is being removed
  const plain = process.stdout.isTTY && !process.env.NO_COLOR ? text : text.replace(/\u001b\[[0-9;]*m/g, '');
  process.stdout.write(`${plain}\n`);
}

const argv = process.argv.slice(2);
const wantsHelp =
  argv.length === 0 ||
  argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version' || arg === '-v');
if (wantsHelp) {
  // citty prints the usage of the command named, with its example, and exits 0.
  await runMain(main, { rawArgs: argv, showUsage: usageWithExamples });
} else {
  try {
    await runCommand(main, { rawArgs: argv });
  } catch (error) {
    // citty's own errors are usage errors: an unknown command, a missing argument.
    process.stderr.write(`error ${(error as Error).message}\nRun npx shop-mgmt --help for the commands.\n`);
    process.exit(EXIT.usage);
  }
}
