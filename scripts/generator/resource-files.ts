import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { emitResources, RESOURCE_HEADER } from './emit-resources.js';
import { formatSource } from './format.js';
import { buildModel } from './model.js';
import { loadSpec } from './spec.js';

/**
 * src/resources/ holds generated and hand-written files side by side: a file is the generator's when its first
 * line is RESOURCE_HEADER. Generated files are rewritten (and a stale generated file removed); any other file
 * (webhooks.ts, deprecated-names.ts, index.ts, a hand-written subclass) is left alone.
 */
export async function generateResources(
  specPath: string,
  root: string,
  generated: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const doc = await loadSpec(specPath);
  const model = buildModel(doc);
  // Every name src/generated exports (whichever file it lives in): a class must not take a record's name.
  const typeNames = new Set<string>();
  for (const source of generated.values()) {
    for (const match of source.matchAll(/^export (?:interface|type|const) (\w+)/gm)) typeNames.add(match[1]!);
  }
  const sources = emitResources(doc, model.operations, typeNames);
  const files = new Map<string, string>();
  for (const [name, source] of sources) files.set(name, await formatSource(source, name, root));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function generatedNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const name of (await readdir(dir).catch(() => [] as string[])).sort()) {
    if (!name.endsWith('.ts')) continue;
    const text = await readFile(path.join(dir, name), 'utf8');
    if (text.startsWith(RESOURCE_HEADER)) names.push(name);
  }
  return names;
}

/** Writes the generated resource files and removes generated ones the spec no longer produces. */
export async function writeResourceFiles(dir: string, files: ReadonlyMap<string, string>): Promise<void> {
  for (const name of await generatedNames(dir)) {
    if (!files.has(name)) await rm(path.join(dir, name));
  }
  for (const [name, content] of files) await writeFile(path.join(dir, name), content);
}

/** Changed, missing and stale generated files of `dir`, each as `resources/<name> (...)`. */
export async function diffResourceFiles(dir: string, files: ReadonlyMap<string, string>): Promise<string[]> {
  const differences: string[] = [];
  for (const [name, content] of files) {
    const present = await readFile(path.join(dir, name), 'utf8').catch(() => null);
    if (present === null) differences.push(`resources/${name} (missing)`);
    else if (present !== content) differences.push(`resources/${name} (differs)`);
  }
  for (const name of await generatedNames(dir)) {
    if (!files.has(name)) differences.push(`resources/${name} (not generated)`);
  }
  return differences;
}
