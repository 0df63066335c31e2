// The command line is checked before it runs: an unknown command or flag, a missing value, an enum value
// out of its list or a positional too many is a usage error (exit 2) with the nearest known name. Checked on
// the command table itself, and on the built bin for the exit code, --json and plain (escape-free) text.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { checkArgs, nearest } from '../../src/cli/strict.js';
import { builtBin, CliRunner } from './helpers.js';

/** The usage error `argv` gives, or null when the line is accepted. */
function refusal(argv: string[]): string | null {
  try {
    checkArgs(COMMANDS, argv);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).code).toBe(EXIT.usage);
    return (error as Error).message;
  }
}

describe('checkArgs on the commands of shop-mgmt', () => {
  it('accepts the documented lines', () => {
    expect(refusal(['sandbox', '--port', '0', '--clock', '60x', '--json'])).toBeNull();
    expect(refusal(['sandbox', '--port=0', '--plan', 'enterprise'])).toBeNull();
    expect(refusal(['listen', '--forward-to', 'http://localhost:3000/x', '--print-secret'])).toBeNull();
    expect(refusal(['trigger', 'sale.completed', '--json'])).toBeNull();
    expect(refusal(['replay', 'evt_1', '--forward-to', 'http://localhost:3000/x'])).toBeNull();
  });

  it('refuses an unknown flag and names the nearest known one', () => {
    expect(refusal(['sandbox', '--prot', '5000'])).toMatch(
      /unknown flag --prot for sandbox; did you mean --port\?/,
    );
    expect(refusal(['listen', '--forward', 'http://x'])).toMatch(/did you mean --forward-to\?/);
    expect(refusal(['trigger', '--lsit'])).toMatch(/did you mean --list\?/);
    expect(refusal(['sandbox', '--zzzzzz'])).toMatch(/^unknown flag --zzzzzz for sandbox \(npx shop-mgmt/);
    expect(refusal(['sandbox', '-x'])).toMatch(/unknown flag -x/);
  });

  it('refuses an unknown command, a missing value, an enum value and an extra positional', () => {
    expect(refusal(['sandbx'])).toMatch(/unknown command "sandbx"; did you mean sandbox\?/);
    expect(refusal(['sandbox', '--port'])).toMatch(/--port needs a value/);
    expect(refusal(['sandbox', '--port', '--json'])).toMatch(/--port needs a value/);
    expect(refusal(['sandbox', '--plan', 'gold'])).toMatch(/--plan must be one of established, enterprise/);
    expect(refusal(['sandbox', 'now'])).toMatch(/sandbox takes no argument, got "now"/);
    expect(refusal(['replay', 'evt_1', 'evt_2'])).toMatch(/replay takes 1 argument, got another: "evt_2"/);
    expect(refusal(['trigger', '--json=yes'])).toMatch(/--json takes no value/);
  });

  it('suggests only what is near', () => {
    expect(nearest('prot', ['port', 'seed'])).toBe('port');
    expect(nearest('forward', ['forward-to'])).toBe('forward-to');
    expect(nearest('xyzzy', ['port', 'seed'])).toBeNull();
  });
});

describe('the bin on a bad command line', () => {
  let bin: Awaited<ReturnType<typeof builtBin>>;
  const cli = new CliRunner(() => bin.bin);
  beforeAll(async () => {
    bin = await builtBin();
  }, 120_000);
  afterEach(() => cli.killAll());
  afterAll(() => bin?.cleanup());

  it('exits 2 before doing anything, plain when piped, and as {"error"} with --json', async () => {
    const plain = await cli.run(['sandbox', '--prot', '5000']);
    expect(plain.code).toBe(2);
    expect(plain.stdout.join('')).toBe(''); // nothing started: no ready line
    expect(plain.stderr[0]).toBe(
      'error unknown flag --prot for sandbox; did you mean --port? (npx shop-mgmt sandbox --help lists them)',
    );
    const json = await cli.run(['replay', '--json']);
    expect(json.code).toBe(2);
    expect(json.stderr.map((line) => JSON.parse(line))).toEqual([
      { error: 'missing required positional argument: ID' },
    ]);
    const command = await cli.run(['bogus']);
    expect(command.code).toBe(2);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is looked for
    expect(command.stderr.join('\n')).not.toMatch(/\u001b\[/);
    expect(command.stderr[0]).toMatch(/^error unknown command "bogus"/);
  });
});
