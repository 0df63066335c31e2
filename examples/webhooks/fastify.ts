// Receiving Shop webhooks in Fastify.
//
// The pitfall: Fastify parses application/json bodies before the route runs. Inside an encapsulated plugin,
// replace the JSON parser with one that keeps the raw Buffer, so only the webhook route is affected.
//
// In your app: `import Fastify from 'fastify'` and `from 'shop-sdk/webhooks'`. The declarations at the end
// of this file stand in for Fastify so the SDK's CI type-checks the example without installing it.
import { createWebhookHandler, MemoryDedupeStore } from '../../src/webhooks/index.js';

export async function main(): Promise<void> {
  const webhooks = createWebhookHandler({
    secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
    dedupe: new MemoryDedupeStore(), // one process; use RedisDedupeStore for several
    onEvent: async (event, { delivery }) => {
      console.log(`${event.type} ${event.id} (attempt ${delivery?.attempt ?? '?'})`);
    },
  });

  const app = Fastify({ logger: true });

  await app.register(async (scope) => {
    // Only in this plugin: keep the body as the exact bytes received.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    scope.post('/webhooks/shop', async (request, reply) => {
      const result = await webhooks.handle({ body: request.body, headers: request.headers });
      return reply.code(result.status).header('content-type', 'application/json').send(result.body);
    });
  });

  await app.listen({ port: 3000 });
}

// ---- Stand-ins for `import Fastify from 'fastify'` (with fastify installed, delete these). ----
interface FastifyRequest {
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}
interface FastifyReply {
  code(status: number): FastifyReply;
  header(name: string, value: string): FastifyReply;
  send(body: string): FastifyReply;
}
interface FastifyInstance {
  register(plugin: (scope: FastifyInstance) => Promise<void>): Promise<void>;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'buffer' | 'string' },
    parser: (
      request: FastifyRequest,
      body: Buffer,
      done: (error: Error | null, body?: unknown) => void,
    ) => void,
  ): void;
  post(path: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>): void;
  listen(options: { port: number }): Promise<string>;
}
declare function Fastify(options?: { logger?: boolean }): FastifyInstance;
