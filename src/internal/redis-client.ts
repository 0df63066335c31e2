// The caller's Redis client, duck-typed, behind one small interface.
import { withoutCredentials } from './redact.js';

/** The ioredis calls used. */
export interface IoRedisLike {
  /** A generic command. */
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/** The node-redis calls used. */
export interface NodeRedisLike {
  /** SET with options. */
  set(key: string, value: string, options: { NX: true; EX: number }): Promise<unknown>;
  /** EVAL. */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** DEL. */
  del(key: string): Promise<unknown>;
}

/** A connected node-redis or ioredis client. */
export type RedisClientLike = IoRedisLike | NodeRedisLike;

/** The commands the SDK's stores send. */
export interface RedisCommands {
  /** `SET key value NX EX ttl`: false when the key existed. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** `EVAL script`, atomic on the server. */
  evaluate(script: string, keys: string[], args: (string | number)[]): Promise<unknown>;
  /** `DEL key`. */
  delete(key: string): Promise<void>;
}

function isIoRedis(client: RedisClientLike): client is IoRedisLike {
  return typeof (client as Partial<IoRedisLike>).call === 'function';
}

/** True for either client. */
export function isRedisClient(client: unknown): client is RedisClientLike {
  const candidate = client as Partial<IoRedisLike & NodeRedisLike> | null | undefined;
  return (
    typeof candidate?.call === 'function' ||
    (typeof candidate?.set === 'function' &&
      typeof candidate.eval === 'function' &&
      typeof candidate.del === 'function')
  );
}

/** One interface over both clients; every error goes through `mapError`. */
export function redisCommands(
  client: RedisClientLike,
  mapError: (error: unknown) => unknown = (error) => error,
): RedisCommands {
  const guarded = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw mapError(error);
    }
  };
  if (isIoRedis(client)) {
    return {
      setIfAbsent: (key, value, ttl) =>
        guarded(async () => isOk(await client.call('SET', key, value, 'NX', 'EX', ttl))),
      evaluate: (script, keys, args) =>
        guarded(() => client.call('EVAL', script, keys.length, ...keys, ...args)),
      delete: (key) =>
        guarded(async () => {
          await client.call('DEL', key);
        }),
    };
  }
  return {
    setIfAbsent: (key, value, ttl) =>
      guarded(async () => isOk(await client.set(key, value, { NX: true, EX: ttl }))),
    evaluate: (script, keys, args) =>
      guarded(() => client.eval(script, { keys, arguments: args.map(String) })),
    delete: (key) =>
      guarded(async () => {
        await client.del(key);
      }),
  };
}

// Connection errors by class name (node-redis) or name (ioredis).
const UNAVAILABLE_CLASSES = new Set([
  'ClientClosedError',
  'ClientOfflineError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ReconnectStrategyError',
  'DisconnectsClientError',
  'RootNodesUnavailableError',
  'TimeoutError',
  'CommandTimeoutDuringMaintenanceError',
  'SocketTimeoutDuringMaintenanceError',
  'MaxRetriesPerRequestError',
]);
// The same by message.
const UNAVAILABLE_MESSAGES =
  /^(The client is (closed|offline)|Socket closed unexpectedly|Connection timeout|Socket timeout|Disconnects client|All the root nodes are unavailable|Connection is closed|Stream isn't writeable|Command timed out|Reached the max retries per request)/i;
// Replies that mean "not now".
const UNAVAILABLE_REPLIES = /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY|NOREPLICAS)\b/;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** True when `error` says Redis or the connection is away. */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const className = error.constructor?.name ?? '';
  if (UNAVAILABLE_CLASSES.has(className) || UNAVAILABLE_CLASSES.has(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  return UNAVAILABLE_MESSAGES.test(error.message) || UNAVAILABLE_REPLIES.test(error.message);
}

/** `error` in one line for a message, URL credentials cut out. */
export function redisFailureText(error: unknown): string {
  const raw = error instanceof Error ? error.message || error.constructor?.name || error.name : String(error);
  return withoutCredentials(raw.split('\n')[0]!).slice(0, 200);
}

// 'OK' when set, null when the key exists (possibly wrapped by RESP3 type mappings).
function isOk(reply: unknown): boolean {
  return reply !== null && reply !== undefined && String(reply) === 'OK';
}
