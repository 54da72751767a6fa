-- Append one move's events to a game's log, atomically.
-- KEYS[1] log stream, KEYS[2] meta hash, KEYS[3] idempotency hash (all share the {g:<id>} tag)
-- ARGV[1] expected version (the number of events the caller based its decision on)
-- ARGV[2] idempotency field ('' for none), ARGV[3] request fingerprint
-- ARGV[4] the new head hash, ARGV[5] the expected head hash ('' to skip: a new game),
-- ARGV[6] n: count of meta field/value pairs that follow, then 2n meta fields/values,
-- then one JSON document per event.
-- On success, publishes '<game id> <new version> <status>' on 'news:<game name>:<game id>' (shared/log/news.py
-- wakes the feed's waiters with it).
-- Returns {'OK', version} | {'DUPLICATE', 'version|fingerprint|first_seq'}
--       | {'CONFLICT', current_version, entries after the expected version (at most 100)}
-- The entries let a writer that decided on an outdated copy catch up without another read.
if ARGV[2] ~= '' then
  local prior = redis.call('HGET', KEYS[3], ARGV[2])
  if prior then return {'DUPLICATE', prior} end
end
local current = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local expected = tonumber(ARGV[1])
if current ~= expected or (ARGV[5] ~= '' and redis.call('HGET', KEYS[2], 'head') ~= ARGV[5]) then
  local missed = redis.call('XRANGE', KEYS[1], '0-' .. (expected + 1), '+', 'COUNT', 100)
  return {'CONFLICT', tostring(current), missed}
end
local pairs_count = tonumber(ARGV[6])
local fields = {'version', 0, 'head', ARGV[4]}
local i = 7
for _ = 1, pairs_count do
  fields[#fields + 1] = ARGV[i]
  fields[#fields + 1] = ARGV[i + 1]
  i = i + 2
end
local seq = current
while i <= #ARGV do
  seq = seq + 1
  -- Explicit ids 0-<seq>: XADD refuses a non-increasing id, a second guard against gaps.
  redis.call('XADD', KEYS[1], '0-' .. seq, 'e', ARGV[i])
  i = i + 1
end
fields[2] = seq
redis.call('HSET', KEYS[2], unpack(fields))
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[2], seq .. '|' .. ARGV[3] .. '|' .. (current + 1))
end
local title = redis.call('HGET', KEYS[2], 'game')
if title then
  local status = redis.call('HGET', KEYS[2], 'status') or 'active'
  local game_id = string.match(KEYS[1], '^{g:(.*)}:log$')
  redis.call('PUBLISH', 'news:' .. title .. ':' .. game_id, game_id .. ' ' .. seq .. ' ' .. status)
end
return {'OK', tostring(seq)}
