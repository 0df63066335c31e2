// The resource commands, generated at start-up from the operation table the client is built from:
// `range reservations list --status booked`, `range reservations cancel 5001 --reason ...`. Each operation's
// flags come from the generated request rules (closed values as citty enums, which the strict check holds
// to, with a suggestion); required fields are named before anything is sent.
import type { ArgDef, ArgsDef, CommandDef } from 'citty';
import type { Operation } from '../../core/api/operation.js';
import { operations } from '../../generated/operations.js';
import {
  type FieldRule,
  type FieldRules,
  REQUEST_BODIES,
  REQUEST_QUERIES,
} from '../../generated/request-rules.js';
import {
  API_FLAGS,
  calling,
  clientFor,
  confirmWrite,
  idempotencyKey,
  noteIdempotencyKey,
  printResult,
  readData,
} from '../api-call.js';
import { EXIT, usageError } from '../exit-codes.js';
import { run } from '../run.js';

/** `rentalCheckouts` -> `rental-checkouts`: the accessor as a command or flag name. */
export function kebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

/** The flags the command itself takes (a field of the same name would be shadowed: none is). */
const OWN_FLAGS = ['data', 'all', 'yes', 'idempotency-key', 'profile', 'json'];

type Operations = typeof operations;
type AnyOperation = Operations[keyof Operations];

/** One field's flag, as citty declares it (an `enum` is checked by the strict check of the line). */
function fieldFlag(field: string, rule: FieldRule): ArgDef {
  const shape =
    rule.type === 'array'
      ? `a comma-separated list${rule.items?.type ? ` of ${rule.items.type}s` : ''}`
      : rule.type === 'object' || rule.type === undefined
        ? 'JSON'
        : (rule.format ?? rule.type);
  const description = `${field}: ${shape}${rule.required ? ' (required)' : ''}`;
  if (rule.type === 'boolean') return { type: 'boolean', description };
  if (rule.enum) return { type: 'enum', options: [...rule.enum], description };
  return { type: 'string', description, valueHint: rule.type ?? 'json' };
}

/** A flag's text as the field's value, or a usage error naming the flag. */
function fieldValue(flag: string, rule: FieldRule, raw: unknown): unknown {
  if (rule.type === 'boolean') return raw === true || raw === 'true';
  const text = String(raw);
  const number = (value: string, type: 'integer' | 'number'): number => {
    const parsed = Number(value);
    const ok =
      value.trim() !== '' && (type === 'integer' ? Number.isSafeInteger(parsed) : Number.isFinite(parsed));
    if (!ok)
      throw usageError(
        `--${flag} takes ${type === 'integer' ? 'a whole number' : 'a number'}, got ${JSON.stringify(value)}`,
      );
    if (rule.minimum !== undefined && parsed < rule.minimum)
      throw usageError(`--${flag} must be at least ${rule.minimum}`);
    if (rule.maximum !== undefined && parsed > rule.maximum)
      throw usageError(`--${flag} must be at most ${rule.maximum}`);
    return parsed;
  };
  switch (rule.type) {
    case 'integer':
    case 'number':
      return number(text, rule.type);
    case 'string':
      return text;
    case 'array': {
      const items = text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      const type = rule.items?.type;
      return type === 'integer' || type === 'number' ? items.map((item) => number(item, type)) : items;
    }
    default:
      try {
        return JSON.parse(text);
      } catch {
        throw usageError(`--${flag} takes JSON, got ${JSON.stringify(text.slice(0, 40))}`);
      }
  }
}

/** The fields given as flags, by field name. */
function readFields(rules: FieldRules, flags: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(rules)) {
    const raw = flags[kebab(field)];
    if (raw === undefined || raw === '') continue;
    values[field] = fieldValue(kebab(field), rule, raw);
  }
  return values;
}

function missing(rules: FieldRules, values: Record<string, unknown>): string[] {
  return Object.entries(rules)
    .filter(([field, rule]) => rule.required && values[field] === undefined)
    .map(([field]) => `--${kebab(field)}`);
}

/** One operation as a command. */
function operationCommand(operation: AnyOperation, name: string): CommandDef {
  const id = operation.id;
  const queryRules: FieldRules = (REQUEST_QUERIES as Record<string, FieldRules>)[id] ?? {};
  const bodyRules: FieldRules | null =
    (REQUEST_BODIES as Record<string, FieldRules>)[id] ??
    (operation.method === 'GET' || operation.method === 'DELETE' ? null : {});
  const args: ArgsDef = {};
  for (const param of operation.pathParams) {
    args[param.name] = {
      type: 'positional',
      required: true,
      description: `The ${param.name} (${param.type})`,
    };
  }
  for (const [field, rule] of Object.entries({ ...queryRules, ...(bodyRules ?? {}) })) {
    if (OWN_FLAGS.includes(kebab(field))) continue;
    args[kebab(field)] = fieldFlag(field, rule);
  }
  const write = operation.method !== 'GET';
  if (bodyRules) {
    args.data = {
      type: 'string',
      description: 'The JSON body (@file.json, - for stdin, or JSON); flags override its fields',
    };
  }
  if (operation.pagination === 'cursor') args.all = { type: 'boolean', description: 'Walk every page' };
  if (operation.method === 'POST') {
    args['idempotency-key'] = {
      type: 'string',
      description: 'The Idempotency-Key (default: a fresh one, printed on stderr)',
    };
  }
  if (write) args.yes = { type: 'boolean', description: 'Skip the confirmation on a live shop' };
  Object.assign(args, API_FLAGS);
  const permission = operation.permission ? `, needs ${operation.permission}` : '';
  return {
    meta: {
      name,
      description: `${operation.summary} (${operation.method} ${operation.path}${permission}; shop.${id}())`,
    },
    args,
    run: ({ args: flags }) =>
      run(flags.json as boolean | undefined, async (output) => {
        const path: Record<string, number | string> = {};
        for (const param of operation.pathParams) {
          const raw = String(flags[param.name]);
          if (param.type === 'integer') {
            if (!/^\d+$/.test(raw))
              throw usageError(`${param.name} must be a whole number, got ${JSON.stringify(raw)}`);
            path[param.name] = Number(raw);
          } else path[param.name] = raw;
        }
        const query = readFields(queryRules, flags);
        const body = bodyRules
          ? { ...readData(flags.data as string | undefined), ...readFields(bodyRules, flags) }
          : undefined;
        const absent = [
          ...missing(queryRules, query),
          ...(bodyRules && body ? missing(bodyRules, body) : []),
        ];
        if (absent.length > 0) {
          throw usageError(
            `${id} needs ${absent.join(', ')} (or the field${absent.length === 1 ? '' : 's'} in --data)`,
          );
        }
        const { shop, credentials } = await clientFor(flags.profile as string | undefined);
        const params = {
          path: operation.pathParams.length > 0 ? path : undefined,
          query: Object.keys(query).length > 0 ? query : undefined,
          body,
        };
        if (operation.pagination === 'cursor') {
          const list = operation as Operation & { readonly pagination: 'cursor' };
          await calling(async () => {
            if (flags.all) {
              let count = 0;
              for await (const page of shop.list(list, params).pages()) {
                printResult(output, page.data);
                count += page.data.length;
              }
              output.note(`${count} record${count === 1 ? '' : 's'}`);
              return;
            }
            const page = await shop.list(list, params);
            printResult(output, page.data);
            if (page.hasNextPage())
              output.note(`more records: --all walks them, or --cursor ${page.nextCursor}`);
          });
          return EXIT.ok;
        }
        if (write)
          await confirmWrite(
            output,
            credentials,
            `${id} (${operation.method} ${operation.path})`,
            flags.yes as boolean | undefined,
          );
        const options: { idempotencyKey?: string } = {};
        if (operation.method === 'POST') {
          options.idempotencyKey = idempotencyKey(flags['idempotency-key'] as string | undefined);
          noteIdempotencyKey(output, options.idempotencyKey, '');
        }
        const single = operation as Operation & { readonly pagination: null };
        const answer = await calling(() => shop.request(single, params, options).withResponse());
        if (answer.idempotentReplayed) output.note('replayed: the shop answered from its idempotency store');
        printResult(output, answer.data);
        return EXIT.ok;
      }),
  };
}

interface Group {
  meta: { name: string; description: string };
  subCommands: Record<string, CommandDef | Group>;
}

/** Every operation of the table as a command, grouped by the client's accessors (kebab-cased). */
export function resourceCommands(): Record<string, CommandDef> {
  const root: Record<string, CommandDef | Group> = {};
  for (const operation of Object.values(operations) as AnyOperation[]) {
    const segments = operation.id.split('.').map(kebab);
    let level = root;
    for (const [index, segment] of segments.slice(0, -1).entries()) {
      let group = level[segment] as Group | undefined;
      if (!group) {
        group = {
          meta: {
            name: segment,
            description: `shop.${operation.id
              .split('.')
              .slice(0, index + 1)
              .join('.')}: its operations`,
          },
          subCommands: {},
        };
        level[segment] = group;
      }
      level = group.subCommands;
    }
    const leaf = segments.at(-1)!;
    level[leaf] = operationCommand(operation, leaf);
  }
  return root as Record<string, CommandDef>;
}

/** The number of operations the resource commands cover (every entry of the table). */
export const OPERATION_COUNT = Object.keys(operations).length;
