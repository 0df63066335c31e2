// Shell completion. Each script asks the bin itself for the candidates of the line being typed
// (`shop-mgmt completion __words -- <words>`), so commands, flags, closed values and profile names come from
// the same tables as the strict check, and a new operation needs no new script.
import { defineCommand } from 'citty';
import { EXIT, usageError } from '../exit-codes.js';
import { readProfiles } from '../profiles.js';
import { run } from '../run.js';
import type { ArgSpec, CommandSpec, CommandSpecs } from '../strict.js';
import { nearest } from '../strict.js';

const SHELLS = ['bash', 'zsh', 'fish'];

const SCRIPTS: Record<string, string> = {
  bash: `# shop-mgmt completion for bash: eval "$(shop-mgmt completion bash)" in ~/.bashrc
_shop_mgmt_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(shop-mgmt completion __words -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _shop_mgmt_complete shop-mgmt
`,
  zsh: `#compdef shop-mgmt
# shop-mgmt completion for zsh: eval "$(shop-mgmt completion zsh)" in ~/.zshrc (after compinit)
_shop_mgmt() {
  local -a candidates
  candidates=("\${(@f)$(shop-mgmt completion __words -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _shop_mgmt shop-mgmt
`,
  fish: `# shop-mgmt completion for fish: shop-mgmt completion fish > ~/.config/fish/completions/shop-mgmt.fish
function __shop_mgmt_complete
    set -l tokens (commandline -opc) (commandline -ct)
    shop-mgmt completion __words -- $tokens[2..-1] 2>/dev/null
end
complete -c shop-mgmt -f -a '(__shop_mgmt_complete)'
`,
};

/** `shop-mgmt completion bash|zsh|fish`: the script to load in the shell. */
/** The commands to complete, given by commands/index.ts (which lists this command: no import back). */
let completable: () => CommandSpecs = () => ({});

/** Names the command table completion reads. */
export function completeFrom(commands: () => CommandSpecs): void {
  completable = commands;
}

export const completionCommand = defineCommand({
  meta: {
    name: 'completion',
    description:
      'Print the shell completion script: bash, zsh or fish (commands, flags, closed values, profiles).',
  },
  args: {
    shell: { type: 'positional', description: 'bash, zsh or fish', required: true },
  },
  run: ({ args: flags, rawArgs }) =>
    run(false, async () => {
      if (flags.shell === '__words') {
        const dashes = rawArgs.indexOf('--');
        const words = dashes < 0 ? [] : rawArgs.slice(dashes + 1);
        const candidates = complete(completable(), words.length > 0 ? words : ['']);
        if (candidates.length > 0) process.stdout.write(`${candidates.join('\n')}\n`);
        return EXIT.ok;
      }
      const script = SCRIPTS[flags.shell];
      if (!script) {
        const hint = nearest(flags.shell, SHELLS);
        throw usageError(
          `completion takes bash, zsh or fish, got ${JSON.stringify(flags.shell)}${hint ? `; did you mean ${hint}?` : ''}`,
        );
      }
      process.stdout.write(script);
      return EXIT.ok;
    }),
});

/** The flags of a command, by name (aliases too), as the strict check reads them. */
function flagsOf(command: CommandSpec): Map<string, ArgSpec> {
  const flags = new Map<string, ArgSpec>();
  for (const [name, spec] of Object.entries((command.args ?? {}) as Record<string, ArgSpec>)) {
    if (spec.type !== 'positional') flags.set(name, spec);
  }
  return flags;
}

/**
 * The candidates for the last of `words` (the words after the bin's name, the last one being typed):
 * subcommands, `--flags`, the values of an `enum` flag, profile names for --profile.
 */
export function complete(commands: CommandSpecs, words: readonly string[]): string[] {
  const current = words.at(-1) ?? '';
  const done = words.slice(0, -1);
  let level: CommandSpecs | undefined = commands;
  let command: CommandSpec | undefined;
  let positionals = 0;
  let awaiting: { name: string; spec: ArgSpec } | null = null;
  for (const word of done) {
    if (awaiting) {
      awaiting = null;
      continue;
    }
    if (word.startsWith('--')) {
      const name = word.slice(2);
      const spec = command ? flagsOf(command).get(name) : undefined;
      if (spec && spec.type !== 'boolean' && !name.includes('=')) awaiting = { name, spec };
      continue;
    }
    if (level && Object.hasOwn(level, word)) {
      command = level[word];
      level = command?.subCommands as CommandSpecs | undefined;
      positionals = 0;
      continue;
    }
    positionals += 1;
  }
  let candidates: string[];
  if (awaiting) {
    candidates =
      awaiting.name === 'profile'
        ? profileNames()
        : awaiting.spec.type === 'enum'
          ? [...(awaiting.spec.options ?? [])]
          : [];
  } else if (current.startsWith('-')) {
    candidates = command
      ? [...flagsOf(command).keys()].map((name) => `--${name}`).concat('--help')
      : ['--help', '--version'];
  } else if (level && (positionals === 0 || !command)) {
    candidates = Object.keys(level);
  } else if (command && positionals === 0 && (command as { meta?: { name?: string } }).meta?.name === 'api') {
    candidates = ['get', 'post', 'patch', 'delete'];
  } else if (
    command &&
    positionals === 0 &&
    (command as { meta?: { name?: string } }).meta?.name === 'completion'
  ) {
    candidates = [...SHELLS];
  } else {
    candidates = [];
  }
  return candidates.filter((candidate) => candidate.startsWith(current)).sort();
}

function profileNames(): string[] {
  try {
    return readProfiles().map((entry) => entry.name);
  } catch {
    return [];
  }
}
