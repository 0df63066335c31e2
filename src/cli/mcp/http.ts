// `shop-mgmt mcp --http PORT`: the same tools over streamable HTTP on loopback. Stateless: each request gets
// a server of its own (the tools keep no state), with DNS-rebinding protection, since a browser page could
// otherwise reach a local server that holds a shop's key.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function serveHttp(
  make: () => Promise<McpServer>,
  port: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  const { StreamableHTTPServerTransport } = await import(
    '@modelcontextprotocol/sdk/server/streamableHttp.js'
  );
  let allowedHosts: string[] = [];
  const http = createServer((req, res) => {
    void (async () => {
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('the MCP endpoint is /mcp\n');
        return;
      }
      const server = await make();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        enableDnsRebindingProtection: true,
        allowedHosts,
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (http.address() as AddressInfo).port;
  allowedHosts = [`127.0.0.1:${bound}`, `localhost:${bound}`];
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
