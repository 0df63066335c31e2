import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { emitResources, RESOURCE_HEADER, type SdkNotes } from './emit-resources.js';
import { formatSource } from './format.js';
import { buildModel } from './model.js';
import { collectResourceMethods, renderResourcesDoc } from './resources-doc.js';
import { loadSpec } from './spec.js';

/**
 * src/resources/ is wholly generated: every .ts file there is the generator's (its first line is
 * RESOURCE_HEADER). A .ts file without the header is refused by `npm run generate` and named by
 * `npm run generate:check`: what is hand-written belongs elsewhere (src/client.ts, src/core/). The same pass
 * renders docs/resources.md from the classes it emits.
 */
export interface ResourceOutput {
  /** src/resources/ file name -> formatted source. */
  readonly files: Map<string, string>;
  /** The markdown of docs/resources.md. */
  readonly doc: string;
}

/** spec/sdk-notes.yaml beside the spec (none for a spec without one). */
async function readNotes(specPath: string): Promise<SdkNotes> {
  const text = await readFile(path.join(path.dirname(specPath), 'sdk-notes.yaml'), 'utf8').catch(() => '');
  return (parse(text) as SdkNotes | null) ?? {};
}

export async function generateResources(
  specPath: string,
  root: string,
  generated: ReadonlyMap<string, string>,
): Promise<ResourceOutput> {
  const doc = await loadSpec(specPath);
  const model = buildModel(doc);
  // Every name src/generated exports (whichever file it lives in): no record may take a class's suffix.
  const typeNames = new Set<string>();
  for (const source of generated.values()) {
    for (const match of source.matchAll(/^export (?:interface|type|const) (\w+)/gm)) typeNames.add(match[1]!);
  }
  const sources = emitResources(doc, model.operations, typeNames, await readNotes(specPath));
  const files = new Map<string, string>();
  for (const [name, source] of sources) files.set(name, await formatSource(source, name, root));
  const sorted = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const methods = collectResourceMethods(
    new Map([...sorted].map(([name, source]) => [`src/resources/${name}`, source])),
  );
  return { files: sorted, doc: renderResourcesDoc(methods, model.operations) };
}

/** The .ts files of `dir`, split into the generator's and the rest. */
async function tsFiles(dir: string): Promise<{ generated: string[]; handWritten: string[] }> {
  const generated: string[] = [];
  const handWritten: string[] = [];
  for (const name of (await readdir(dir).catch(() => [] as string[])).sort()) {
    if (!name.endsWith('.ts')) continue;
    const text = await readFile(path.join(dir, name), 'utf8');
    (text.startsWith(RESOURCE_HEADER) ? generated : handWritten).push(name);
  }
  return { generated, handWritten };
}

/**
 * Writes the generated resource files and removes generated ones the spec no longer produces. Refuses, before
 * writing anything, when the folder holds a hand-written .ts file.
 */
export async function writeResourceFiles(dir: string, files: ReadonlyMap<string, string>): Promise<void> {
  const { generated, handWritten } = await tsFiles(dir);
  if (handWritten.length > 0) {
    throw new Error(
      `src/resources/ is generated; move the hand-written ${handWritten.join(', ')} out of it (src/client.ts or src/core/)`,
    );
  }
  for (const name of generated) {
    if (!files.has(name)) await rm(path.join(dir, name));
  }
  for (const [name, content] of files) await writeFile(path.join(dir, name), content);
}

/** Changed, missing, stale and hand-written files of `dir`, each as `resources/<name> (...)`. */
export async function diffResourceFiles(dir: string, files: ReadonlyMap<string, string>): Promise<string[]> {
  const differences: string[] = [];
  for (const [name, content] of files) {
    const present = await readFile(path.join(dir, name), 'utf8').catch(() => null);
    if (present === null) differences.push(`resources/${name} (missing)`);
    else if (present !== content) differences.push(`resources/${name} (differs)`);
  }
  const { generated, handWritten } = await tsFiles(dir);
  for (const name of generated) {
    if (!files.has(name)) differences.push(`resources/${name} (not generated)`);
  }
  for (const name of handWritten) differences.push(`resources/${name} (hand-written in a generated folder)`);
  return differences.sort();
}
