import { defineCommand } from 'citty';
import { ShopClient } from '../../client.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { OperationCatalog } from '../mcp/catalog.js';
import { httpUrl, repeatedFlag } from '../parse.js';
import { resolveCredentials } from '../profiles.js';
import { untilSignal } from '../run.js';

/** `shop-mgmt mcp`: the shop as a Model Context Protocol server on stdio, read-only and sandbox-first. */
export const mcpCommand = defineCommand({
  meta: {
    name: 'mcp',
    description:
      'Serve the API to an AI agent over the Model Context Protocol (stdio): a built-in sandbox unless a profile or SHOP_API_KEY names a shop; read-only unless --allow-writes names operations.',
  },
  args: {
    'allow-writes': {
      type: 'string',
      description:
        'Allow these writes: operation ids or groups, comma-separated or repeated (range.reservations.create, range.*)',
    },
    sandbox: { type: 'boolean', description: 'Serve a built-in sandbox even when a key is set' },
    profile: { type: 'string', description: 'The profile to serve (shop-mgmt login); SHOP_PROFILE too' },
    http: {
      type: 'string',
      description: 'Serve streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio (0 picks a free port)',
    },
  },
  run: async ({ args: flags, rawArgs }) => {
    // stdout is the protocol's channel: every note goes to stderr.
    const note = (line: string) => process.stderr.write(`shop-mgmt mcp: ${line}\n`);
    try {
      const allowWrites = repeatedFlag(rawArgs, 'allow-writes').flatMap((value) =>
        value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      );
      const target = await connect(flags.sandbox === true, flags.profile);
      const me = await whoIs(target.client);
      const catalog = new OperationCatalog({ permissions: me.permissions, allowWrites });
      for (const rule of allowWrites) {
        if (
          !catalog.visible.some(
            (op) => op.id === rule || (rule.endsWith('.*') && op.id.startsWith(rule.slice(0, -1))),
          )
        ) {
          throw usageError(`--allow-writes ${rule} names no operation this key may use`);
        }
      }
      const label = target.sandbox ? 'the built-in sandbox' : me.live ? 'a LIVE shop' : 'a sandbox shop';
      const { createShopMcpServer } = await import('../mcp/server.js');
      const make = () =>
        createShopMcpServer({ client: target.client, catalog, target: label, live: me.live });
      const mode = allowWrites.length === 0 ? 'read-only' : `writes allowed: ${allowWrites.join(', ')}`;
      await loadSdk();
      if (flags.http !== undefined) {
        const { serveHttp } = await import('../mcp/http.js');
        const served = await serveHttp(make, port(flags.http));
        note(`serving ${label} on ${served.url}: ${catalog.visible.length} operations, ${mode}`);
        await untilSignal();
        await served.close();
        await target.close();
        process.exit(EXIT.ok);
      }
      const server = await make();
      const { StdioServerTransport } = await loadSdk();
      const transport = new StdioServerTransport();
      await server.connect(transport);
      note(`serving ${label} on stdio: ${catalog.visible.length} operations, ${mode}`);
      const closed = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
        process.stdin.once('end', () => resolve());
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      await closed;
      await server.close().catch(() => undefined);
      await target.close();
      process.exit(EXIT.ok);
    } catch (error) {
      note(error instanceof Error ? error.message : String(error));
      process.exit(error instanceof CliError ? error.code : EXIT.failed);
    }
  },
});

function port(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > 65_535) throw usageError(`--http takes a port number, not ${value}`);
  return number;
}

async function loadSdk(): Promise<typeof import('@modelcontextprotocol/sdk/server/stdio.js')> {
  try {
    return await import('@modelcontextprotocol/sdk/server/stdio.js');
  } catch (error) {
    throw new CliError(
      `shop-mgmt mcp needs the MCP SDK: npm install @modelcontextprotocol/sdk (${(error as Error).message})`,
    );
  }
}

interface Target {
  readonly client: ShopClient;
  readonly sandbox: boolean;
  close(): Promise<void>;
}

async function connect(forceSandbox: boolean, profile: string | undefined): Promise<Target> {
  // SHOP_API_KEY and SHOP_API_BASE_URL win; a profile (--profile, SHOP_PROFILE, `default`) fills the rest.
  const { apiKey, baseUrl } = forceSandbox
    ? { apiKey: undefined, baseUrl: undefined }
    : await resolveCredentials(profile);
  if (apiKey) {
    const client = new ShopClient({
      apiKey,
      ...(baseUrl && { baseUrl: httpUrl(baseUrl, 'SHOP_API_BASE_URL') }),
    });
    return { client, sandbox: false, close: async () => undefined };
  }
  // In this process, through its fetch: no port opened, nothing to reach but this server.
  const { createSandbox } = await import('../../testing/sandbox.js');
  const sandbox = createSandbox({ clock: 'real' });
  const client = new ShopClient({
    apiKey: sandbox.createKey(),
    baseUrl: sandbox.baseUrl,
    fetch: sandbox.fetch,
  });
  return { client, sandbox: true, close: async () => undefined };
}

/** The key's permissions and environment as GET /v1/me reports them; unknown (null) where it does not. */
async function whoIs(client: ShopClient): Promise<{ permissions: string[] | null; live: boolean }> {
  try {
    const me = (await client.me.retrieve()) as { permissions?: unknown; livemode?: unknown };
    const permissions = Array.isArray(me.permissions)
      ? me.permissions.filter((p): p is string => typeof p === 'string')
      : null;
    return { permissions, live: me.livemode === true };
  } catch (error) {
    // A key the API refuses is no server worth starting; other failures leave the permissions unknown.
    if ((error as { status?: number }).status === 401) throw error;
    return { permissions: null, live: true };
  }
}
