/**
 * Comment density of the hand-written source: per folder of src/, comment words per 100 code lines, and the
 * word count of each README.md. Generated files (src/generated/, any file whose first line says GENERATED) are
 * left out. `--depth 2` splits by subfolder, `--files` lists the files with most comment words, `--json`
 * prints JSON, `--max N` exits 1 when a folder is over N.
 *
 *   npx tsx scripts/comment-density.ts [--depth 2] [--files] [--json] [--max 150]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface FileDensity {
  file: string;
  codeLines: number;
  commentWords: number;
  /** The part of `commentWords` in doc comments (`/** ... *\/`, what typedoc reads). */
  docWords: number;
}

export interface FolderDensity {
  folder: string;
  files: number;
  codeLines: number;
  commentWords: number;
  docWords: number;
  /** Comment words per 100 code lines. */
  density: number;
}

/** Comment ranges of a TypeScript source, found by the compiler's scanner (so `//` in a string is not one). */
function commentRanges(text: string): ts.CommentRange[] {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const seen = new Map<number, ts.CommentRange>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, range);
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(source);
  add(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return [...seen.values()];
}

/** Words in a comment: runs of non-space characters holding a letter or digit. */
export function wordsIn(comment: string): number {
  return comment
    .replace(/^\/\/+|^\/\*+|\*+\/$/g, '')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** Code lines (a line with anything outside a comment) and comment words of one TypeScript source. */
export function measure(text: string): { codeLines: number; commentWords: number; docWords: number } {
  let masked = text;
  let commentWords = 0;
  let docWords = 0;
  for (const range of commentRanges(text)) {
    const comment = text.slice(range.pos, range.end);
    commentWords += wordsIn(comment);
    if (comment.startsWith('/**')) docWords += wordsIn(comment);
    masked = masked.slice(0, range.pos) + comment.replace(/[^\n]/g, ' ') + masked.slice(range.end);
  }
  const codeLines = masked.split('\n').filter((line) => line.trim() !== '').length;
  return { codeLines, commentWords, docWords };
}

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full, ext);
    return entry.name.endsWith(ext) ? [full] : [];
  });
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const SKIPPED = new Set(['generated']);

const isGenerated = (text: string) => /^\/\/ GENERATED\b/.test(text);

/** One row per folder of src/ at `depth` (and one, `<folder>/*.ts`, for the files directly in a folder). */
export function densityBySrcFolder(depth = 1, src = SRC): { folders: FolderDensity[]; files: FileDensity[] } {
  const files: FileDensity[] = filesUnder(src, '.ts')
    .filter((file) => !SKIPPED.has(path.relative(src, file).split(path.sep)[0]!))
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
    .filter(({ text }) => !isGenerated(text))
    .map(({ file, text }) => ({ file: path.relative(ROOT, file), ...measure(text) }));
  const groups = new Map<string, FileDensity[]>();
  for (const file of files) {
    const parts = file.file.split('/');
    const dirs = parts.slice(0, -1).slice(0, depth + 1);
    const folder = dirs.length === depth + 1 ? `${dirs.join('/')}/` : `${dirs.join('/')}/*.ts`;
    groups.set(folder, [...(groups.get(folder) ?? []), file]);
  }
  const folders = [...groups].map(([folder, members]) => {
    const codeLines = members.reduce((sum, file) => sum + file.codeLines, 0);
    const commentWords = members.reduce((sum, file) => sum + file.commentWords, 0);
    const docWords = members.reduce((sum, file) => sum + file.docWords, 0);
    return {
      folder,
      files: members.length,
      codeLines,
      commentWords,
      docWords,
      density: codeLines === 0 ? 0 : Math.round((commentWords / codeLines) * 100),
    };
  });
  return { folders: folders.sort((a, b) => b.codeLines - a.codeLines), files };
}

/** Word count of every README.md under src/ (generated one included: it is hand-written). */
export function readmeWords(src = SRC): { file: string; words: number }[] {
  return filesUnder(src, 'README.md').map((file) => ({
    file: path.relative(ROOT, file),
    words: readFileSync(file, 'utf8')
      .split(/\s+/)
      .filter((word) => /[\p{L}\p{N}]/u.test(word)).length,
  }));
}

function main(argv: string[]): number {
  const depthIndex = argv.indexOf('--depth');
  const { folders, files } = densityBySrcFolder(depthIndex >= 0 ? Number(argv[depthIndex + 1]) : 1);
  const readmes = readmeWords();
  const maxIndex = argv.indexOf('--max');
  const max = maxIndex >= 0 ? Number(argv[maxIndex + 1]) : undefined;
  if (argv.includes('--json')) {
    console.log(JSON.stringify({ folders, readmes }, null, 2));
  } else {
    console.log('| folder | files | code lines | comment words | of which TSDoc | words / 100 lines |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const row of folders) {
      console.log(
        `| ${row.folder} | ${row.files} | ${row.codeLines} | ${row.commentWords} | ${row.docWords} | ${row.density} |`,
      );
    }
    console.log('\n| README | words |\n|---|---:|');
    for (const readme of readmes.sort((a, b) => b.words - a.words)) {
      console.log(`| ${readme.file} | ${readme.words} |`);
    }
    if (argv.includes('--files')) {
      console.log('\n| file | code lines | comment words | words / 100 lines |\n|---|---:|---:|---:|');
      for (const file of [...files].sort((a, b) => b.commentWords - a.commentWords).slice(0, 40)) {
        const density = Math.round((file.commentWords / Math.max(file.codeLines, 1)) * 100);
        console.log(`| ${file.file} | ${file.codeLines} | ${file.commentWords} | ${density} |`);
      }
    }
  }
  if (max === undefined) return 0;
  const over = folders.filter((row) => row.density > max);
  for (const row of over)
    console.error(`${row.folder}: ${row.density} comment words per 100 code lines (max ${max})`);
  return over.length === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
