// The `shop-mgmt` commands of the docs' `sh` blocks, run as a partner runs them: the built bin (as the CLI's
// tests build it, test/cli/helpers.ts), each command its own process, against a `shop-mgmt sandbox` process
// (the shop of the block), in a scratch folder (so `./shop.db` and `.shop-mgmt/` land there), each bounded in
// time. A command that runs to its end must exit 0 within its bound; a long-running one (`sandbox`, `listen`,
// `logs tail`, `sync` without --once) must print its ready line, then stop on SIGINT with exit 0. What cannot
// run here is listed in NOT_RUN with its reason, and a block's command that neither runs nor is listed fails.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliProcess } from '../cli/helpers.js';

/** One `shop-mgmt` command line of a shell block, with the variables set on it (`A=b npx shop-mgmt ...`). */
export interface ShellCommand {
  readonly text: string;
  readonly argv: string[];
  readonly env: Record<string, string>;
}

/** Commands of the docs that cannot run here, each with why (matched against the command line as written). */
export const NOT_RUN: readonly { readonly pattern: RegExp; readonly reason: string }[] = [
  {
    pattern: /sync --db postgres:\/\/app@db\/shop/,
    reason:
      "a PostgreSQL server at the placeholder host `db` (the partner's own database); sync on SQLite runs from the same blocks, and on Postgres in test/cli/sync-*.test.ts",
  },
  {
    pattern: /--db postgres:\/\/app@db\/shops\b/,
    reason:
      "the fleet on the partner's PostgreSQL at the placeholder host `db`; the same commands run on SQLite from the same blocks, and on Postgres as worker processes in test/cli/sync-fleet*.test.ts",
  },
];

/** Words as the shell splits them: '...' and "..." are one word each. */
function words(text: string): string[] {
  return [...text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((word) => word[1] ?? word[2] ?? word[3]!);
}

/** The `shop-mgmt` commands of a shell text (comments and line continuations dropped). */
export function shellCommands(code: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  for (const line of code.replace(/\\\n/g, ' ').split('\n')) {
    const text = line.replace(/\s#.*$/, '').trim();
    const match = /^((?:[A-Z_]+=\S+\s+)*)(?:npx\s+)?shop-mgmt\s+(.*)$/.exec(text);
    if (!match) continue;
    const env = Object.fromEntries(
      words(match[1]!).map((assignment) => {
        const at = assignment.indexOf('=');
        return [assignment.slice(0, at), assignment.slice(at + 1)];
      }),
    );
    commands.push({ text, argv: words(match[2]!), env });
  }
  return commands;
}

/** The line a long-running command prints once it is serving, and on which stream; null: it runs to its end. */
export function readyLine(argv: readonly string[]): { stream: 'stdout' | 'stderr'; pattern: RegExp } | null {
  const [command] = argv;
  if (command === 'sandbox') return { stream: 'stdout', pattern: /^\s*export SHOP_API_KEY=/ };
  if (command === 'example' && argv[1] === 'receiver')
    return { stream: 'stdout', pattern: /^Receiving webhooks at / };
  if (command === 'listen' && !argv.some((flag) => flag === '--print-secret' || flag === '--dead-letters'))
    return { stream: 'stdout', pattern: /^Listening to / };
  if (command === 'logs') return { stream: 'stderr', pattern: /following the live log of/ };
  if (
    command === 'sync' &&
    !['status', 'dead-letters', 'replay-dead'].includes(argv[1]!) &&
    !argv.some((flag) => flag === '--once' || flag === '--dry-run')
  )
    return { stream: 'stdout', pattern: /^Keeping the database current: / };
  return null;
}

/** Where a block's commands run: the bin, a scratch folder, the block's sandbox process. */
export interface ShellSetting {
  readonly bin: string;
  readonly cwd: string;
  readonly shop: { readonly url: string; readonly key: string };
  /** Files a command names (`--fixture scenario.json`), written into `cwd` first. */
  readonly files: Record<string, string>;
}

/** What running a command gave. */
export interface CommandRun {
  readonly command: ShellCommand;
  /** Null when NOT_RUN lists it; else its exit code. */
  readonly code: number | null;
  readonly skipped?: string;
  readonly stdout: string;
  readonly stderr: string;
}

const READY_MS = 30_000;
const RUN_MS = 60_000;

/** The argv as run: `sandbox` on a free port (`--port 0`) instead of 4010, which another program may hold. */
function asRun(argv: readonly string[]): string[] {
  if (argv[0] !== 'sandbox' && !(argv[0] === 'example' && argv[1] === 'receiver')) return [...argv];
  const at = argv.indexOf('--port');
  return at === -1 ? [...argv, '--port', '0'] : argv.map((word, index) => (index === at + 1 ? '0' : word));
}

/** A `...` placeholder of a variable on the line (`SHOP_WEBHOOK_SECRET=whsec_...`) given a real value. */
function realValue(name: string, value: string): string {
  if (!value.endsWith('...')) return value;
  if (name === 'SHOP_WEBHOOK_SECRET') return 'whsec_docs_shell_secret';
  throw new Error(`no value for the placeholder ${name}=${value}: add one in test/docs/shell.ts`);
}

/** Runs one command (bounded in time); resolves with its exit code and output. */
export async function runCommand(command: ShellCommand, setting: ShellSetting): Promise<CommandRun> {
  const skip = NOT_RUN.find((entry) => entry.pattern.test(command.text));
  if (skip) return { command, code: null, skipped: skip.reason, stdout: '', stderr: '' };
  for (const [name, text] of Object.entries(setting.files)) writeFileSync(join(setting.cwd, name), text);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    SHOP_API_KEY: setting.shop.key,
    SHOP_API_BASE_URL: setting.shop.url,
    SHOP_WEBHOOK_SECRET: '',
    ...Object.fromEntries(Object.entries(command.env).map(([name, value]) => [name, realValue(name, value)])),
  };
  const child = spawn(process.execPath, [setting.bin, ...asRun(command.argv)], {
    cwd: setting.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const running = new CliProcess(child);
  const output = () => ({ stdout: running.stdout.join('\n'), stderr: running.stderr.join('\n') });
  const ready = readyLine(command.argv);
  try {
    if (ready) {
      await running.until(() => running[ready.stream].some((line) => ready.pattern.test(line)), READY_MS);
      const code = await running.stop('SIGINT');
      return { command, code, ...output() };
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_MS);
    const code = await running.exited;
    clearTimeout(timer);
    return { command, code, ...output() };
  } finally {
    if (child.exitCode === null && child.signalCode === null) await running.stop('SIGKILL');
  }
}
