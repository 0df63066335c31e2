import { defineCommand } from 'citty';
import { defineOperation, type HttpMethod } from '../../core/api/operation.js';
import {
  API_FLAGS,
  calling,
  clientFor,
  confirmWrite,
  idempotencyKey,
  noteIdempotencyKey,
  printResult,
  readData,
  readQuery,
} from '../api-call.js';
import { EXIT, usageError } from '../exit-codes.js';
import { repeatedFlag } from '../parse.js';
import { run } from '../run.js';
import { nearest } from '../strict.js';

const METHODS = ['get', 'post', 'patch', 'delete'];

/** `shop-mgmt api METHOD PATH`: any path through the SDK's transport (key, retries, typed errors). */
export const apiCommand = defineCommand({
  meta: {
    name: 'api',
    description:
      'Call any path of the API with the SDK’s transport: the key, retries, an Idempotency-Key on a POST, typed errors.',
  },
  args: {
    method: { type: 'positional', description: 'get, post, patch or delete', required: true },
    path: {
      type: 'positional',
      description: 'The path, e.g. /v1/range/reservations/5001 (/v1 is added when left out)',
      required: true,
    },
    query: { type: 'string', description: 'A query parameter, name=value (repeatable)' },
    data: { type: 'string', description: 'The JSON body: @file.json, - (stdin) or the JSON itself' },
    all: { type: 'boolean', description: 'A list: walk every page (one record a line)' },
    'idempotency-key': {
      type: 'string',
      description: 'The Idempotency-Key of a POST (default: a fresh one, printed on stderr)',
    },
    yes: { type: 'boolean', description: 'Skip the confirmation of a write on a live shop' },
    ...API_FLAGS,
  },
  run: ({ args: flags, rawArgs }) =>
    run(flags.json, async (output) => {
      const lower = String(flags.method).toLowerCase();
      if (!METHODS.includes(lower)) {
        const hint = nearest(lower, METHODS);
        throw usageError(
          `api takes get, post, patch or delete, got ${JSON.stringify(flags.method)}${hint ? `; did you mean ${hint}?` : ''}`,
        );
      }
      const method = lower.toUpperCase() as HttpMethod;
      const [rawPath, search] = String(flags.path).split('?', 2) as [string, string | undefined];
      const path = rawPath.startsWith('/v1/') ? rawPath : `/v1/${rawPath.replace(/^\/+/, '')}`;
      const query = {
        ...Object.fromEntries(new URLSearchParams(search ?? '')),
        ...readQuery(repeatedFlag(rawArgs, 'query')),
      };
      const body = readData(flags.data);
      if (body && (method === 'GET' || method === 'DELETE')) {
        throw usageError(`--data goes with post or patch, not ${lower}`);
      }
      if (flags.all && method !== 'GET') throw usageError('--all walks the pages of a get');
      const { shop, credentials } = await clientFor(flags.profile);
      const params = { query: Object.keys(query).length > 0 ? query : undefined, body };
      if (flags.all) {
        const operation = defineOperation({ method: 'GET', path, pagination: 'cursor' });
        let count = 0;
        await calling(async () => {
          for await (const page of shop.list(operation, params).pages()) {
            printResult(output, page.data);
            count += page.data.length;
          }
        });
        output.note(`${count} record${count === 1 ? '' : 's'}`);
        return EXIT.ok;
      }
      const operation = defineOperation({ method, path });
      const options: { idempotencyKey?: string } = {};
      if (method !== 'GET') {
        await confirmWrite(output, credentials, `${method} ${path}`, flags.yes);
      }
      if (method === 'POST') {
        options.idempotencyKey = idempotencyKey(flags['idempotency-key']);
        noteIdempotencyKey(output, options.idempotencyKey, '');
      }
      const answer = await calling(() => shop.request(operation, params, options).withResponse());
      if (answer.idempotentReplayed) output.note('replayed: the shop answered from its idempotency store');
      printResult(output, answer.data);
      return EXIT.ok;
    }),
});
