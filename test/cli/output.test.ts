// Output modes of the built bin: colours and a spinner on a terminal (a pseudo-terminal from util-linux
// `script`), plain lines when piped, --json lines for machines; --help with an example on every command.
import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtBin, CliRunner, startSandbox } from './helpers.js';

let bin: Awaited<ReturnType<typeof builtBin>>;
const cli = new CliRunner(() => bin.bin);
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is looked for
const ANSI = /\u001b\[/;
const hasScript = spawnSync('script', ['--version']).status === 0;

beforeAll(async () => {
  bin = await builtBin();
}, 120_000);
afterEach(() => cli.killAll());
afterAll(() => bin?.cleanup());

/** Runs the bin in a pseudo-terminal: `script` gives it a TTY for stdout and stderr. */
function inTerminal(
  args: string[],
  env: Record<string, string> = {},
): { code: number | null; output: string } {
  const command = [process.execPath, bin.bin, ...args]
    .map((part) => `'${part.replace(/'/g, "'\\''")}'`)
    .join(' ');
  const run = spawnSync('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, NO_COLOR: '', TERM: 'xterm', ...env },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { code: run.status, output: run.stdout };
}

describe('output', () => {
  it.skipIf(!hasScript)(
    'colours a terminal, with a spinner while it waits, and stays plain when piped',
    async () => {
      const tty = inTerminal(['trigger', '--list']);
      expect(tty.code).toBe(0);
      expect(tty.output).toMatch(ANSI);
      const piped = await cli.run(['trigger', '--list']);
      expect(piped.code).toBe(0);
      expect(piped.stdout.join('\n')).not.toMatch(ANSI);
      expect(piped.stdout.join('\n')).toMatch(/^yes sale\.completed$/m);

      const sandbox = await startSandbox(cli);
      const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
      const spinning = inTerminal(['trigger', 'sale.completed'], env);
      expect(spinning.code).toBe(0);
      // A coloured frame, then the text; cleared before the result line.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is part of the frame
      expect(spinning.output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\u001b\[0m triggering sale\.completed/);
      expect(spinning.output).toMatch(/Triggered/);
      const quiet = await cli.run(['trigger', 'sale.completed'], env);
      expect(quiet.stdout.join('\n')).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]|\r/);
    },
  );

  it('writes one JSON object a line with --json, and nothing else on stdout', async () => {
    const sandbox = await startSandbox(cli);
    const json = await cli.run(['trigger', 'coupon.created', '--json'], {
      SHOP_API_KEY: sandbox.key,
      SHOP_API_BASE_URL: sandbox.url,
    });
    expect(json.code).toBe(0);
    expect(json.stdout.filter((line) => line !== '').map((line) => JSON.parse(line))).toHaveLength(1);
    // No endpoint subscribes in this sandbox, so the service rule leaves the feed empty, and it says so.
    expect(json.records()[0]).toMatchObject({ type: 'coupon.created', events: [] });
    expect(sandbox.process.stderr.join('\n')).toMatch(/No --forward-to: no webhook endpoint/);
  });

  it.each([
    'sandbox',
    'listen',
    'trigger',
    'replay',
    'send',
    'logs tail',
    'example receiver',
    'sync dead-letters',
    'sync replay-dead',
  ])('%s --help prints usage and an example, exit 0', async (command) => {
    const help = await cli.run([...command.split(' '), '--help']);
    expect(help.code).toBe(0);
    const text = help.stdout.join('\n');
    expect(text).toMatch(new RegExp(`USAGE.*shop-mgmt ${command}`));
    expect(text).toMatch(new RegExp(`EXAMPLES[\\s\\S]*npx shop-mgmt ${command}`));
    expect(text).not.toMatch(ANSI);
  });

  it('exits 2 for an unknown command', async () => {
    const unknown = await cli.run(['tunnel']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.join('\n')).toMatch(/unknown command "tunnel"/);
  });
});
