// The MCP server of `shop-mgmt mcp`: four small tools over the generated operations table (search, describe,
// call, walk a list) rather than one tool per endpoint, so the tool list stays a few hundred tokens.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type $ZodType, toJSONSchema } from 'zod/v4/core';
import type { ShopClient } from '../../client.js';
import { ShopApiError } from '../../core/errors/api-errors.js';
import { isShopError } from '../../core/errors/shop-error.js';
import { idempotencyKeyFor, isWrite, type OperationCatalog, type OperationEntry } from './catalog.js';
import { trimAnswer } from './trim.js';

export interface ShopMcpOptions {
  readonly client: ShopClient;
  readonly catalog: OperationCatalog;
  /** What the server says it is connected to, e.g. `the sandbox` or `a LIVE shop`. */
  readonly target: string;
  readonly live: boolean;
}

/** The answer text of one tool call is cut at this many characters (the model's context is the budget). */
const MAX_TEXT = 16_000;
const LIST_DEFAULT = 10;
const WALK_MAX = 500;

const params = {
  path: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .optional()
    .describe('Path placeholders, e.g. {"id": 5001}'),
  query: z.record(z.string(), z.unknown()).optional().describe('Query parameters'),
};

/** Builds the server (not yet connected to a transport). */
export async function createShopMcpServer(options: ShopMcpOptions): Promise<McpServer> {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { VERSION: version } = await import('../../version.js');
  const { client, catalog } = options;
  const writes = catalog.visible.filter((op) => isWrite(op) && catalog.writeAllowed(op)).map((op) => op.id);
  const server = new McpServer(
    { name: 'shop-mgmt', version },
    {
      instructions:
        `Shop management API of ${options.target}. Find an operation with search_operations, read its ` +
        `parameters with describe_operation, then call_operation (one record or one page) or list_all. ` +
        (writes.length === 0
          ? 'Read-only: no operation that changes the shop is allowed.'
          : `Writes allowed: ${writes.join(', ')}. A repeated write with the same arguments is applied once.`),
    },
  );

  server.registerTool(
    'search_operations',
    {
      description:
        'Find API operations by words (e.g. "reservations cancel"). Returns id, method, path, summary.',
      inputSchema: {
        query: z.string().describe('Words to match; empty lists all'),
        limit: z.number().int().min(1).max(60).optional().describe('At most this many (default 15)'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit }) => {
      const found = catalog.search(query, limit ?? 15);
      const lines = found.map((op) => {
        const mark = isWrite(op) ? (catalog.writeAllowed(op) ? ' [write]' : ' [write: not allowed]') : '';
        return `${op.id}  ${op.method} ${op.path}  ${op.summary}${mark}`;
      });
      return text(lines.length > 0 ? lines.join('\n') : `no operation matches "${query}"`);
    },
  );

  server.registerTool(
    'describe_operation',
    {
      description: 'The parameters (JSON Schema), permission, errors and write status of one operation.',
      inputSchema: { operation: z.string().describe('An operation id from search_operations') },
      annotations: { readOnlyHint: true },
    },
    async ({ operation }) => {
      const op = catalog.find(operation);
      if ('reason' in op) return toolError(op.message);
      return text(JSON.stringify(await describe(op, catalog), null, 1));
    },
  );

  server.registerTool(
    'call_operation',
    {
      description:
        'Call one operation: a record, or one page of a list. Answers are trimmed; pass full: true for whole records.',
      inputSchema: {
        operation: z.string(),
        ...params,
        body: z.record(z.string(), z.unknown()).optional().describe('JSON body of a write'),
        full: z.boolean().optional(),
        idempotency_key: z
          .string()
          .optional()
          .describe(
            'A write sends a key derived from its arguments; pass another to repeat a write on purpose',
          ),
      },
    },
    async (args) => {
      const op = catalog.resolve(args.operation);
      if ('reason' in op) return toolError(op.message);
      return guarded(async () => {
        const request = { path: args.path, query: args.query, body: args.body };
        if (op.pagination === 'cursor') {
          const page = await client.list(op as never, {
            ...request,
            query: { limit: LIST_DEFAULT, ...args.query },
          });
          return answer({ data: page.data, has_more: page.hasMore, next_cursor: page.nextCursor }, args.full);
        }
        const key = isWrite(op) ? (args.idempotency_key ?? idempotencyKeyFor(op.id, request)) : undefined;
        const result = await client.request(op as never, request, key ? { idempotencyKey: key } : undefined);
        return answer(result, args.full, key);
      });
    },
  );

  server.registerTool(
    'list_all',
    {
      description: 'Walk a list operation across pages, up to limit records (default 25, at most 500).',
      inputSchema: {
        operation: z.string(),
        ...params,
        limit: z.number().int().min(1).max(WALK_MAX).optional(),
        full: z.boolean().optional(),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      const op = catalog.resolve(args.operation);
      if ('reason' in op) return toolError(op.message);
      if (op.pagination !== 'cursor') return toolError(`${op.id} is not a list: use call_operation`);
      const limit = args.limit ?? 25;
      return guarded(async () => {
        const records: unknown[] = [];
        for await (const record of client.list(op as never, { path: args.path, query: args.query })) {
          records.push(record);
          if (records.length >= limit) break;
        }
        return answer({ count: records.length, data: records }, args.full);
      });
    },
  );

  return server;
}

async function describe(op: OperationEntry, catalog: OperationCatalog): Promise<Record<string, unknown>> {
  const schemas = op.schemas ? await op.schemas() : null;
  const jsonSchema = (schema: unknown) =>
    schema ? toJSONSchema(schema as $ZodType, { unrepresentable: 'any', io: 'input' }) : null;
  const write = isWrite(op);
  return {
    id: op.id,
    method: op.method,
    path: op.path,
    summary: op.summary,
    permission: op.permission,
    write,
    allowed: !write || catalog.writeAllowed(op),
    list: op.pagination === 'cursor',
    idempotency: op.idempotency,
    error_codes: op.errorCodes,
    shape_documented: !op.undocumented,
    path_params: op.pathParams,
    query: jsonSchema(schemas?.query),
    body: jsonSchema(schemas?.body),
  };
}

function text(body: string): CallToolResult {
  return { content: [{ type: 'text', text: body }] };
}

function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

function answer(result: unknown, full: boolean | undefined, idempotencyKey?: string): CallToolResult {
  const { value, trimmed } = full ? { value: result, trimmed: false } : trimAnswer(result);
  let body = JSON.stringify(value, null, 1);
  if (body.length > MAX_TEXT) body = `${body.slice(0, MAX_TEXT)}\n… cut at ${MAX_TEXT} characters`;
  const notes = [
    trimmed ? 'Trimmed: call again with full: true for every field.' : '',
    idempotencyKey ? `Idempotency-Key: ${idempotencyKey}` : '',
  ].filter(Boolean);
  return text(notes.length > 0 ? `${body}\n${notes.join('\n')}` : body);
}

/** Runs a call; an SDK error becomes a tool error with the API's code and what to do, never a crash. */
async function guarded(call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ShopApiError) {
      const details =
        Object.keys(error.details).length > 0 ? ` details: ${JSON.stringify(error.details)}` : '';
      const retry = error.mayHaveBeenApplied
        ? ' It may have been applied: call again with the same arguments.'
        : '';
      return toolError(`${error.message}${details}${retry}`);
    }
    if (isShopError(error)) return toolError(`${error.name}: ${error.message}`);
    return toolError(`unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
  }
}
