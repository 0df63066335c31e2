// Type tests: every params type is exactly what its zod schema accepts (`z.input`), so the documented type
// an editor shows cannot drift from what is checked before sending. The names come from the generated
// `ParamsTypes` (params-index.ts), so a new endpoint needs no line here. Checked by `npm run typecheck`;
// the runtime half proves that index names every params type params.ts declares.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { input } from 'zod/mini';
import * as P from '../../src/generated/params.js';
import type { ParamsTypes } from '../../src/generated/params-index.js';

type Schemas = typeof P;
/** Per params type, what its `<Name>Schema` accepts. */
type Accepted = { [K in keyof ParamsTypes]: input<Schemas[`${K & string}Schema`]> };

/** Every name the type test covers, read from the generated index's source. */
function indexed(): string[] {
  const source = readFileSync(new URL('../../src/generated/params-index.ts', import.meta.url), 'utf8');
  return [...source.matchAll(/^ {2}(\w+): P\.(\w+);$/gm)].map((m) => {
    expect(m[1]).toBe(m[2]);
    return m[1]!;
  });
}

describe('params types', () => {
  it('are what their schemas accept', () => {
    expectTypeOf<Accepted>().toEqualTypeOf<ParamsTypes>();
  });

  it('cover every params type params.ts declares, each with its schema', () => {
    // params.ts re-exports the parts (params.<group>.ts ...) that declare them.
    const dir = new URL('../../src/generated/', import.meta.url);
    const source = readdirSync(dir)
      .filter((name) => name === 'params.ts' || /^params\..+\.ts$/.test(name))
      .map((name) => readFileSync(new URL(name, dir), 'utf8'))
      .join('\n');
    const declared = [...source.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    const names = indexed();
    expect(names.length).toBeGreaterThan(40);
    expect([...names].sort()).toEqual(declared.sort());
    const schemas = Object.keys(P).filter((name) => name.endsWith('ParamsSchema'));
    expect(schemas.sort()).toEqual(names.map((name) => `${name}Schema`).sort());
  });
});
