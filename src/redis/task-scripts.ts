/**
 * The Redis task store's Lua scripts (one atomic script per call). Keys, T
 * being the prefix plus `task:`:
 *   T t:<id>       HASH owner, principal, createdAt, lastUpdatedAt, ttlMs, base, bytes, holder,
 *                  f:<field> (the field's JSON), b:<field> (its payload bytes)
 *   T o:<owner>    HASH count, bytes
 *   T total        HASH count, bytes
 *   T exp          ZSET id → time (ms) a finished task is forgotten
 *   T lease        ZSET id → time (ms) an unfinished task fails unless its instance renews it
 * Every script first forgets expired tasks and fails those whose lease ran out (a few per call).
 */
import { RedisScript } from './client.js';

const PRELUDE = `
local T = ARGV[1]
local now, prepaid = tonumber(ARGV[2]), tonumber(ARGV[3])
-- The error a task gets when its lease runs out (JSON), and its payload bytes.
local leaseError, leaseErrorBytes = ARGV[4], tonumber(ARGV[5])
local TERMINAL = { ['"completed"'] = true, ['"failed"'] = true, ['"cancelled"'] = true }
local PAYLOAD = { 'statusMessage', 'result', 'error', 'inputRequests' }

local function charge(owner, count, bytes)
  local o = T .. 'o:' .. owner
  redis.call('HINCRBY', o, 'count', count)
  redis.call('HINCRBY', o, 'bytes', bytes)
  redis.call('HINCRBY', T .. 'total', 'count', count)
  redis.call('HINCRBY', T .. 'total', 'bytes', bytes)
  if tonumber(redis.call('HGET', o, 'count')) <= 0 then redis.call('DEL', o) end
end

local function drop(id)
  local key = T .. 't:' .. id
  local meta = redis.call('HMGET', key, 'owner', 'bytes')
  if not meta[1] then return end
  redis.call('DEL', key)
  redis.call('ZREM', T .. 'exp', id)
  redis.call('ZREM', T .. 'lease', id)
  charge(meta[1], -1, -tonumber(meta[2]))
end

-- The bytes a record is charged once its payload is \`payload\`.
local function recordBytes(key, payload)
  return tonumber(redis.call('HGET', key, 'base')) + math.max(0, payload - prepaid)
end

-- Ends a task now: its fields \`fields\` (name → JSON or false to remove, with payload bytes) applied without limits.
local function finish(id, status, errorJson, errorBytes, iso)
  local key = T .. 't:' .. id
  local owner = redis.call('HGET', key, 'owner')
  local payload = tonumber(redis.call('HGET', key, 'b:statusMessage') or '0') + (errorBytes or 0) + tonumber(redis.call('HGET', key, 'b:result') or '0')
  redis.call('HDEL', key, 'f:inputRequests', 'b:inputRequests')
  redis.call('HSET', key, 'f:status', status, 'lastUpdatedAt', iso)
  if errorJson then redis.call('HSET', key, 'f:error', errorJson, 'b:error', errorBytes) end
  local bytes = recordBytes(key, payload)
  charge(owner, 0, bytes - tonumber(redis.call('HGET', key, 'bytes')))
  redis.call('HSET', key, 'bytes', bytes)
  redis.call('ZREM', T .. 'lease', id)
  redis.call('ZADD', T .. 'exp', now + tonumber(redis.call('HGET', key, 'ttlMs')), id)
end

-- Tells the instances following the task (RedisTaskChannel: <prefix>tasks:s:<id>, T being <prefix>task:) what it is now.
local function publishChange(id)
  local flat = redis.call('HGETALL', T .. 't:' .. id)
  local record = { taskId = id }
  for i = 1, #flat, 2 do
    local field, value = flat[i], flat[i + 1]
    if field == 'owner' or field == 'principal' or field == 'createdAt' or field == 'lastUpdatedAt' then record[field] = value
    elseif field == 'ttlMs' then record[field] = tonumber(value)
    elseif string.sub(field, 1, 2) == 'f:' then record[string.sub(field, 3)] = cjson.decode(value) end
  end
  redis.call('PUBLISH', string.sub(T, 1, #T - 5) .. 'tasks:s:' .. id, cjson.encode({ origin = 'store', record = record }))
end

-- Its status message repeats the error's, so a client that reads only the status learns why.
local function leaseLost(id, iso)
  local message = cjson.decode(leaseError).message
  redis.call('HSET', T .. 't:' .. id, 'f:statusMessage', cjson.encode(message), 'b:statusMessage', #message)
  finish(id, '"failed"', leaseError, leaseErrorBytes, iso)
  publishChange(id)
end

local function sweep(iso)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', T .. 'exp', '-inf', now, 'LIMIT', 0, 256)) do drop(id) end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', T .. 'lease', '-inf', now, 'LIMIT', 0, 64)) do leaseLost(id, iso) end
end

local function record(id)
  return redis.call('HGETALL', T .. 't:' .. id)
end
`;

/** Common ARGV: prefix, now (ms), prepaid payload, lease error JSON, its bytes, now (ISO). Then the script's own. */
const ISO = 'ARGV[6]';

/**
 * Own ARGV: id, owner, principal ('' none), ttlMs, pollIntervalMs JSON, base bytes,
 * maxTasks, maxTasksPerOwner, maxBytes, maxBytesPerOwner, lease deadline (ms), holder.
 * Answers {'ok'} or {limit, count, bytes}.
 */
export const CREATE = new RedisScript(`${PRELUDE}
sweep(${ISO})
local id, owner, principal, ttl, poll, base = ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11], tonumber(ARGV[12])
local maxTasks, maxPerOwner, maxBytes, maxOwnerBytes = tonumber(ARGV[13]), tonumber(ARGV[14]), tonumber(ARGV[15]), tonumber(ARGV[16])
local usage = redis.call('HMGET', T .. 'o:' .. owner, 'count', 'bytes')
local count, bytes = tonumber(usage[1] or '0'), tonumber(usage[2] or '0')
if count >= maxPerOwner then return { 'maxTasksPerOwner', count, bytes } end
if bytes + base > maxOwnerBytes then return { 'maxBytesPerOwner', count, bytes } end
local total = redis.call('HMGET', T .. 'total', 'count', 'bytes')
if tonumber(total[1] or '0') >= maxTasks then return { 'maxTasks', count, bytes } end
if tonumber(total[2] or '0') + base > maxBytes then return { 'maxBytes', count, bytes } end
local key = T .. 't:' .. id
redis.call('HSET', key, 'owner', owner, 'createdAt', ${ISO}, 'lastUpdatedAt', ${ISO}, 'ttlMs', ttl, 'base', base, 'bytes', base,
  'holder', ARGV[18], 'f:status', '"working"', 'f:pollIntervalMs', poll)
if principal ~= '' then redis.call('HSET', key, 'principal', principal) end
charge(owner, 1, base)
redis.call('ZADD', T .. 'lease', tonumber(ARGV[17]), id)
return { 'ok' }
`);

/** Own ARGV: id. Answers the record's fields (HGETALL), or false. */
export const GET = new RedisScript(`${PRELUDE}
sweep(${ISO})
local id = ARGV[7]
local key = T .. 't:' .. id
if redis.call('EXISTS', key) == 0 then return false end
local expires = redis.call('ZSCORE', T .. 'exp', id)
if expires and tonumber(expires) <= now then
  drop(id)
  return false
end
local lease = redis.call('ZSCORE', T .. 'lease', id)
if lease and tonumber(lease) <= now then leaseLost(id, ${ISO}) end
return record(id)
`);

/**
 * Own ARGV: id, maxTaskBytes, maxBytesPerOwner, maxBytes, then triples (field, JSON or '' to
 * remove, payload bytes). Answers {'ok', fields…}, {'terminal', fields…}, {limit, payload} or false.
 */
export const UPDATE = new RedisScript(`${PRELUDE}
sweep(${ISO})
local id, maxTaskBytes, maxOwnerBytes, maxBytes = ARGV[7], tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local key = T .. 't:' .. id
if redis.call('EXISTS', key) == 0 then return false end
local lease = redis.call('ZSCORE', T .. 'lease', id)
if lease and tonumber(lease) <= now then leaseLost(id, ${ISO}) end
if TERMINAL[redis.call('HGET', key, 'f:status')] then return { 'terminal', unpack(record(id)) } end
local patch, sizes = {}, {}
for i = 11, #ARGV, 3 do
  patch[ARGV[i]] = ARGV[i + 1]
  sizes[ARGV[i]] = tonumber(ARGV[i + 2])
end
local payload = 0
for _, field in ipairs(PAYLOAD) do
  if patch[field] ~= nil then payload = payload + (patch[field] == '' and 0 or sizes[field])
  else payload = payload + tonumber(redis.call('HGET', key, 'b:' .. field) or '0') end
end
if payload > maxTaskBytes then return { 'maxTaskBytes', payload } end
local owner = redis.call('HGET', key, 'owner')
local bytes = recordBytes(key, payload)
local delta = bytes - tonumber(redis.call('HGET', key, 'bytes'))
if delta > 0 and tonumber(redis.call('HGET', T .. 'o:' .. owner, 'bytes') or '0') + delta > maxOwnerBytes then return { 'maxBytesPerOwner', payload } end
if delta > 0 and tonumber(redis.call('HGET', T .. 'total', 'bytes') or '0') + delta > maxBytes then return { 'maxBytes', payload } end
for field, json in pairs(patch) do
  if json == '' then redis.call('HDEL', key, 'f:' .. field, 'b:' .. field)
  else redis.call('HSET', key, 'f:' .. field, json, 'b:' .. field, sizes[field]) end
end
redis.call('HSET', key, 'lastUpdatedAt', ${ISO}, 'bytes', bytes)
charge(owner, 0, delta)
if TERMINAL[redis.call('HGET', key, 'f:status')] then
  redis.call('ZREM', T .. 'lease', id)
  redis.call('ZADD', T .. 'exp', now + tonumber(redis.call('HGET', key, 'ttlMs')), id)
end
return { 'ok', unpack(record(id)) }
`);

/**
 * Own ARGV: lease deadline (ms), then ids. Renews the leases of those still running; answers the ids that are not.
 * Its sweep records the tasks of dead instances as failed within a renewal period while any instance runs tasks.
 */
export const RENEW = new RedisScript(`${PRELUDE}
sweep(${ISO})
local deadline = tonumber(ARGV[7])
local gone = {}
for i = 8, #ARGV do
  if redis.call('ZSCORE', T .. 'lease', ARGV[i]) then redis.call('ZADD', T .. 'lease', deadline, ARGV[i])
  else gone[#gone + 1] = ARGV[i] end
end
return gone
`);

/** Own ARGV: owner. Answers {total count, total bytes, owner count, owner bytes} (for tests and metrics). */
export const TASK_USAGE = new RedisScript(`${PRELUDE}
sweep(${ISO})
local total = redis.call('HMGET', T .. 'total', 'count', 'bytes')
local usage = redis.call('HMGET', T .. 'o:' .. ARGV[7], 'count', 'bytes')
return { tonumber(total[1] or '0'), tonumber(total[2] or '0'), tonumber(usage[1] or '0'), tonumber(usage[2] or '0') }
`);
