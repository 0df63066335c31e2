// Every public record type of src/generated/schemas.ts and params type of params.ts, and every field of
// them (nested ones too), carries a doc comment, so an editor shows what a field means where it is used.
// Read from the generated source with the TypeScript parser, as an editor reads it.
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

function parse(name: string): ts.SourceFile {
  const text = readFileSync(new URL(`../../src/generated/${name}`, import.meta.url), 'utf8');
  return ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true);
}

function hasDoc(node: ts.Node): boolean {
  const source = node.getSourceFile();
  const text = source.getFullText();
  return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).some((range) =>
    text.slice(range.pos, range.end).startsWith('/**'),
  );
}

interface Declared {
  readonly name: string;
  readonly node: ts.InterfaceDeclaration | ts.TypeAliasDeclaration;
}

const declarations = (source: ts.SourceFile): Declared[] =>
  source.statements
    .filter(
      (s): s is ts.InterfaceDeclaration | ts.TypeAliasDeclaration =>
        ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s),
    )
    .map((node) => ({ name: node.name.text, node }));
// schemas.ts and params.ts re-export the parts (`schemas.<group>.ts` ...) that declare the types.
const parts = (kind: string) =>
  readdirSync(new URL('../../src/generated/', import.meta.url)).filter((name) =>
    new RegExp(`^${kind}(\\..+)?\\.ts$`).test(name),
  );
const records = parts('schemas').flatMap((name) => declarations(parse(name)));
const params = parts('params').flatMap((name) => declarations(parse(name)));

/** `Record.field.nested` for every property signature under `node` that has no doc comment. */
function undocumentedFields(node: ts.Node, path: string): string[] {
  const out: string[] = [];
  const visit = (child: ts.Node, at: string) => {
    if (ts.isPropertySignature(child)) {
      const name = child.name.getText();
      if (!hasDoc(child)) out.push(`${at}.${name}`);
      ts.forEachChild(child, (inner) => visit(inner, `${at}.${name}`));
      return;
    }
    if (ts.isIndexSignatureDeclaration(child) && !hasDoc(child)) out.push(`${at}[key]`);
    ts.forEachChild(child, (inner) => visit(inner, at));
  };
  ts.forEachChild(node, (child) => visit(child, path));
  return out;
}

describe('doc comments of the generated record and params types', () => {
  it('finds the records and the params types', () => {
    expect(records.map((d) => d.name)).toEqual(
      expect.arrayContaining(['RangeReservation', 'Membership', 'Event']),
    );
    expect(params.map((d) => d.name)).toContain('RangeReservationsCreateParams');
  });

  it.each([...records, ...params])(
    '$name has a doc comment, and so has each of its fields',
    ({ name, node }) => {
      expect(hasDoc(node), `${name} itself`).toBe(true);
      expect(undocumentedFields(node, name)).toEqual([]);
    },
  );
});
