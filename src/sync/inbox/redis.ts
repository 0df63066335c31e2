/**
 * The inbox in Redis Streams, for partners who already run Redis.
 *
 * @module shop-mgmt/inbox/redis
 */
// Each event is a hash by id plus a stream entry read by a consumer group (XREADGROUP; a dead worker's entries
// taken over by XAUTOCLAIM; heartbeat = XCLAIM). Retries wait in a sorted set. Each step is one Lua script.
import { ShopError } from '../../core/errors/shop-error.js';
import {
  isRedisClient,
  type RedisClientLike,
  type RedisCommands,
  redisCommands,
} from '../../internal/redis-client.js';
import type { ShopEvent } from '../../webhooks/events.js';
import { DatabaseUnavailableError, redisUnavailableOr } from '../database-unavailable.js';
import type {
  InboxEntry,
  InboxFailure,
  InboxLease,
  InboxRecord,
  InboxSource,
  InboxStatus,
  InboxStore,
  LeaseRequest,
  PruneRequest,
} from './types.js';

export type { IoRedisLike, NodeRedisLike, RedisClientLike } from '../../internal/redis-client.js';
export { DatabaseUnavailableError };

/** Options of {@link RedisInboxStore}. */
export interface RedisInboxOptions {
  /** Keep a `{hash tag}` in it so a cluster keeps the inbox on one node. @default '{shop-mgmt:inbox}:' */
  keyPrefix?: string;
  /** Seconds a done event is remembered as a duplicate guard. @default 259200 */
  doneTtlSeconds?: number;
  /** ms after which `prune` forgets an idle consumer with nothing pending. @default 3_600_000 */
  consumerIdleMs?: number;
}

const GROUP = 'workers';
/** Index entries one `list()` reads beyond its limit at most, so a large inbox never blocks Redis long. */
const LIST_READ_MORE = 1000;

// KEYS: stream. Creates the stream and its group; an existing group is fine.
const SETUP = `
local ok, err = pcall(redis.call, 'XGROUP', 'CREATE', KEYS[1], '${GROUP}', '0', 'MKSTREAM')
if not ok and not string.find(tostring(err), 'BUSYGROUP') then error(err) end
return 1`;

// KEYS: stream, all. ARGV: prefix, id, event, source, ordering key, now.
const ADD = `
local key = ARGV[1] .. 'e:' .. ARGV[2]
if redis.call('EXISTS', key) == 1 then return 0 end
local msg = redis.call('XADD', KEYS[1], '*', 'id', ARGV[2])
redis.call('HSET', key, 'event', ARGV[3], 'source', ARGV[4], 'ordering_key', ARGV[5], 'status', 'pending',
  'attempts', 0, 'received_at', ARGV[6], 'msg', msg, 'token', '', 'lease_until', 0, 'last_error', '')
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[2])
return 1`;

// KEYS: stream, delayed. ARGV: prefix, limit, lease ms, now, consumer, alone (1 | 0), retry horizon ms ('' none).
// Alone: first a suspect (an entry whose worker died: XAUTOCLAIM once it sat idle a lease long), by itself.
const LEASE = `
local prefix, limit, leaseMs, now, consumer = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local function requeue(ids)
  for _, id in ipairs(ids) do
    redis.call('ZREM', KEYS[2], id)
    local key = prefix .. 'e:' .. id
    if redis.call('HGET', key, 'status') == 'pending' then
      redis.call('HSET', key, 'msg', redis.call('XADD', KEYS[1], '*', 'id', id))
    end
  end
end
requeue(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, limit))
-- A retry further ahead than any this inbox sets was set before the clock stepped back: due now.
if ARGV[7] ~= '' then
  requeue(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. (now + tonumber(ARGV[7])), '+inf', 'LIMIT', 0, limit))
end
local function live(entry)
  if type(entry) ~= 'table' then return nil end
  local msg, fields = entry[1], entry[2]
  local id = type(fields) == 'table' and fields[2] or nil
  local key = id and (prefix .. 'e:' .. id)
  local current = key and redis.call('HMGET', key, 'status', 'msg')
  if not current or current[1] ~= 'pending' or current[2] ~= msg then
    -- Done, dead, gone, or an older entry of an event replayed since: not work any more.
    redis.call('XACK', KEYS[1], '${GROUP}', msg)
    redis.call('XDEL', KEYS[1], msg)
    return nil
  end
  return id
end
local function take(id, msg, suspect)
  local key = prefix .. 'e:' .. id
  local attempts = redis.call('HINCRBY', key, 'attempts', 1)
  local token = msg .. '/' .. attempts
  redis.call('HSET', key, 'token', token, 'lease_until', now + leaseMs)
  local row = redis.call('HMGET', key, 'event', 'source', 'ordering_key')
  return { id, row[1], attempts, token, row[2], row[3], suspect }
end
if ARGV[6] == '1' then
  local cursor = '0-0'
  for _ = 1, 20 do
    local claimed = redis.call('XAUTOCLAIM', KEYS[1], '${GROUP}', consumer, leaseMs, cursor, 'COUNT', 1)
    for _, entry in ipairs(claimed[2]) do
      local id = live(entry)
      if id then return { take(id, entry[1], 1) } end
    end
    cursor = claimed[1]
    if cursor == '0-0' then break end
  end
end
local leased = {}
local read = redis.call('XREADGROUP', 'GROUP', '${GROUP}', consumer, 'COUNT', limit, 'STREAMS', KEYS[1], '>')
if read then
  for _, entry in ipairs(read[1][2]) do
    local id = live(entry)
    if id then table.insert(leased, take(id, entry[1], 0)) end
  end
end
return leased`;

// KEYS: stream. ARGV: prefix, id, token, lease until, consumer.
const RENEW = `
local key = ARGV[1] .. 'e:' .. ARGV[2]
local row = redis.call('HMGET', key, 'status', 'token', 'msg')
if row[1] ~= 'pending' or row[2] ~= ARGV[3] then return 0 end
redis.call('HSET', key, 'lease_until', ARGV[4])
redis.call('XCLAIM', KEYS[1], '${GROUP}', ARGV[5], 0, row[3], 'JUSTID')
return 1`;

// KEYS: stream, delayed, dead, all, done. ARGV: prefix, id, token, outcome (done | dead | pending), retry at,
// error, done ttl, now. `all` indexes the open events; done and dead ones move to their own index.
const SETTLE = `
local key = ARGV[1] .. 'e:' .. ARGV[2]
local row = redis.call('HMGET', key, 'status', 'token', 'msg')
if row[1] ~= 'pending' or row[2] ~= ARGV[3] then return 0 end
redis.call('XACK', KEYS[1], '${GROUP}', row[3])
redis.call('XDEL', KEYS[1], row[3])
redis.call('HSET', key, 'status', ARGV[4], 'token', '', 'lease_until', 0, 'last_error', ARGV[6])
if ARGV[4] == 'done' then
  redis.call('EXPIRE', key, ARGV[7])
  redis.call('ZREM', KEYS[4], ARGV[2])
  redis.call('ZADD', KEYS[5], ARGV[8], ARGV[2])
elseif ARGV[4] == 'dead' then
  redis.call('ZREM', KEYS[4], ARGV[2])
  redis.call('ZADD', KEYS[3], ARGV[8], ARGV[2])
else redis.call('ZADD', KEYS[2], ARGV[5], ARGV[2]) end
return 1`;

// KEYS: stream, delayed, dead, all, done. ARGV: prefix, id, now.
const REPLAY = `
local key = ARGV[1] .. 'e:' .. ARGV[2]
if redis.call('EXISTS', key) == 0 then return 0 end
redis.call('PERSIST', key)
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[5], ARGV[2])
redis.call('ZADD', KEYS[4], redis.call('HGET', key, 'received_at') or ARGV[3], ARGV[2])
local msg = redis.call('XADD', KEYS[1], '*', 'id', ARGV[2])
redis.call('HSET', key, 'status', 'pending', 'attempts', 0, 'token', '', 'lease_until', 0, 'last_error', '', 'msg', msg)
return 1`;

// KEYS: done, dead, stream. ARGV: prefix, done before, dead before ('' to keep), limit, consumer idle ms.
// Deletes up to limit settled events past retention, oldest first, then consumers with nothing pending
// that sat idle past the given time (every worker start names a new one).
const PRUNE = `
local limit, deleted = tonumber(ARGV[4]), 0
local function drop(index, before, status)
  if deleted >= limit then return end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', '(' .. before, 'LIMIT', 0, limit - deleted)) do
    local key = ARGV[1] .. 'e:' .. id
    if redis.call('HGET', key, 'status') == status then redis.call('DEL', key) end
    redis.call('ZREM', index, id)
    deleted = deleted + 1
  end
end
drop(KEYS[1], ARGV[2], 'done')
if ARGV[3] ~= '' then drop(KEYS[2], ARGV[3], 'dead') end
local trimmed = 0
for _, consumer in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[3], '${GROUP}')) do
  if trimmed >= limit then break end
  local info = {}
  for i = 1, #consumer, 2 do info[consumer[i]] = consumer[i + 1] end
  if tonumber(info.pending) == 0 and tonumber(info.idle) >= tonumber(ARGV[5]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[3], '${GROUP}', info.name)
    trimmed = trimmed + 1
  end
end
return deleted`;

// KEYS: none. ARGV: prefix, id.
const GET = `return redis.call('HGETALL', ARGV[1] .. 'e:' .. ARGV[2])`;

// KEYS: all, done or dead. ARGV: prefix, want, now, limit, most entries read. Bounded: reads at most the given
// number of index entries per call; forgets ids whose hash expired, and settled ids an older version left in
// the open index.
const LIST = `
local found, scanned, start = {}, 0, 0
local limit, most = tonumber(ARGV[4]), tonumber(ARGV[5])
while #found < limit and scanned < most do
  local ids = redis.call('ZRANGE', KEYS[1], start, start + 99)
  if #ids == 0 then break end
  start = start + 100
  for _, id in ipairs(ids) do
    scanned = scanned + 1
    local key = ARGV[1] .. 'e:' .. id
    local row = redis.call('HMGET', key, 'status', 'lease_until')
    local status = row[1]
    if not status then redis.call('ZREM', KEYS[1], id) start = start - 1
    else
      if status == 'pending' and tonumber(row[2]) > tonumber(ARGV[3]) then status = 'processing' end
      if status == ARGV[2] and #found < limit then table.insert(found, { id, redis.call('HGETALL', key) }) end
      if ARGV[6] == 'open' and (status == 'done' or status == 'dead') then
        redis.call('ZREM', KEYS[1], id)
        start = start - 1
      end
    end
  end
end
return found`;

/**
 * An inbox store in Redis Streams. No `tx` and no ordering: make effects idempotent. Run Redis with AOF
 * persistence. While Redis is away calls reject with a {@link DatabaseUnavailableError}.
 */
export class RedisInboxStore implements InboxStore<undefined> {
  readonly #redis: RedisCommands;
  readonly #prefix: string;
  readonly #doneTtl: number;
  readonly #consumerIdleMs: number;
  readonly #stream: string;
  readonly #delayed: string;
  readonly #dead: string;
  readonly #all: string;
  readonly #done: string;

  /** @param client a connected node-redis (v4, v5) or ioredis client; the caller owns its lifecycle. */
  constructor(client: RedisClientLike, options: RedisInboxOptions = {}) {
    if (!isRedisClient(client)) {
      throw new ShopError(
        'RedisInboxStore needs a node-redis or ioredis client (one with set/eval/del, or call).',
      );
    }
    // Connection errors reject as DatabaseUnavailableError: the receiver answers 503, the worker retries.
    this.#redis = redisCommands(client, redisUnavailableOr);
    this.#prefix = options.keyPrefix ?? '{shop-mgmt:inbox}:';
    this.#doneTtl = options.doneTtlSeconds ?? 3 * 24 * 60 * 60;
    if (!Number.isInteger(this.#doneTtl) || this.#doneTtl < 1) {
      throw new ShopError('doneTtlSeconds must be a whole number, 1 or more.');
    }
    this.#consumerIdleMs = options.consumerIdleMs ?? 60 * 60 * 1000;
    if (!Number.isInteger(this.#consumerIdleMs) || this.#consumerIdleMs < 0) {
      throw new ShopError('consumerIdleMs must be a whole number, 0 or more.');
    }
    this.#stream = `${this.#prefix}stream`;
    this.#delayed = `${this.#prefix}delayed`;
    this.#dead = `${this.#prefix}dead`;
    this.#all = `${this.#prefix}all`;
    this.#done = `${this.#prefix}done`;
  }

  async setup(): Promise<void> {
    await this.#redis.evaluate(SETUP, [this.#stream], []);
  }

  async add({ event, source, orderingKey, now }: InboxRecord): Promise<boolean> {
    const added = await this.#redis.evaluate(
      ADD,
      [this.#stream, this.#all],
      [this.#prefix, event.id, JSON.stringify(event), source, orderingKey ?? '', now],
    );
    return Number(added) === 1;
  }

  async lease({
    limit,
    leaseMs,
    now,
    ordered,
    worker,
    alone = true,
    retryHorizonMs,
  }: LeaseRequest): Promise<InboxLease[]> {
    if (ordered) throw new ShopError('The Redis inbox does not support orderingKey; use SQLite or Postgres.');
    if (limit < 1) return [];
    const lease = () =>
      this.#redis.evaluate(
        LEASE,
        [this.#stream, this.#delayed],
        [this.#prefix, limit, leaseMs, now, worker, alone ? 1 : 0, retryHorizonMs ?? ''],
      );
    let rows: unknown[][];
    try {
      rows = (await lease()) as unknown[][];
    } catch (error) {
      // The consumer group is gone (a Redis restarted without persistence, a flush): make it again, or every
      // poll fails and even the events received since wait forever.
      if (!/NOGROUP/.test(error instanceof Error ? error.message : String(error))) throw error;
      await this.setup();
      rows = (await lease()) as unknown[][];
    }
    return (rows ?? []).map((row) => ({
      eventId: String(row[0]),
      event: JSON.parse(String(row[1])) as ShopEvent,
      attempt: Number(row[2]),
      token: String(row[3]),
      source: String(row[4]) as InboxSource,
      orderingKey: row[5] ? String(row[5]) : null,
      suspect: Number(row[6]) === 1,
    }));
  }

  async renew(lease: InboxLease, leaseMs: number, now: number): Promise<boolean> {
    // The consumer that renews becomes the entry's owner; its name does not matter to the lease.
    const reply = await this.#redis.evaluate(
      RENEW,
      [this.#stream],
      [this.#prefix, lease.eventId, lease.token, now + leaseMs, 'renewer'],
    );
    return Number(reply) === 1;
  }

  async complete(
    lease: InboxLease,
    work: (tx: undefined) => Promise<void>,
    now: number,
  ): Promise<'done' | 'lost'> {
    await work(undefined);
    return (await this.#finishLease(lease, 'done', 0, '', now)) ? 'done' : 'lost';
  }

  async fail(lease: InboxLease, { error, retryAt, dead, now }: InboxFailure): Promise<void> {
    await this.#finishLease(lease, dead ? 'dead' : 'pending', retryAt, error, now);
  }

  async replay(eventId: string, now: number): Promise<boolean> {
    const reply = await this.#redis.evaluate(
      REPLAY,
      [this.#stream, this.#delayed, this.#dead, this.#all, this.#done],
      [this.#prefix, eventId, now],
    );
    return Number(reply) === 1;
  }

  async prune({ doneBefore, deadBefore, limit }: PruneRequest): Promise<number> {
    const reply = await this.#redis.evaluate(
      PRUNE,
      [this.#done, this.#dead, this.#stream],
      [this.#prefix, doneBefore, deadBefore ?? '', limit, this.#consumerIdleMs],
    );
    return Number(reply);
  }

  async get(eventId: string, now: number): Promise<InboxEntry | null> {
    const fields = (await this.#redis.evaluate(GET, [], [this.#prefix, eventId])) as unknown[];
    return fields && fields.length > 0 ? entryOf(eventId, fields, now) : null;
  }

  async list(status: InboxStatus, limit: number, now: number): Promise<InboxEntry[]> {
    const index = status === 'dead' ? this.#dead : status === 'done' ? this.#done : this.#all;
    const rows = (await this.#redis.evaluate(
      LIST,
      [index],
      [this.#prefix, status, now, limit, limit + LIST_READ_MORE, index === this.#all ? 'open' : 'settled'],
    )) as unknown[][];
    return (rows ?? []).map((row) => entryOf(String(row[0]), row[1] as unknown[], now));
  }

  async close(): Promise<void> {}

  async #finishLease(
    lease: InboxLease,
    outcome: 'done' | 'dead' | 'pending',
    retryAt: number,
    error: string,
    now: number,
  ): Promise<boolean> {
    const reply = await this.#redis.evaluate(
      SETTLE,
      [this.#stream, this.#delayed, this.#dead, this.#all, this.#done],
      [this.#prefix, lease.eventId, lease.token, outcome, retryAt, error, this.#doneTtl, now],
    );
    return Number(reply) === 1;
  }
}

function entryOf(eventId: string, fields: unknown[], now: number): InboxEntry {
  const row: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) row[String(fields[i])] = String(fields[i + 1]);
  const leased = Number(row.lease_until) > now;
  const status = row.status === 'pending' && leased ? 'processing' : (row.status as InboxStatus);
  return {
    eventId,
    event: JSON.parse(row.event ?? '{}') as ShopEvent,
    status,
    attempts: Number(row.attempts ?? 0),
    source: (row.source ?? 'manual') as InboxSource,
    orderingKey: row.ordering_key ? row.ordering_key : null,
    receivedAt: Number(row.received_at ?? 0),
    lastError: row.last_error ? row.last_error : null,
  };
}
