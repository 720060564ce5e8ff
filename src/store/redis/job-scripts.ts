/**
 * The Redis queue's Lua scripts: every state change of a job, with every index it touches, is one
 * script, so it is atomic across all the processes sharing the Redis server (Redis runs one script
 * at a time). Scripts build their key names from the prefix (ARGV[1]); they need a single Redis node
 * (or a prefix with a `{hash tag}`, so every key lands in one slot).
 *
 * Every script's ARGV starts the same way: prefix, now (epoch ms), the outcome templates (see
 * `outcomeTemplates`), then the state machine (`transitionArgs` of ../job-transitions.ts: which state may
 * go to which, and the requeue bound), so no script holds a copy of it; its own arguments start at ARGV[10].
 *
 * Keys, under `<prefix>:`
 *   job:<id>             hash: crewbot's record of one job (see job-records.ts)
 *   delivery:<delivery>  the job id a delivery made (a redelivered webhook finds it)
 *   seq                  counter: the order jobs were enqueued in
 *   all                  zset id → seq: every job (listRecent)
 *   state:<state>        zset id → seq: the jobs in that state
 *   target:<targetKey>   zset id → seq: every job of an issue or PR
 *   active:<targetKey>   zset id → seq: its queued and running jobs (its line)
 *   runat                zset id → runAt: queued jobs (nextRunAt)
 *   inst-running:<inst>  zset id → seq: an installation's running jobs (its count)
 */
import { cancelledOutcome, supersededOutcome } from "../../queue/job-queue.js";

/** ARGV[3..7]: the outcome lines, so the scripts word them exactly as the rest of crewbot does. */
export function outcomeTemplates(): string[] {
  const [byA, byB] = cancelledOutcome("\u0000").split("\u0000") as [string, string];
  const [supA, supB] = supersededOutcome("\u0000").split("\u0000") as [string, string];
  return [cancelledOutcome(), byA, byB, supA, supB];
}

const COMMON = `
local P, NOW = ARGV[1], ARGV[2]
local T_CANCEL, T_BY_A, T_BY_B, T_SUP_A, T_SUP_B = ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local ALLOWED = {}
for pair in string.gmatch(ARGV[8], '[^,]+') do ALLOWED[pair] = true end
local REQUEUE_BELOW = tonumber(ARGV[9])
local A = 10
local function may(from, to) return ALLOWED[from .. '>' .. to] == true end
local function jk(id) return P .. ':job:' .. id end
local function snap(id) return redis.call('HGETALL', jk(id)) end
local function fmt(n) return string.format('%d', n) end
local function superseded(by) return T_SUP_A .. by .. T_SUP_B end

-- Moves a job to another state, keeping every index in step.
local function move(id, to)
  local k = jk(id)
  local from, seq, tkey, inst = unpack(redis.call('HMGET', k, 'state', 'seq', 'tkey', 'inst'))
  -- Callers choose only allowed moves; this guard fires before any write of the move.
  if not may(from, to) then error('crewbot: a ' .. from .. ' job may not become ' .. to) end
  redis.call('ZREM', P .. ':state:' .. from, id)
  redis.call('ZADD', P .. ':state:' .. to, seq, id)
  if from == 'queued' then redis.call('ZREM', P .. ':runat', id) end
  if from == 'running' then redis.call('ZREM', P .. ':inst-running:' .. inst, id) end
  if to == 'queued' then redis.call('ZADD', P .. ':runat', redis.call('HGET', k, 'runAt'), id) end
  if to == 'running' then redis.call('ZADD', P .. ':inst-running:' .. inst, seq, id) end
  if to ~= 'queued' and to ~= 'running' then redis.call('ZREM', P .. ':active:' .. tkey, id) end
  redis.call('HSET', k, 'state', to)
end

local function finish(id, state, outcome, now)
  move(id, state)
  redis.call('HSET', jk(id), 'outcome', outcome, 'finishedAt', now)
  redis.call('HDEL', jk(id), 'leaseExpiresAt')
end

-- The outcome a running job ends with instead of running on or coming back: a pending cancel, then a supersede.
local function ending(id)
  local c, by, sup = unpack(redis.call('HMGET', jk(id), 'cancelRequested', 'cancelledBy', 'supersededBy'))
  if c == '1' then
    if by and by ~= '' then return T_BY_A .. by .. T_BY_B end
    return T_CANCEL
  end
  if sup then return superseded(sup) end
  return nil
end

-- The attempt fences off a stale run of the same worker whose job was requeued and claimed again.
local function held(id, worker, attempt)
  local st, w, at = unpack(redis.call('HMGET', jk(id), 'state', 'workerId', 'attempts'))
  return st == 'running' and w == worker and at == attempt
end
`;

/** ARGV: id, deliveryId, kind, targetKey, installationId, runAt, group|'', supersede '1'|'0', data json, extra json|''. */
const ENQUEUE = `
local id, delivery, kind, tkey, inst = ARGV[A], ARGV[A + 1], ARGV[A + 2], ARGV[A + 3], ARGV[A + 4]
local runAt, group, sup, data, extra = ARGV[A + 5], ARGV[A + 6], ARGV[A + 7], ARGV[A + 8], ARGV[A + 9]
local dk = P .. ':delivery:' .. delivery
local seen = redis.call('GET', dk)
if seen then return {1, snap(seen), {}, ''} end
redis.call('SET', dk, id)
local seq = redis.call('INCR', P .. ':seq')
local active = P .. ':active:' .. tkey
local replaced = {}
if sup == '1' then
  for _, o in ipairs(redis.call('ZRANGE', active, 0, -1)) do
    local st, g = unpack(redis.call('HMGET', jk(o), 'state', 'group'))
    if g == group then
      if st == 'running' then
        redis.call('HSET', jk(o), 'supersededBy', id)
      else
        finish(o, 'cancelled', superseded(id), NOW)
      end
      table.insert(replaced, snap(o))
    end
  end
end
-- What it waits behind: the running job, else the first queued one due no later than it.
local ahead, firstDue = '', ''
local due = tonumber(runAt)
for _, o in ipairs(redis.call('ZRANGE', active, 0, -1)) do
  local st, at = unpack(redis.call('HMGET', jk(o), 'state', 'runAt'))
  if st == 'running' then ahead = o break end
  if firstDue == '' and tonumber(at) <= due then firstDue = o end
end
if ahead == '' then ahead = firstDue end
local k = jk(id)
redis.call('HSET', k, 'id', id, 'seq', seq, 'deliveryId', delivery, 'kind', kind, 'state', 'queued', 'tkey', tkey,
  'inst', inst, 'data', data, 'attempts', 0, 'createdAt', NOW, 'runAt', runAt)
if group ~= '' then redis.call('HSET', k, 'group', group) end
if extra ~= '' then redis.call('HSET', k, 'extra', extra) end
redis.call('ZADD', P .. ':all', seq, id)
redis.call('ZADD', P .. ':target:' .. tkey, seq, id)
redis.call('ZADD', active, seq, id)
redis.call('ZADD', P .. ':state:queued', seq, id)
redis.call('ZADD', P .. ':runat', runAt, id)
return {0, snap(id), replaced, ahead}
`;

/**
 * ARGV: workerId, leaseMs, perInstallation, global. The oldest queued job that is due, first among its
 * target's due jobs, with nothing running on its target and its installation under its limit.
 */
const CLAIM = `
local worker, leaseMs, per, global = ARGV[A], ARGV[A + 1], tonumber(ARGV[A + 2]), tonumber(ARGV[A + 3])
local running = redis.call('ZRANGE', P .. ':state:running', 0, -1)
if #running >= global then return false end
-- Targets whose line is taken: something runs there, or an older due job comes first.
local busy = {}
for _, o in ipairs(running) do busy[redis.call('HGET', jk(o), 'tkey')] = true end
local now = tonumber(NOW)
for _, id in ipairs(redis.call('ZRANGE', P .. ':state:queued', 0, -1)) do
  local at, tkey, inst = unpack(redis.call('HMGET', jk(id), 'runAt', 'tkey', 'inst'))
  if tonumber(at) <= now and not busy[tkey] then
    busy[tkey] = true
    if redis.call('ZCARD', P .. ':inst-running:' .. inst) < per then
      move(id, 'running')
      local k = jk(id)
      redis.call('HINCRBY', k, 'attempts', 1)
      redis.call('HSET', k, 'workerId', worker, 'startedAt', NOW, 'leaseMs', leaseMs,
        'leaseExpiresAt', fmt(now + tonumber(leaseMs)))
      return snap(id)
    end
  end
end
return false
`;

/** ARGV: id, workerId, attempt. Returns {held, cancelRequested, cancelledBy, supersededBy}. */
const HEARTBEAT = `
local id = ARGV[A]
if not held(id, ARGV[A + 1], ARGV[A + 2]) then return {0, '', '', ''} end
local k = jk(id)
redis.call('HSET', k, 'leaseExpiresAt', fmt(tonumber(NOW) + tonumber(redis.call('HGET', k, 'leaseMs'))))
local c, by, sup = unpack(redis.call('HMGET', k, 'cancelRequested', 'cancelledBy', 'supersededBy'))
return {1, c or '', by or '', sup or ''}
`;

/** ARGV: id, workerId, attempt, runAt, outcome|''. */
const DEFER = `
local id, runAt, outcome = ARGV[A], ARGV[A + 3], ARGV[A + 4]
if not held(id, ARGV[A + 1], ARGV[A + 2]) then return false end
local e = ending(id)
if e then
  finish(id, 'cancelled', e, NOW)
  return snap(id)
end
local k = jk(id)
redis.call('HSET', k, 'runAt', runAt)
move(id, 'queued')
redis.call('HSET', k, 'attempts', fmt(math.max(tonumber(redis.call('HGET', k, 'attempts')) - 1, 0)))
if outcome ~= '' then redis.call('HSET', k, 'outcome', outcome) else redis.call('HDEL', k, 'outcome') end
redis.call('HDEL', k, 'workerId', 'leaseMs', 'leaseExpiresAt', 'startedAt')
return snap(id)
`;

/** ARGV: id, workerId, attempt, runAt, outcome, wait json. As DEFER, with the wait stored and any earlier answer dropped. */
const PAUSE = `
local id, runAt, outcome, wait = ARGV[A], ARGV[A + 3], ARGV[A + 4], ARGV[A + 5]
if not held(id, ARGV[A + 1], ARGV[A + 2]) then return false end
local e = ending(id)
if e then
  finish(id, 'cancelled', e, NOW)
  return snap(id)
end
local k = jk(id)
redis.call('HSET', k, 'runAt', runAt, 'wait', wait, 'outcome', outcome)
redis.call('HDEL', k, 'waitAnswer')
move(id, 'queued')
redis.call('HSET', k, 'attempts', fmt(math.max(tonumber(redis.call('HGET', k, 'attempts')) - 1, 0)))
redis.call('HDEL', k, 'workerId', 'leaseMs', 'leaseExpiresAt', 'startedAt')
return snap(id)
`;

/** ARGV: id, answer json. Only a queued job with a wait and no answer yet takes it, and becomes due now. */
const ANSWER = `
local id, answer = ARGV[A], ARGV[A + 1]
local k = jk(id)
local st, wait, given = unpack(redis.call('HMGET', k, 'state', 'wait', 'waitAnswer'))
if st ~= 'queued' or not wait or given then return false end
redis.call('HSET', k, 'waitAnswer', answer, 'runAt', NOW)
redis.call('ZADD', P .. ':runat', NOW, id)
return snap(id)
`;

/** ARGV: id, progressCommentId|'', agentsStarted '1'|'0'. agentsStarted only ever goes to true. */
const UPDATE = `
local k = jk(ARGV[A])
if redis.call('EXISTS', k) == 0 then return false end
if ARGV[A + 1] ~= '' then redis.call('HSET', k, 'progressCommentId', ARGV[A + 1]) end
if ARGV[A + 2] == '1' then redis.call('HSET', k, 'agentsStarted', '1') end
return snap(ARGV[A])
`;

/** ARGV: id, state, outcome, workerId|'', attempt. */
const FINISH = `
local id, state, outcome, worker = ARGV[A], ARGV[A + 1], ARGV[A + 2], ARGV[A + 3]
local st = redis.call('HGET', jk(id), 'state')
if not st then return false end
if worker ~= '' then
  if not held(id, worker, ARGV[A + 4]) then return false end
elseif not may(st, state) then
  return false
end
finish(id, state, outcome, NOW)
return snap(id)
`;

/** ARGV: targetKey, by|'', outcome. Flags the running job, cancels the queued ones (running first, then in order). */
const CANCEL = `
local tkey, by, outcome = ARGV[A], ARGV[A + 1], ARGV[A + 2]
local running, queued = {}, {}
for _, o in ipairs(redis.call('ZRANGE', P .. ':active:' .. tkey, 0, -1)) do
  local k = jk(o)
  local st = redis.call('HGET', k, 'state')
  if st == 'running' then
    redis.call('HSET', k, 'cancelRequested', '1')
    if by ~= '' then redis.call('HSET', k, 'cancelledBy', by) end
    table.insert(running, snap(o))
  elseif st == 'queued' then
    finish(o, 'cancelled', outcome, NOW)
    if by ~= '' then redis.call('HSET', k, 'cancelledBy', by) end
    table.insert(queued, snap(o))
  end
end
for _, r in ipairs(queued) do table.insert(running, r) end
return running
`;

/** ARGV: deadWorker|'', interrupted outcome. Returns {requeued, interrupted}. */
const RECOVER = `
local dead, interruptedOutcome = ARGV[A], ARGV[A + 1]
local now = tonumber(NOW)
local requeued, interrupted = {}, {}
for _, id in ipairs(redis.call('ZRANGE', P .. ':state:running', 0, -1)) do
  local k = jk(id)
  local lease, w, started, at = unpack(redis.call('HMGET', k, 'leaseExpiresAt', 'workerId', 'agentsStarted', 'attempts'))
  if (lease and tonumber(lease) <= now) or (dead ~= '' and w == dead) then
    local e = ending(id)
    if e then
      finish(id, 'cancelled', e, NOW)
      table.insert(interrupted, snap(id))
    elseif started ~= '1' and tonumber(at) < REQUEUE_BELOW then
      move(id, 'queued')
      redis.call('HDEL', k, 'workerId', 'leaseExpiresAt')
      table.insert(requeued, snap(id))
    else
      finish(id, 'failed', interruptedOutcome, NOW)
      table.insert(interrupted, snap(id))
    end
  end
end
return {requeued, interrupted}
`;

/** ARGV: index key (after the prefix), state|'' to filter on, limit. Newest first. */
const LIST = `
local key, want, limit = P .. ':' .. ARGV[A], ARGV[A + 1], tonumber(ARGV[A + 2])
local out, start = {}, 0
while #out < limit do
  local ids = redis.call('ZREVRANGE', key, start, start + 199)
  if #ids == 0 then break end
  for _, id in ipairs(ids) do
    if want == '' or redis.call('HGET', jk(id), 'state') == want then
      table.insert(out, snap(id))
      if #out >= limit then break end
    end
  end
  start = start + 200
end
return out
`;

/** ARGV: targetKey. Its running job first, then its queued ones in order. */
const ACTIVE = `
local running, queued = {}, {}
for _, id in ipairs(redis.call('ZRANGE', P .. ':active:' .. ARGV[A], 0, -1)) do
  if redis.call('HGET', jk(id), 'state') == 'running' then table.insert(running, snap(id))
  else table.insert(queued, snap(id)) end
end
for _, r in ipairs(queued) do table.insert(running, r) end
return running
`;

/**
 * ARGV: end state, cutoff (epoch ms), after seq, batch size. Deletes that state's jobs that ended
 * before the cutoff, each with its delivery key and every index entry, scanning at most one batch
 * of the state's index from `after`. Returns {ids deleted, the last seq scanned, how many scanned}.
 */
const PRUNE = `
local state, cutoff, after, batch = ARGV[A], tonumber(ARGV[A + 1]), ARGV[A + 2], tonumber(ARGV[A + 3])
local index = P .. ':state:' .. state
local rows = redis.call('ZRANGEBYSCORE', index, '(' .. after, '+inf', 'WITHSCORES', 'LIMIT', 0, batch)
local deleted, last = {}, after
for i = 1, #rows, 2 do
  local id = rows[i]
  last = rows[i + 1]
  local finished, delivery, tkey = unpack(redis.call('HMGET', jk(id), 'finishedAt', 'deliveryId', 'tkey'))
  if not delivery then
    redis.call('ZREM', index, id) -- an index entry whose record is gone
    redis.call('ZREM', P .. ':all', id)
  elseif finished and tonumber(finished) < cutoff then
    redis.call('DEL', jk(id), P .. ':delivery:' .. delivery)
    redis.call('ZREM', index, id)
    redis.call('ZREM', P .. ':all', id)
    redis.call('ZREM', P .. ':target:' .. tkey, id)
    table.insert(deleted, id)
  end
end
return {deleted, last, #rows / 2}
`;

export const SCRIPTS = {
  crewbotEnqueue: ENQUEUE,
  crewbotClaim: CLAIM,
  crewbotHeartbeat: HEARTBEAT,
  crewbotDefer: DEFER,
  crewbotUpdate: UPDATE,
  crewbotPause: PAUSE,
  crewbotAnswer: ANSWER,
  crewbotFinish: FINISH,
  crewbotCancel: CANCEL,
  crewbotRecover: RECOVER,
  crewbotList: LIST,
  crewbotActive: ACTIVE,
  crewbotPrune: PRUNE,
} as const;

export type ScriptName = keyof typeof SCRIPTS;

/** The full Lua source of a script: the shared helpers, then its body. */
export const scriptSource = (name: ScriptName): string => COMMON + SCRIPTS[name];
