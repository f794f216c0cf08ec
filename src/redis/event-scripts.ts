/**
 * The Redis event store's Lua scripts: each call is one atomic script, so the
 * byte and count accounting of several instances never races. Keys (P is the
 * prefix plus `ev:`), each with one variable part at its end:
 *   P seq              INCR: event sequence across all streams (ids never reused)
 *   P total            HASH bytes, events
 *   P exp              ZSET stream id → time (ms) after which it expires unwritten
 *   P o:<owner>        HASH bytes, events, client
 *   P ol:<owner>       ZSET stream id → sequence of its last write (least recent first)
 *   P c:<client>       HASH bytes
 *   P cl:<client>      ZSET stream id → sequence of its last write, across the client's owners
 *   P m:<stream>       HASH owner, bytes, floor, last, finished
 *   P s:<stream>       STREAM entries `<seq>-0` with fields n (size) [d (message JSON)]
 * Channel P n:<stream> hears every change of that stream (followers re-read).
 */
import { RedisScript } from './client.js';

/** Accounting shared by the scripts that change streams. */
const PRELUDE = `
local P = ARGV[1]
local EVENT_OVERHEAD, STREAM_OVERHEAD = 64, 256

local function clientOf(owner)
  return redis.call('HGET', P .. 'o:' .. owner, 'client') or ''
end

local function charge(owner, client, bytes, events)
  redis.call('HINCRBY', P .. 'o:' .. owner, 'bytes', bytes)
  redis.call('HINCRBY', P .. 'o:' .. owner, 'events', events)
  if client ~= '' then redis.call('HINCRBY', P .. 'c:' .. client, 'bytes', bytes) end
  redis.call('HINCRBY', P .. 'total', 'bytes', bytes)
  redis.call('HINCRBY', P .. 'total', 'events', events)
end

local function dropStream(s)
  local m = P .. 'm:' .. s
  local owner = redis.call('HGET', m, 'owner')
  if not owner then return end
  local bytes = tonumber(redis.call('HGET', m, 'bytes'))
  local events = redis.call('XLEN', P .. 's:' .. s)
  local client = clientOf(owner)
  redis.call('DEL', m, P .. 's:' .. s)
  redis.call('ZREM', P .. 'ol:' .. owner, s)
  if client ~= '' then redis.call('ZREM', P .. 'cl:' .. client, s) end
  redis.call('ZREM', P .. 'exp', s)
  charge(owner, client, -(bytes + STREAM_OVERHEAD), -events)
  if redis.call('ZCARD', P .. 'ol:' .. owner) == 0 then redis.call('DEL', P .. 'o:' .. owner) end
  if client ~= '' and redis.call('ZCARD', P .. 'cl:' .. client) == 0 then redis.call('DEL', P .. 'c:' .. client) end
  redis.call('PUBLISH', P .. 'n:' .. s, 'dropped')
end

local function dropFirst(s)
  local first = redis.call('XRANGE', P .. 's:' .. s, '-', '+', 'COUNT', 1)[1]
  if not first then return false end
  local size = tonumber(first[2][2])
  local m = P .. 'm:' .. s
  local owner = redis.call('HGET', m, 'owner')
  redis.call('XDEL', P .. 's:' .. s, first[1])
  redis.call('HSET', m, 'floor', string.match(first[1], '^(%d+)'))
  redis.call('HINCRBY', m, 'bytes', -size)
  charge(owner, clientOf(owner), -size, -1)
  return true
end

local function sweep(now)
  for _, s in ipairs(redis.call('ZRANGEBYSCORE', P .. 'exp', '-inf', now, 'LIMIT', 0, 16)) do dropStream(s) end
end
`;

/**
 * ARGV: prefix, owner, stream, data, hasData (1/0), client ('' none), maxBytesPerStream,
 * maxBytesPerOwner, maxBytesPerClient, maxBytes, maxEventsPerStream, maxEvents, now (ms), ttl (ms).
 * Answers the event's sequence, or the string 'owner' when the stream is another owner's.
 */
export const APPEND = new RedisScript(`${PRELUDE}
local owner, s, data, hasData, givenClient = ARGV[2], ARGV[3], ARGV[4], ARGV[5] == '1', ARGV[6]
local maxStreamBytes, maxOwnerBytes, maxClientBytes = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local maxBytes, maxStreamEvents, maxEvents = tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12])
local now, ttl = tonumber(ARGV[13]), tonumber(ARGV[14])

sweep(now)
local m = P .. 'm:' .. s
local current = redis.call('HGET', m, 'owner')
if current and current ~= owner then return 'owner' end
local seq = redis.call('INCR', P .. 'seq')
local o = P .. 'o:' .. owner
if not current then
  -- An owner keeps the client it was first appended with.
  if redis.call('EXISTS', o) == 0 then redis.call('HSET', o, 'bytes', 0, 'events', 0, 'client', givenClient) end
  redis.call('HSET', m, 'owner', owner, 'bytes', 0, 'floor', seq, 'last', seq)
  charge(owner, clientOf(owner), STREAM_OVERHEAD, 0)
end
local client = clientOf(owner)
local size = EVENT_OVERHEAD + (hasData and #data or 0)
if hasData then
  redis.call('XADD', P .. 's:' .. s, seq .. '-0', 'n', size, 'd', data)
else
  redis.call('XADD', P .. 's:' .. s, seq .. '-0', 'n', size)
end
redis.call('HSET', m, 'last', seq)
redis.call('HINCRBY', m, 'bytes', size)
redis.call('ZADD', P .. 'ol:' .. owner, seq, s)
if client ~= '' then redis.call('ZADD', P .. 'cl:' .. client, seq, s) end
charge(owner, client, size, 1)

local stream = P .. 's:' .. s
while true do
  local n = redis.call('XLEN', stream)
  if n == 0 or (tonumber(redis.call('HGET', m, 'bytes')) <= maxStreamBytes and n <= maxStreamEvents) then break end
  dropFirst(s)
end

-- Frees room within one owner's or one client's streams: the least recently
-- written other stream, else the oldest event of this one, else this one.
local function makeRoom(lru)
  for _, other in ipairs(redis.call('ZRANGE', lru, 0, 1)) do
    if other ~= s then
      dropStream(other)
      return true
    end
  end
  if redis.call('XLEN', stream) > 0 then return dropFirst(s) end
  if redis.call('EXISTS', m) == 1 then
    dropStream(s)
    return true
  end
  return false
end

local function over()
  local ownerBytes = tonumber(redis.call('HGET', o, 'bytes') or '0')
  local total = redis.call('HMGET', P .. 'total', 'bytes', 'events')
  return ownerBytes > maxOwnerBytes or tonumber(total[1]) > maxBytes or tonumber(total[2]) > maxEvents
end
while over() do
  if not makeRoom(P .. 'ol:' .. owner) then break end
end
if client ~= '' then
  while tonumber(redis.call('HGET', P .. 'c:' .. client, 'bytes') or '0') > maxClientBytes do
    if not makeRoom(P .. 'cl:' .. client) then break end
  end
end
if redis.call('EXISTS', m) == 1 then redis.call('ZADD', P .. 'exp', now + ttl, s) end
redis.call('PUBLISH', P .. 'n:' .. s, seq)
return seq
`);

/**
 * ARGV: prefix, owner, stream, after (sequence). Answers false when the stream
 * cannot be resumed from there, else {finished (1/0), seq, data, seq, data, …}
 * for the messages after it (priming positions skipped).
 */
export const READ = new RedisScript(`
local P, owner, s, after = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local meta = redis.call('HMGET', P .. 'm:' .. s, 'owner', 'floor', 'last', 'finished')
if meta[1] ~= owner then return false end
if after < tonumber(meta[2]) or after > tonumber(meta[3]) then return false end
local out = { meta[4] and 1 or 0 }
for _, entry in ipairs(redis.call('XRANGE', P .. 's:' .. s, '(' .. after .. '-0', '+')) do
  local fields = entry[2]
  if fields[3] == 'd' then
    out[#out + 1] = string.match(entry[1], '^(%d+)')
    out[#out + 1] = fields[4]
  end
end
return out
`);

/** ARGV: prefix, owner. Drops every stream of the owner. */
export const RELEASE = new RedisScript(`${PRELUDE}
local owner = ARGV[2]
for _, s in ipairs(redis.call('ZRANGE', P .. 'ol:' .. owner, 0, -1)) do dropStream(s) end
redis.call('DEL', P .. 'o:' .. owner, P .. 'ol:' .. owner)
return 1
`);

/** ARGV: prefix, owner, stream. Marks the owner's stream finished and tells its followers. */
export const FINISH = new RedisScript(`
local P, owner, s = ARGV[1], ARGV[2], ARGV[3]
if redis.call('HGET', P .. 'm:' .. s, 'owner') ~= owner then return 0 end
redis.call('HSET', P .. 'm:' .. s, 'finished', 1)
redis.call('PUBLISH', P .. 'n:' .. s, 'finished')
return 1
`);

/** ARGV: prefix, owner, client. Answers {total bytes, total events, owner bytes, client bytes} (for tests and metrics). */
export const USAGE = new RedisScript(`
local P = ARGV[1]
local total = redis.call('HMGET', P .. 'total', 'bytes', 'events')
return { tonumber(total[1] or '0'), tonumber(total[2] or '0'), tonumber(redis.call('HGET', P .. 'o:' .. ARGV[2], 'bytes') or '0'), tonumber(redis.call('HGET', P .. 'c:' .. ARGV[3], 'bytes') or '0') }
`);
