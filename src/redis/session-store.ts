/**
 * Legacy sessions on Redis, as records only (the live connection is rebuilt
 * from the record on any instance). One hash per session, keyed by the digest
 * of its principal and its id, so another principal's lookup names another key:
 *   <prefix>session:<principal digest>:<id> → r (record JSON), s (subscriptions
 *   JSON), p (principal), c (created), h (GET stream holder), v (rev), q (quota owner)
 * and a reverse index of subscriptions, one set per URI, so a delete removes
 * them without SCAN:   <prefix>subs:<uri> → { <principal digest>:<id> }
 * and, for the cluster-wide quotas, sorted sets scored by expiry time:
 *   <prefix>sessions → every session;  <prefix>owner:<owner digest> → an owner's
 * (the hash's field o names the latter).
 */
import { createHash } from 'node:crypto';
import type { SharedSession, SharedSessionStore, StoredSessionRecord } from '../stores/shared-sessions.js';
import { RedisCommands, RedisScript, type RedisClientLike, type RedisStoreOptions } from './client.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';

export interface RedisSessionStoreOptions extends RedisStoreOptions {
  /** Idle time before a session expires (ms, default 30 minutes); every use restarts it. */
  idleTimeoutMs?: number;
}

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

const FIELDS = "'r', 'p', 'c', 'h', 'v', 'q'";
/** Redis's clock in ms, so every instance scores expiry on one clock. */
const NOW = `local t = redis.call('TIME'); local now = t[1] * 1000 + math.floor(t[2] / 1000)`;

// ARGV: key, subs prefix, member, ttl, record, subscriptions, principal, created, all sessions, owner set ('' = none), owner
const CREATE = new RedisScript(`
if redis.call('EXISTS', ARGV[1]) == 1 then return 0 end
${NOW}
redis.call('HSET', ARGV[1], 'r', ARGV[5], 's', ARGV[6], 'p', ARGV[7], 'c', ARGV[8], 'v', 1)
redis.call('PEXPIRE', ARGV[1], ARGV[4])
for _, uri in ipairs(cjson.decode(ARGV[6])) do redis.call('SADD', ARGV[2] .. uri, ARGV[3]) end
redis.call('ZREMRANGEBYSCORE', ARGV[9], '-inf', now)
redis.call('ZADD', ARGV[9], now + ARGV[4], ARGV[3])
if ARGV[10] ~= '' then
  redis.call('HSET', ARGV[1], 'o', ARGV[10], 'q', ARGV[11])
  redis.call('ZADD', ARGV[10], now + ARGV[4], ARGV[3])
  redis.call('PEXPIRE', ARGV[10], ARGV[4])
end
return 1`);

// ARGV: key, ttl, all sessions, member — touch on use (the quota sets too)
const LOAD = new RedisScript(`
local fields = redis.call('HMGET', ARGV[1], ${FIELDS}, 'o')
if not fields[1] then return false end
${NOW}
redis.call('PEXPIRE', ARGV[1], ARGV[2])
redis.call('ZADD', ARGV[3], now + ARGV[2], ARGV[4])
if fields[7] then
  redis.call('ZADD', fields[7], now + ARGV[2], ARGV[4])
  redis.call('PEXPIRE', fields[7], ARGV[2])
end
return fields`);

// ARGV: key, subs prefix, member, record, subscriptions — keeps the TTL
const UPDATE = new RedisScript(`
local old = redis.call('HGET', ARGV[1], 's')
if not old then return false end
local keep = {}
local new = cjson.decode(ARGV[5])
for _, uri in ipairs(new) do keep[uri] = true end
for _, uri in ipairs(cjson.decode(old)) do
  if not keep[uri] then redis.call('SREM', ARGV[2] .. uri, ARGV[3]) end
end
for _, uri in ipairs(new) do redis.call('SADD', ARGV[2] .. uri, ARGV[3]) end
redis.call('HSET', ARGV[1], 'r', ARGV[4], 's', ARGV[5])
redis.call('HINCRBY', ARGV[1], 'v', 1)
return redis.call('HMGET', ARGV[1], ${FIELDS})`);

// ARGV: key, instance
const HOLD = new RedisScript(`
if redis.call('EXISTS', ARGV[1]) == 0 then return false end
redis.call('HSET', ARGV[1], 'h', ARGV[2])
return redis.call('HMGET', ARGV[1], ${FIELDS})`);

// ARGV: key, subs prefix, member, all sessions
const DELETE = new RedisScript(`
local fields = redis.call('HMGET', ARGV[1], ${FIELDS}, 'o')
if not fields[1] then return false end
local subs = redis.call('HGET', ARGV[1], 's')
for _, uri in ipairs(cjson.decode(subs or '[]')) do redis.call('SREM', ARGV[2] .. uri, ARGV[3]) end
redis.call('ZREM', ARGV[4], ARGV[3])
if fields[7] then redis.call('ZREM', fields[7], ARGV[3]) end
redis.call('DEL', ARGV[1])
return fields`);

// ARGV: owner set, all sessions — expired members are dropped first
const COUNT = new RedisScript(`
${NOW}
redis.call('ZREMRANGEBYSCORE', ARGV[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', ARGV[2], '-inf', now)
return { redis.call('ZCARD', ARGV[1]), redis.call('ZCARD', ARGV[2]) }`);

// ARGV: subs key, session key prefix — members whose session expired are dropped on the way
const SUBSCRIBERS = new RedisScript(`
local live = {}
for _, member in ipairs(redis.call('SMEMBERS', ARGV[1])) do
  if redis.call('EXISTS', ARGV[2] .. member) == 1 then table.insert(live, member)
  else redis.call('SREM', ARGV[1], member) end
end
return live`);

/** The principal as a key segment: a digest (no raw subject in key names), `_` when unauthenticated. */
function principalKey(principal: string | undefined): string {
  return principal === undefined ? '_' : digest(principal);
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

const REDIS_SESSION_STORE_KEYS = keysOf<RedisSessionStoreOptions>({ idleTimeoutMs: true, prefix: true, commandTimeoutMs: true, retryAfterSeconds: true, onError: true, subscriber: true });

export class RedisSessionStore implements SharedSessionStore {
  readonly idleTimeoutMs: number;
  readonly #commands: RedisCommands;

  constructor(client: RedisClientLike, options: RedisSessionStoreOptions = {}) {
    refuseUnknownKeys(options, REDIS_SESSION_STORE_KEYS, 'new RedisSessionStore() options');
    this.#commands = new RedisCommands(client, options);
    const idle = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
    if (!Number.isFinite(idle) || idle <= 0) throw new RangeError(`mcpkit/redis: idleTimeoutMs must be a positive number (got ${idle})`);
    this.idleTimeoutMs = Math.ceil(idle);
  }

  async create(id: string, principal: string | undefined, session: SharedSession): Promise<boolean> {
    const { key, member } = this.#keys(id, principal);
    const created = await this.#commands.run(CREATE, [
      key,
      this.#subsPrefix,
      member,
      String(this.idleTimeoutMs),
      JSON.stringify(session.record),
      JSON.stringify(session.record.subscriptions),
      principal ?? '',
      String(session.createdAt),
      this.#all,
      session.owner === undefined ? '' : this.#ownerKey(session.owner),
      session.owner ?? '',
    ]);
    return Number(created) === 1;
  }

  async load(id: string, principal: string | undefined): Promise<SharedSession | undefined> {
    const { key, member } = this.#keys(id, principal);
    return decode(await this.#commands.run(LOAD, [key, String(this.idleTimeoutMs), this.#all, member]));
  }

  async update(id: string, principal: string | undefined, record: StoredSessionRecord): Promise<SharedSession | undefined> {
    const { key, member } = this.#keys(id, principal);
    return decode(await this.#commands.run(UPDATE, [key, this.#subsPrefix, member, JSON.stringify(record), JSON.stringify(record.subscriptions)]));
  }

  async hold(id: string, principal: string | undefined, instanceId: string): Promise<SharedSession | undefined> {
    return decode(await this.#commands.run(HOLD, [this.#keys(id, principal).key, instanceId]));
  }

  async delete(id: string, principal: string | undefined): Promise<SharedSession | undefined> {
    const { key, member } = this.#keys(id, principal);
    return decode(await this.#commands.run(DELETE, [key, this.#subsPrefix, member, this.#all]));
  }

  async count(owner: string): Promise<{ owner: number; total: number }> {
    const reply = await this.#commands.run(COUNT, [this.#ownerKey(owner), this.#all]);
    const counts: unknown[] = Array.isArray(reply) ? (reply as unknown[]) : [];
    return { owner: Number(counts[0] ?? 0), total: Number(counts[1] ?? 0) };
  }

  async ping(): Promise<void> {
    await this.#commands.send(['PING']);
  }

  async subscribers(uri: string): Promise<string[]> {
    const members = await this.#commands.run(SUBSCRIBERS, [this.#subsPrefix + uri, `${this.#commands.prefix}session:`]);
    return Array.isArray(members) ? members.map((member) => String(member).slice(String(member).indexOf(':') + 1)) : [];
  }

  get #all(): string {
    return `${this.#commands.prefix}sessions`;
  }

  #ownerKey(owner: string): string {
    return `${this.#commands.prefix}owner:${digest(owner)}`;
  }

  get #subsPrefix(): string {
    return `${this.#commands.prefix}subs:`;
  }

  #keys(id: string, principal: string | undefined): { key: string; member: string } {
    const member = `${principalKey(principal)}:${id}`;
    return { key: `${this.#commands.prefix}session:${member}`, member };
  }
}

/** HMGET r p c h v → a SharedSession; a reply that is not one (nil: gone) → undefined. */
function decode(reply: unknown): SharedSession | undefined {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string') return undefined;
  const [record, principal, created, holder, rev, owner] = reply as (string | null)[];
  const session: { -readonly [K in keyof SharedSession]: SharedSession[K] } = {
    record: JSON.parse(record!) as StoredSessionRecord,
    createdAt: Number(created),
    rev: Number(rev),
  };
  if (principal !== null && principal !== undefined && principal !== '') session.principal = principal;
  if (holder !== null && holder !== undefined && holder !== '') session.holder = holder;
  if (owner !== null && owner !== undefined && owner !== '') session.owner = owner;
  return session;
}
