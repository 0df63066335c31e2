// `shop-mgmt mcp` as the built bin over stdio, driven by the MCP SDK's client as an agent's host would.

import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cliSuite, startSandbox } from '../helpers.js';

const { cli } = cliSuite('mcp');
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli.binPath(), 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', SHOP_API_KEY: '', SHOP_API_BASE_URL: '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'bin-test', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((part) => part.text).join('\n');
}

describe('shop-mgmt mcp (the built bin, stdio)', () => {
  it('serves a built-in sandbox with no key, read-only', async () => {
    const { client, stderr } = await connect([]);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(4);
    const found = textOf(
      await client.callTool({ name: 'search_operations', arguments: { query: 'reservations cancel' } }),
    );
    expect(found.split('\n')[0]).toMatch(
      /^range\.reservations\.cancel {2}POST \/v1\/range\/reservations\/\{id\}\/cancel/,
    );
    expect(found).toContain('[write: not allowed]');
    const page = textOf(
      await client.callTool({ name: 'call_operation', arguments: { operation: 'products.list' } }),
    );
    expect(JSON.parse(page.split('\nTrimmed')[0]!).data.length).toBeGreaterThan(0);
    expect(stderr()).toContain('serving the built-in sandbox on stdio');
    expect(stderr()).toContain('read-only');
  });

  it('serves the shop of SHOP_API_KEY, and never prints the key', async () => {
    const sandbox = await startSandbox(cli);
    const { client, stderr } = await connect(['--allow-writes', 'coupons.create'], {
      SHOP_API_KEY: sandbox.key,
      SHOP_API_BASE_URL: sandbox.url,
    });
    const created = await client.callTool({
      name: 'call_operation',
      arguments: { operation: 'coupons.create', body: { code: 'AGENT10', name: 'agent', percent_off: 10 } },
    });
    expect((created as { isError?: boolean }).isError ?? false, textOf(created)).toBe(false);
    expect(textOf(created)).toMatch(/Idempotency-Key: mcp-[0-9a-f]{40}/);
    expect(stderr()).toContain('writes allowed: coupons.create');
    expect(stderr()).not.toContain(sandbox.key);
  });

  it('refuses --allow-writes naming no operation, with exit 2', async () => {
    const run = await cli.run(['mcp', '--allow-writes', 'coupons.creat']);
    expect(run.code).toBe(2);
    expect(run.stderr.join('\n')).toContain(
      '--allow-writes coupons.creat names no operation this key may use',
    );
  });

  it('--http serves streamable HTTP on 127.0.0.1, refusing another Host (DNS rebinding)', async () => {
    const running = cli.start(['mcp', '--http', '0']);
    const url = await running.until(
      () => /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(running.stderr.join('\n'))?.[1],
      30_000,
    );
    const client = new Client({ name: 'http-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    expect((await client.listTools()).tools).toHaveLength(4);
    const found = textOf(
      await client.callTool({ name: 'search_operations', arguments: { query: 'coupons' } }),
    );
    expect(found).toContain('coupons.create');
    // fetch may not set Host; node:http sends it as given, as a rebinding page's browser would.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const rebound = await new Promise<{ status: number }>((resolve, reject) => {
      const sent = request(
        url,
        {
          method: 'POST',
          headers: {
            host: 'evil.example',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0 });
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
    expect(rebound.status).toBe(403);
  });
});
