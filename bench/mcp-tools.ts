// What `shop-mgmt mcp` costs an agent's context: the tool list as the MCP client receives it (tools/list),
// and the answer of a typical search, describe and read, in characters and estimated tokens.
// Run: npx tsx bench/mcp-tools.ts
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { OperationCatalog } from '../src/cli/mcp/catalog.js';
import { createShopMcpServer } from '../src/cli/mcp/server.js';
import { ShopClient } from '../src/client.js';
import { createSandbox } from '../src/testing/index.js';

/** The budget the tool list must stay under, in tokens. */
const BUDGET = 1500;
// No tokenizer is bundled: 4 characters a token, the usual estimate for English and JSON (GPT and Claude
// tokenizers give 3.5-4.5 on such text).
const tokens = (text: string) => Math.ceil(text.length / 4);

const sandbox = createSandbox({ clock: 'real' });
const shop = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: sandbox.baseUrl, fetch: sandbox.fetch });
const me = (await shop.me.retrieve()) as { permissions: string[] };
const catalog = new OperationCatalog({ permissions: me.permissions, allowWrites: [] });
const server = await createShopMcpServer({ client: shop, catalog, target: 'the sandbox', live: false });
const [a, b] = InMemoryTransport.createLinkedPair();
await server.connect(b);
const client = new Client({ name: 'bench', version: '1' });
await client.connect(a);

const { tools } = await client.listTools();
const list = JSON.stringify(tools);
const rows: [string, string][] = [['tools/list (4 tools, all 59 operations behind them)', list]];
for (const [label, name, args] of [
  ['search_operations "reservations"', 'search_operations', { query: 'reservations' }],
  [
    'describe_operation range.reservations.create',
    'describe_operation',
    { operation: 'range.reservations.create' },
  ],
  [
    'call_operation range.reservations.list (trimmed)',
    'call_operation',
    { operation: 'range.reservations.list' },
  ],
  [
    'call_operation range.reservations.list (full)',
    'call_operation',
    { operation: 'range.reservations.list', full: true },
  ],
] as const) {
  const result = (await client.callTool({ name, arguments: args })) as { content: { text: string }[] };
  rows.push([label, result.content.map((part) => part.text).join('\n')]);
}
console.log('| what the agent reads | characters | tokens (est.) |');
console.log('| --- | ---: | ---: |');
for (const [label, text] of rows) console.log(`| ${label} | ${text.length} | ${tokens(text)} |`);
console.log(
  `\ntool list: ${tokens(list)} tokens of a ${BUDGET}-token budget; ${catalog.visible.length} operations`,
);
await client.close();
await server.close();
if (tokens(list) > BUDGET) process.exitCode = 1;
