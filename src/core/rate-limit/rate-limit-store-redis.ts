import { monotonicNow } from '../../internal/monotonic.js';
import {
  isRedisClient,
  type RedisClientLike,
  type RedisCommands,
  redisCommands,
} from '../../internal/redis-client.js';
import { ShopError } from '../errors/shop-error.js';
import type { RateLimitReservation, RateLimitStore } from './rate-limit-store.js';

/** Options of {@link RedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** @default 'shop-mgmt:rate-limit:' */
  keyPrefix?: string;
  /** ms a command may take before local pacing takes over. @default 500 */
  commandTimeoutMs?: number;
}

// The scripts read Redis's clock, shared by every process. One hash per shop: `next` and `paused`.
const NOW = `
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'next', 'paused')
local nextStart = tonumber(state[1]) or 0
local paused = tonumber(state[2]) or 0
`;

// A script run after its caller gave up changes nothing: the caller passes its deadline (-1: unknown).
const LATE = `
local latest = tonumber(ARGV[#ARGV])
if latest >= 0 and now > latest then return { -2, -2, now } end
`;

// reserveIn() of rate-limit-store.ts. ARGV: interval, longest wait, held slot (-1: none), latest.
// Replies { wait, slot, now }; slot -1 when refused, -2 when late.
const RESERVE_SCRIPT = `${NOW}${LATE}
local interval = tonumber(ARGV[1])
local held = tonumber(ARGV[3])
if held >= 0 and paused <= held and now - held <= interval then return { 0, held, now } end
local start = math.max(now, nextStart, paused)
local wait = start - now
if wait > tonumber(ARGV[2]) then return { wait, -1, now } end
nextStart = start + interval
redis.call('HSET', KEYS[1], 'next', nextStart)
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(nextStart, paused) - now) + 1000)
return { wait, start, now }
`;

// ARGV: milliseconds to pause from now, latest. A later pause already set stays. Replies { changed, 0, now }.
const PAUSE_SCRIPT = `${NOW}${LATE}
local untilMs = now + tonumber(ARGV[1])
if untilMs <= paused then return { 0, 0, now } end
redis.call('HSET', KEYS[1], 'paused', untilMs)
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(nextStart, untilMs) - now) + 1000)
return { 1, 0, now }
`;

/**
 * A {@link RateLimitStore} in Redis, shared by every process pacing a shop; a 429 pauses them all.
 * @example
 * const store = new RedisRateLimitStore(new Redis(process.env.REDIS_URL));
 * const shop = new ShopClient({ throttle: { requestsPerMinute: 60, store, key: shopId } });
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: RedisCommands;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  /** The Redis clock minus ours (ms), from the tightest round trip. */
  #offset: number | null = null;
  #offsetRtt = Number.POSITIVE_INFINITY;
  #offsetAt = 0;

  /** @param client a connected node-redis (v4 or v5) or ioredis client. */
  constructor(client: RedisClientLike, options: RedisRateLimitStoreOptions = {}) {
    if (!isRedisClient(client)) {
      throw new ShopError(
        'RedisRateLimitStore needs a node-redis or ioredis client (one with set/eval/del, or call).',
      );
    }
    const timeout = options.commandTimeoutMs ?? 500;
    if (typeof timeout !== 'number' || !(timeout > 0) || timeout > 60_000) {
      throw new ShopError(
        `RedisRateLimitStore: commandTimeoutMs must be 1 to 60000 ms, got ${String(timeout)}`,
      );
    }
    this.#redis = redisCommands(client);
    this.#prefix = options.keyPrefix ?? 'shop-mgmt:rate-limit:';
    this.#timeoutMs = timeout;
  }

  async reserve(
    key: string,
    intervalMs: number,
    maxWaitMs: number,
    heldSlot?: number | null,
  ): Promise<RateLimitReservation> {
    // Lua reads an infinite ARGV as nil.
    const longest = Math.min(maxWaitMs, Number.MAX_SAFE_INTEGER);
    const reply = await this.#run(RESERVE_SCRIPT, key, [intervalMs, longest, heldSlot ?? -1]);
    const [wait, slot] = Array.isArray(reply) ? reply.map(Number) : [];
    if (!Number.isFinite(wait) || !Number.isFinite(slot) || slot === -2) {
      throw new ShopError(`RedisRateLimitStore: unexpected reply from Redis: ${JSON.stringify(reply)}`);
    }
    return { waitMs: Math.max(0, wait!), slot: slot! < 0 ? null : slot! };
  }

  async pause(key: string, ms: number): Promise<void> {
    await this.#run(PAUSE_SCRIPT, key, [Math.ceil(ms)]);
  }

  /** Runs a script against the timeout, passing the deadline so a late run does nothing. */
  async #run(script: string, key: string, args: number[]): Promise<unknown> {
    const sentAt = monotonicNow();
    // Plus the offset's error: half its round trip, at most the timeout.
    const margin = Math.min(this.#offsetRtt / 2, this.#timeoutMs);
    const latest = this.#offset === null ? -1 : Math.ceil(sentAt + this.#offset + this.#timeoutMs + margin);
    const reply = await this.#send(script, key, [...args, latest]);
    const receivedAt = monotonicNow();
    const now = Array.isArray(reply) ? Number(reply[2]) : Number.NaN;
    const rtt = receivedAt - sentAt;
    // The tightest round trip bounds the error best; it expires after a minute.
    if (Number.isFinite(now) && (rtt <= this.#offsetRtt || receivedAt - this.#offsetAt > 60_000)) {
      this.#offset = now - (sentAt + receivedAt) / 2;
      this.#offsetRtt = rtt;
      this.#offsetAt = receivedAt;
    }
    return reply;
  }

  #send(script: string, key: string, args: number[]): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ShopError(`RedisRateLimitStore: Redis did not answer within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
    });
    const command = this.#redis.evaluate(script, [this.#prefix + key], args).catch((cause: unknown) => {
      throw new ShopError(`RedisRateLimitStore: ${cause instanceof Error ? cause.message : String(cause)}`, {
        cause,
      });
    });
    return Promise.race([command, timeout]).finally(() => clearTimeout(timer));
  }
}
