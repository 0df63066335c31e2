// llms.txt (https://llmstxt.org): what an AI agent reads first about the package, from the spec and the docs'
// titles. Shipped in the package; `npm run generate:check` keeps it in step.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OperationModel } from './model.js';

export const LLMS_FILE = 'llms.txt';

export async function llmsText(root: string, operations: readonly OperationModel[]): Promise<string> {
  const docs = (await readdir(path.join(root, 'docs'))).filter((name) => name.endsWith('.md')).sort();
  const pages: string[] = [];
  for (const name of docs) {
    const text = await readFile(path.join(root, 'docs', name), 'utf8');
    const title = /^# (.+)$/m.exec(text)?.[1]?.trim() ?? name;
    pages.push(`- [${title}](docs/${name})`);
  }
  const groups = new Map<string, OperationModel[]>();
  for (const op of operations) {
    const group = op.id.split('.')[0]!;
    groups.set(group, [...(groups.get(group) ?? []), op]);
  }
  const lines = [
    '# shop-mgmt',
    '',
    '> The typed TypeScript client of the shop-management API (point of sale, inventory, range bookings,',
    '> rentals, memberships, card transactions, returns), with signed webhooks, an event feed, a durable inbox,',
    '> a sync engine into SQLite or Postgres, a stateful sandbox and the `shop-mgmt` CLI.',
    '',
    'Agents: `npx shop-mgmt mcp` serves these operations over the Model Context Protocol, against a built-in',
    'sandbox unless SHOP_API_KEY is set, read-only unless `--allow-writes` names operations (docs/agents.md).',
    'Every operation is `shop.<id>(...)` on a `new ShopClient()`; a write retried with the same',
    'Idempotency-Key is applied once.',
    '',
    '## Docs',
    '',
    ...pages,
    '',
    '## Operations',
    '',
  ];
  for (const [group, ops] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`### ${group}`, '');
    for (const op of ops) {
      const permission = op.permission ? ` (${op.permission})` : '';
      lines.push(`- \`${op.id}\`: ${op.method} ${op.path}: ${op.summary}${permission}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
