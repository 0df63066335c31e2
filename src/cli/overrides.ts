import { readFileSync } from 'node:fs';
import type { EventType } from '../generated/event-types.js';
import { EVENT_PAYLOAD_SCHEMAS } from '../generated/events.js';
import {
  coerce,
  fieldAt,
  type Schema,
  schemaProblem,
  setAt,
  splitPath,
} from '../testing/factories/schema-walk.js';
import { RECIPES } from '../testing/triggers.js';
import { isKnownEventType } from '../webhooks/events.js';
import { usageError } from './exit-codes.js';

/** Payload fields to set on the event a trigger makes: dotted path -> value. */
export type OverrideMap = Record<string, unknown>;

/** One step of a fixture: an event to make, with its overrides. */
export interface FixtureStep {
  readonly trigger: string;
  readonly override: OverrideMap;
}

/** The most steps a fixture may hold: a scenario, not a load test. */
export const MAX_FIXTURE_STEPS = 50;

function schemaOf(type: EventType): Schema {
  return EVENT_PAYLOAD_SCHEMAS[type] as unknown as Schema;
}

/** `--override a.b=value` flags as a map, each checked against the event type's schema; a usage error lists every problem. */
export function overridesFromFlags(type: string, flags: readonly string[]): OverrideMap {
  const result: OverrideMap = {};
  const problems: string[] = [];
  if (flags.length > 0 && !isKnownEventType(type)) {
    throw usageError(`--override: ${JSON.stringify(type)} is not a known event type`);
  }
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    const path = equals > 0 ? splitPath(flag.slice(0, equals)) : [];
    if (path.length === 0) {
      problems.push(
        `--override takes field=value with a dotted path, e.g. customer.email=a@b.example; got ${JSON.stringify(flag)}`,
      );
      continue;
    }
    const found = fieldAt(schemaOf(type as EventType), path);
    if (!('schema' in found)) {
      problems.push(`--override ${path.join('.')}: ${found.problem}`);
      continue;
    }
    const value = coerce(found.schema, flag.slice(equals + 1));
    if ('problem' in value) problems.push(`--override ${path.join('.')}: ${value.problem}`);
    else result[path.join('.')] = value.value;
  }
  if (problems.length > 0)
    throw usageError(`${problems.join('\n')}\n(fields of the ${type} payload, as in the event schemas)`);
  return result;
}

/** The problems of an override map for a type (JSON values, as a fixture or the control route has them). */
export function overrideProblems(type: string, overrides: unknown): string[] {
  if (overrides === undefined) return [];
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    return ['override must be an object of "dotted.path": value'];
  }
  if (!isKnownEventType(type)) return [`${JSON.stringify(type)} is not a known event type`];
  const problems: string[] = [];
  for (const [dotted, value] of Object.entries(overrides)) {
    const path = splitPath(dotted);
    const found = path.length > 0 ? fieldAt(schemaOf(type), path) : { problem: 'is not a dotted path' };
    if (!('schema' in found)) {
      problems.push(`${dotted}: ${found.problem}`);
      continue;
    }
    const problem = schemaProblem(found.schema, value);
    if (problem !== null) problems.push(`${dotted}: ${problem.replace(/^\(the payload\): /, '')}`);
  }
  return problems;
}

/** Lays checked overrides over a payload (in place). */
export function applyOverrides(
  type: EventType,
  object: Record<string, unknown>,
  overrides: OverrideMap,
): void {
  for (const [dotted, value] of Object.entries(overrides)) {
    setAt(object, schemaOf(type), splitPath(dotted), structuredClone(value));
  }
}

/**
 * Reads and checks a whole fixture before anything runs: `{"steps": [{"trigger": TYPE, "override": {...}}]}`,
 * 1 to 50 steps, each a type the sandbox makes with overrides its schema takes. A usage error lists every
 * problem with its step number.
 */
export function readFixture(path: string): FixtureStep[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw usageError(`--fixture ${path} is not a readable JSON file (${reason})`);
  }
  const steps = (value as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps) || steps.length === 0 || steps.length > MAX_FIXTURE_STEPS) {
    throw usageError(
      `--fixture ${path} must be {"steps": [{"trigger": "sale.completed", "override": {...}}, ...]} with 1 to ${MAX_FIXTURE_STEPS} steps`,
    );
  }
  const problems: string[] = [];
  const result: FixtureStep[] = [];
  for (const [index, step] of steps.entries()) {
    const at = `step ${index + 1}`;
    if (typeof step !== 'object' || step === null || Array.isArray(step)) {
      problems.push(`${at}: must be an object with "trigger"`);
      continue;
    }
    const { trigger, override, ...rest } = step as Record<string, unknown>;
    for (const key of Object.keys(rest))
      problems.push(`${at}: unknown field ${JSON.stringify(key)} (a step has trigger and override)`);
    if (typeof trigger !== 'string' || !(trigger in RECIPES)) {
      problems.push(
        `${at}: ${JSON.stringify(trigger)} is not an event type the sandbox makes (trigger --list)`,
      );
      continue;
    }
    const found = overrideProblems(trigger, override);
    problems.push(...found.map((problem) => `${at} (${trigger}): ${problem}`));
    result.push({ trigger, override: (override as OverrideMap | undefined) ?? {} });
  }
  if (problems.length > 0) throw usageError(`--fixture ${path} was not run:\n${problems.join('\n')}`);
  return result;
}
