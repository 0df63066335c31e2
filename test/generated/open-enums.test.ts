// Issue 20: the spec's value lists that may grow (reference section 9: "new ... enum values") are open in the
// spec itself, in a form any JSON Schema tool reads (a validating proxy, another generator): a new value is
// accepted, the known ones are listed. The generator still reads them as their lists (readOpenEnums), and
// request enums the API refuses other values for stay closed.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readOpenEnums } from '../../scripts/generator/spec.js';
import { SpecValidator } from '../e2e/support/spec.js';
import { REFERENCE_RESERVATION_STATUSES } from '../support/reference.js';

type Node = Record<string, unknown>;
const spec = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8')) as Node;

/** Every schema node under `root` with its JSON pointer. */
function* nodes(root: unknown, pointer = ''): Generator<[string, Node]> {
  if (typeof root !== 'object' || root === null) return;
  if (!Array.isArray(root)) yield [pointer, root as Node];
  for (const [key, value] of Object.entries(root)) yield* nodes(value, `${pointer}/${key}`);
}

const openEnums = [...nodes(spec)].filter(
  ([, node]) =>
    Array.isArray(node.anyOf) &&
    (node.anyOf as Node[]).some((member) => Array.isArray(member.enum)) &&
    (node.anyOf as Node[]).some((member) => member.type === 'string' && member.enum === undefined),
);
const closedEnums = [...nodes(spec)].filter(([pointer, node]) => {
  if (!Array.isArray(node.enum)) return false;
  // A member of an open enum's anyOf is the list of known values, not a closed enum.
  return !/\/anyOf\/\d+$/.test(pointer);
});

describe('open enums in the spec', () => {
  it('every value list of a response schema is open: 19 of them, the error codes among them', () => {
    expect(openEnums.map(([pointer]) => pointer)).toContain('/components/schemas/ErrorCode');
    expect(openEnums).toHaveLength(19);
    // What stays closed is a request's: the query filters and body fields the API validates.
    for (const [pointer] of closedEnums) expect(pointer).toMatch(/^\/paths\//);
    expect(closedEnums).toHaveLength(8);
  });

  it('ajv accepts a new value and every known one, and refuses a non-string', () => {
    // Strict mode: ajv refuses any keyword it does not know, so the form is plain JSON Schema 2020-12.
    const ajv = new Ajv2020({ strict: true });
    for (const [pointer, node] of openEnums) {
      const validate = ajv.compile({ anyOf: node.anyOf });
      const known = ((node.anyOf as Node[]).find((member) => Array.isArray(member.enum))?.enum ??
        []) as string[];
      expect(known.length, pointer).toBeGreaterThan(1);
      for (const value of known) expect(validate(value), `${pointer}: ${value}`).toBe(true);
      expect(validate('a_value_added_later'), pointer).toBe(true);
      expect(validate(42), pointer).toBe(false);
    }
  });

  it('the conformance oracle accepts a reservation and an error with values added later', () => {
    const oracle = new SpecValidator();
    const reservationStatus = oracle.validateAt('/components/schemas/RangeReservationStatus', 'on_hold_new');
    const errorCode = oracle.validateAt('/components/schemas/ErrorCode', 'SOME_NEW_CODE');
    expect([...reservationStatus, ...errorCode]).toEqual([]);
  });

  it('request enums stay closed: the rentals filter refuses a value the API answers 400 for', () => {
    const [, rentals] =
      closedEnums.find(
        ([pointer]) => pointer.includes('/v1~1range~1rentals') || pointer.includes('/v1/range/rentals'),
      ) ?? [];
    expect(rentals?.enum).toEqual(['available', 'checked_out', 'maintenance', 'retired']);
    const validate = new Ajv2020({ strict: false }).compile(rentals!);
    expect(validate('available')).toBe(true);
    expect(validate('lost')).toBe(false);
  });

  it('the generator reads each open enum as its list of known values', () => {
    const copy = structuredClone(spec);
    readOpenEnums(copy);
    const errorCode = (copy.components as Node).schemas as Record<string, Node>;
    expect(errorCode.ErrorCode).toMatchObject({ type: 'string' });
    expect(errorCode.ErrorCode!.anyOf).toBeUndefined();
    expect((errorCode.ErrorCode!.enum as string[]).length).toBe(54);
    expect(errorCode.RangeReservationStatus!.enum).toEqual([...REFERENCE_RESERVATION_STATUSES]);
  });
});
