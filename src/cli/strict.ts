import { usageError } from './exit-codes.js';

/** A flag or positional of a command, as citty declares it (only what the check reads). */
export interface ArgSpec {
  readonly type?: string;
  readonly alias?: string | readonly string[];
  readonly options?: readonly string[];
}

/** A command as citty defines it: its arguments, and its own subcommands (`logs tail`). */
export interface CommandSpec {
  readonly args?: unknown;
  readonly subCommands?: unknown;
}

/** The commands by name. */
export type CommandSpecs = Readonly<Record<string, CommandSpec>>;

/** Flags every command takes (citty answers them). */
const GLOBAL_FLAGS = ['help', 'version'];

/**
 * Checks a command line before citty parses it, which would ignore a flag it does not know: an unknown
 * command, an unknown flag (with the nearest known name as a suggestion), a value missing after a flag
 * that takes one, an `enum` value not in its list and a positional too many are usage errors (exit 2).
 * Returns the command's name.
 */
export function checkArgs(commands: CommandSpecs, argv: readonly string[], parent = ''): string {
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith('-')) {
    throw usageError(`name a command first: ${Object.keys(commands).join(', ')}`);
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    const hint = nearest(name, Object.keys(commands));
    throw usageError(
      `unknown command ${JSON.stringify(`${parent}${name}`)}${hint ? `; did you mean ${parent}${hint}?` : ''} (commands: ${Object.keys(commands).join(', ')})`,
    );
  }
  const subCommands = command.subCommands as CommandSpecs | undefined;
  if (subCommands && rest[0] !== undefined && !rest[0].startsWith('-')) {
    return `${name} ${checkArgs(subCommands, rest, `${parent}${name} `)}`;
  }
  const args = (command.args ?? {}) as Readonly<Record<string, ArgSpec>>;
  const flags = new Map<string, ArgSpec>();
  let positionals = 0;
  for (const [flag, spec] of Object.entries(args)) {
    if (spec.type === 'positional') {
      positionals += 1;
      continue;
    }
    flags.set(flag, spec);
    for (const alias of [spec.alias ?? []].flat()) flags.set(alias, spec);
  }
  const known = [...flags.keys()].filter((flag) => flag.length > 1);
  let given = 0;
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index]!;
    if (arg === '--') {
      given += rest.length - index - 1;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      given += 1;
      if (given > positionals) {
        throw usageError(
          positionals === 0
            ? `${name} takes no argument, got ${JSON.stringify(arg)}`
            : `${name} takes ${positionals} argument${positionals === 1 ? '' : 's'}, got another: ${JSON.stringify(arg)}`,
        );
      }
      continue;
    }
    const [rawFlag, inline] = splitFlag(arg);
    if (GLOBAL_FLAGS.includes(rawFlag) || rawFlag === 'h' || rawFlag === 'v') continue;
    let spec = flags.get(rawFlag);
    let negated = false;
    if (!spec && rawFlag.startsWith('no-') && flags.get(rawFlag.slice(3))?.type === 'boolean') {
      spec = flags.get(rawFlag.slice(3));
      negated = true;
    }
    const shown = arg.startsWith('--') ? `--${rawFlag}` : `-${rawFlag}`;
    if (!spec) {
      const hint = nearest(rawFlag, known);
      throw usageError(
        `unknown flag ${shown} for ${parent}${name}${hint ? `; did you mean --${hint}?` : ''} (npx shop-mgmt ${parent}${name} --help lists them)`,
      );
    }
    if (spec.type === 'boolean' || negated) {
      if (inline !== undefined && !['true', 'false'].includes(inline)) {
        throw usageError(`${shown} takes no value, got ${JSON.stringify(inline)}`);
      }
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = rest[index + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        throw usageError(`${shown} needs a value`);
      }
      value = next;
      index += 1;
    }
    if (spec.type === 'enum' && spec.options && !spec.options.includes(value)) {
      const hint = nearest(value, spec.options);
      throw usageError(
        `${shown} must be one of ${spec.options.join(', ')}, got ${JSON.stringify(value)}${hint ? `; did you mean ${hint}?` : ''}`,
      );
    }
  }
  return name;
}

/** `--name=value` -> ['name', 'value']; `--name` -> ['name', undefined]. */
function splitFlag(arg: string): [string, string | undefined] {
  const body = arg.replace(/^--?/, '');
  const equals = body.indexOf('=');
  return equals < 0 ? [body, undefined] : [body.slice(0, equals), body.slice(equals + 1)];
}

/** The known name closest to `name` (a prefix of it, or at most 2 edits away), or null. */
export function nearest(name: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = candidate.startsWith(name) && name.length >= 2 ? 0 : editDistance(name, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name ?? null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
