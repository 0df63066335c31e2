// The caller's Redis client behind one small interface, for every store that keeps state in Redis (webhook
// dedupe, rate limits). Neither node-redis nor ioredis is imported: the client is duck-typed, so the SDK adds
// no Redis dependency and works with either.

/** The ioredis calls used (`Redis` and `Cluster` both have them). */
export interface IoRedisLike {
  /** ioredis's generic command call: the stores send `SET ... NX EX`, `EVAL` and `DEL` through it. */
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/** The node-redis (v4, v5) calls used; `createClient()` and `createCluster()` both have them. */
export interface NodeRedisLike {
  /** node-redis's SET with options: claims a key only if nobody holds it, with an expiry. */
  set(key: string, value: string, options: { NX: true; EX: number }): Promise<unknown>;
  /** node-redis's EVAL: the stores' Lua scripts (compare-and-delete, the rate limit's GCRA). */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** node-redis's DEL. */
  del(key: string): Promise<unknown>;
}

/** A connected node-redis or ioredis client. */
export type RedisClientLike = IoRedisLike | NodeRedisLike;

/** The commands the SDK's stores send, the same whichever client carries them. */
export interface RedisCommands {
  /** `SET key value NX EX ttl`: true when set, false when the key already existed. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** `EVAL script` over `keys` and `args`, atomic on the server. */
  evaluate(script: string, keys: string[], args: (string | number)[]): Promise<unknown>;
  /** `DEL key`. */
  delete(key: string): Promise<void>;
}

function isIoRedis(client: RedisClientLike): client is IoRedisLike {
  return typeof (client as Partial<IoRedisLike>).call === 'function';
}

/** True for something that has either client's calls; the stores refuse anything else at construction. */
export function isRedisClient(client: unknown): client is RedisClientLike {
  const candidate = client as Partial<IoRedisLike & NodeRedisLike> | null | undefined;
  return (
    typeof candidate?.call === 'function' ||
    (typeof candidate?.set === 'function' &&
      typeof candidate.eval === 'function' &&
      typeof candidate.del === 'function')
  );
}

/**
 * node-redis and ioredis spell EVAL differently (`eval(script, { keys, arguments })` against
 * `eval(script, numKeys, ...keysAndArgs)`); the commands go through node-redis's own methods and ioredis's
 * `call(...)`, which both clients' clusters route by the key.
 */
export function redisCommands(client: RedisClientLike): RedisCommands {
  if (isIoRedis(client)) {
    return {
      setIfAbsent: async (key, value, ttl) => isOk(await client.call('SET', key, value, 'NX', 'EX', ttl)),
      evaluate: (script, keys, args) => client.call('EVAL', script, keys.length, ...keys, ...args),
      delete: async (key) => {
        await client.call('DEL', key);
      },
    };
  }
  return {
    setIfAbsent: async (key, value, ttl) => isOk(await client.set(key, value, { NX: true, EX: ttl })),
    evaluate: (script, keys, args) => client.eval(script, { keys, arguments: args.map(String) }),
    delete: async (key) => {
      await client.del(key);
    },
  };
}

// 'OK' when set; null when the key exists. RESP3 and type mappings may wrap the simple string.
function isOk(reply: unknown): boolean {
  return reply !== null && reply !== undefined && String(reply) === 'OK';
}
