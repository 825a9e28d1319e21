-- serve_wrk.lua — wrk script for `make bench-serve` (bench/serve_bench.sh): every connection
-- posts events to the sessions 1..N (N = SESSIONS, round robin, never two in flight for one
-- session) and one request in five reads a state (and so does a connection whose thread has an
-- event in flight for every one of its sessions). The events alternate pause and resume on a
-- clocked game: always legal in turn, and unlike moves they never end the game (no fivefold, no
-- 75 moves), so a long run stays a stream of accepted, journaled events. Four requests in five are
-- events, so RATE = 2,500 offers 2,000 events/s.
local sessions = tonumber(os.getenv("SESSIONS") or "500")
-- RATE > 0: a fixed offered load of RATE requests/s in all (each connection waits on average
-- CONNECTIONS / RATE s between an answer and its next request, jittered so that connections do
-- not fall into step); unset or 0: as fast as the answers come (a closed loop: saturation).
local rate = tonumber(os.getenv("RATE") or "0")
local connections = tonumber(os.getenv("CONNECTIONS") or "500")
local threads = {}

if rate > 0 then
  function delay()
    return connections * 1000 / rate * (0.5 + math.random())
  end
end

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  nthreads = #args > 0 and tonumber(args[1]) or 2
  -- This thread's sessions: id, id + nthreads, … (each session belongs to one thread). A
  -- session's first request reads its state (its clock and whether it is paused, so that a
  -- second run on the same sessions goes on from where they are), and so does the next one
  -- after an answer that is not a state.
  mine, paused, pending, at, known = {}, {}, {}, {}, {}
  for s = id + 1, sessions, nthreads do
    table.insert(mine, s)
    paused[s], pending[s], at[s], known[s] = false, false, 0, false
  end
  next_i, count = 0, 0
  refused, other = 0, 0
end

function request()
  count = count + 1
  for _ = 1, #mine do
    next_i = next_i % #mine + 1
    local s = mine[next_i]
    if not pending[s] then
      pending[s] = true
      if count % 5 == 0 or not known[s] then
        return wrk.format("GET", "/api/v1/sessions/" .. s)
      end
      at[s] = at[s] + 10
      local body = string.format('{"type":"%s","at_ms":%d}', paused[s] and "resume" or "pause", at[s])
      return wrk.format("POST", "/api/v1/sessions/" .. s .. "/events", {["Content-Type"] = "application/json"}, body)
    end
  end
  -- Every session of this thread has an event in flight: read a state meanwhile, of a session
  -- of another thread (its answer must not be taken for the answer to the event in flight).
  local other = mine[next_i] + 1
  if other > sessions then other = mine[next_i] - 1 end
  return wrk.format("GET", "/api/v1/sessions/" .. other)
end

function response(status, headers, body)
  if status == 409 then refused = refused + 1 elseif status ~= 200 then other = other + 1 end
  local s = tonumber(string.match(body, '"id":(%d+)'))
  if s and pending[s] ~= nil then
    local p = string.match(body, '"paused":(%a+)')
    local t = tonumber(string.match(body, '"as_of_ms":(%d+)'))
    if status == 200 and p and t then
      paused[s] = (p == "true")
      if t > at[s] then at[s] = t end
      known[s] = true
    else
      known[s] = false
    end
    pending[s] = false
  end
end

function done(summary, latency, requests)
  local r, o = 0, 0
  for _, t in ipairs(threads) do
    r, o = r + t:get("refused"), o + t:get("other")
  end
  io.write(string.format("answers 409 (refused events) %d, other non-200 %d\n", r, o))
  io.write(string.format("requests %d, errors (non-2xx) %d, duration %.1f s\n", summary.requests,
    summary.errors.status, summary.duration / 1e6))
  io.write(string.format("latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
