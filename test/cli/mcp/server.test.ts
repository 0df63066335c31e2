// The MCP server through the SDK's own client over an in-memory pair, against a sandbox over HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { OperationCatalog } from '../../../src/cli/mcp/catalog.js';
import { createShopMcpServer } from '../../../src/cli/mcp/server.js';
import { ShopClient } from '../../../src/client.js';
import { createSandbox, type Sandbox } from '../../../src/testing/index.js';

type Served = { mcp: Client; sandbox: Sandbox; shop: ShopClient; close: () => Promise<void> };
const open: Served[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((served) => served.close()));
});

async function serve(options: { permissions?: string[]; allowWrites?: string[] } = {}): Promise<Served> {
  const sandbox = createSandbox({ clock: 'real' });
  const server = await sandbox.listen();
  const apiKey = sandbox.createKey(
    options.permissions ? { permissions: options.permissions as never } : undefined,
  );
  const client = new ShopClient({ apiKey, baseUrl: server.url, maxRetries: 0 });
  const me = (await client.me.retrieve()) as { permissions: string[] };
  const catalog = new OperationCatalog({
    permissions: me.permissions,
    allowWrites: options.allowWrites ?? [],
  });
  const mcpServer = await createShopMcpServer({ client, catalog, target: 'the sandbox', live: false });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcpServer.connect(serverSide);
  const mcp = new Client({ name: 'test', version: '1' });
  await mcp.connect(clientSide);
  const served = {
    mcp,
    sandbox,
    shop: client,
    close: async () => {
      await mcp.close();
      await mcpServer.close();
      await server.close();
    },
  };
  open.push(served);
  return served;
}

async function call(mcp: Client, name: string, args: Record<string, unknown>) {
  const result = (await mcp.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
  };
  return { isError: result.isError === true, text: result.content.map((part) => part.text).join('\n') };
}

describe('shop-mgmt mcp tools', () => {
  it('lists four small tools whose whole list stays under 1,500 tokens (4 characters a token)', async () => {
    const { mcp } = await serve();
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'call_operation',
      'describe_operation',
      'list_all',
      'search_operations',
    ]);
    expect(JSON.stringify(tools).length / 4).toBeLessThan(1500);
  });

  it('offers only the operations the key may use', async () => {
    const { mcp } = await serve({ permissions: ['range:read'] });
    const range = await call(mcp, 'search_operations', { query: 'reservations' });
    expect(range.text).toContain('range.reservations.list');
    const cards = await call(mcp, 'search_operations', { query: 'card' });
    expect(cards.text).toBe('no operation matches "card"');
    const refused = await call(mcp, 'call_operation', { operation: 'cardTransactions.list' });
    expect(refused).toEqual({
      isError: true,
      text: 'the key lacks card_transactions:read, which cardTransactions.list needs',
    });
  });

  it('reads a list and a record, trimmed unless full is asked for', async () => {
    const { mcp } = await serve();
    const list = await call(mcp, 'call_operation', {
      operation: 'range.reservations.list',
      query: { limit: 2 },
    });
    expect(list.isError).toBe(false);
    const page = JSON.parse(list.text.split('\nTrimmed')[0]!);
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const id = page.data[0].id as number;
    const full = await call(mcp, 'call_operation', {
      operation: 'range.reservations.retrieve',
      path: { id },
      full: true,
    });
    expect(JSON.parse(full.text)).toMatchObject({ id, object: 'range_reservation' });
    const walked = await call(mcp, 'list_all', { operation: 'products.list', limit: 7 });
    expect(JSON.parse(walked.text.split('\nTrimmed')[0]!).count).toBe(7);
  });

  it('refuses a write unless --allow-writes names it, and names the flag', async () => {
    const { mcp } = await serve();
    const refused = await call(mcp, 'call_operation', {
      operation: 'range.reservations.create',
      body: { class_session_id: 1, party_size: 1 },
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('--allow-writes range.reservations.create');
  });

  it('an allowed write retried three times with the same arguments books once', async () => {
    const { mcp, shop } = await serve({ allowWrites: ['range.reservations.create'] });
    const sessions = await call(mcp, 'call_operation', { operation: 'range.sessions.list', full: true });
    const session = (JSON.parse(sessions.text).data as { id: number; status?: string }[])[0]!;
    const args = {
      operation: 'range.reservations.create',
      body: {
        class_session_id: session.id,
        party_size: 1,
        external_reference: 'agent-1',
        contact: { name: 'Agent Test', email: 'agent@example.com' },
      },
      full: true,
    };
    const before = await countReservations(shop);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call(mcp, 'call_operation', args));
    for (const answer of answers) expect(answer.isError, answer.text).toBe(false);
    const ids = answers.map((answer) => JSON.parse(answer.text.split('\nIdempotency-Key')[0]!).id);
    expect(new Set(ids).size).toBe(1);
    const keys = answers.map((answer) => /Idempotency-Key: (\S+)/.exec(answer.text)?.[1]);
    expect(new Set(keys).size).toBe(1);
    const booked = [];
    for await (const reservation of shop.range.reservations.list()) {
      if (reservation.id === ids[0]) booked.push(reservation);
    }
    expect(booked).toHaveLength(1);
    expect(await countReservations(shop)).toBe(before + 1);
  });

  it('a bad argument comes back as a tool error naming the field; a typo gets a suggestion', async () => {
    const { mcp } = await serve();
    const bad = await call(mcp, 'call_operation', { operation: 'products.list', query: { limit: 'many' } });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('limit');
    const typo = await call(mcp, 'describe_operation', { operation: 'products.lst' });
    expect(typo).toEqual({
      isError: true,
      text: 'no operation products.lst: did you mean products.list? (search_operations lists them)',
    });
    const described = JSON.parse(
      (await call(mcp, 'describe_operation', { operation: 'range.reservations.create' })).text,
    );
    expect(described).toMatchObject({ write: true, allowed: false, permission: 'range:write' });
    expect(JSON.stringify(described.body)).toContain('party_size');
  });
});

async function countReservations(shop: ShopClient): Promise<number> {
  let count = 0;
  for await (const _ of shop.range.reservations.list()) count++;
  return count;
}
