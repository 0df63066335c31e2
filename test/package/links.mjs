// The README and the guides as the registry shows them: every relative link in README.md and docs/*.md of
// the installed package must point at a file the package ships (absolute links are left to the web).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = 'node_modules/shop-mgmt';
const pages = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)];
const broken = [];
let checked = 0;
for (const page of pages) {
  const text = readFileSync(join(root, page), 'utf8');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
    checked += 1;
    const file = join(root, dirname(page), target.split('#')[0]);
    if (!existsSync(file)) broken.push(`${page} -> ${target}`);
  }
}
assert.deepEqual(broken, [], 'relative links to files the package does not ship');
assert.ok(checked > 5, `expected the README to link its guides, saw ${checked} links`);
console.log(`links: ok, ${checked} relative links in ${pages.length} pages resolve inside the package`);
