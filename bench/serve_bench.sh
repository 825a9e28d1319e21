#!/usr/bin/env bash
# serve_bench.sh ARBITER — `make bench-serve`: wrk on loopback against `arbiter serve` with
# SESSIONS (500) clocked sessions, CONNECTIONS (500) connections posting events (pause/resume,
# each journaled with synchronous=FULL before its answer) and reading states, for DURATION (20 s);
# first as fast as answers come (saturation), then at a fixed offered load of 2,000 events/s
# (RATE=2700 requests/s); then STREAMS (500) SSE listeners held while events go on; the server's RSS. Figures for
# docs/performance.md. Bounded: every step has a time limit.
set -euo pipefail
ARBITER=$1
SESSIONS=${SESSIONS:-500} CONNECTIONS=${CONNECTIONS:-500} DURATION=${DURATION:-20} STREAMS=${STREAMS:-500}
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$(mktemp -d)
trap 'kill $SERVE 2>/dev/null || true; rm -rf "$DIR"' EXIT
"$ARBITER" serve --journal "$DIR/bench.arbiter" --listen 127.0.0.1:0 --threads 1200 > "$DIR/out" &
SERVE=$!
for _ in $(seq 100); do grep -q listening "$DIR/out" 2>/dev/null && break; sleep 0.1; done
URL=$(sed -n 's/^listening on //p' "$DIR/out")
echo "server $URL (pid $SERVE); journal on $(df --output=fstype "$DIR" | tail -1) in $DIR"
for _ in $(seq "$SESSIONS"); do
  curl -s -o /dev/null -X POST "$URL/api/v1/sessions" -d '{"time_control":"5400+30"}'
done
rss() { awk '/VmRSS/ {print $2 / 1024 " MB"}' /proc/$SERVE/status; }
echo "created $SESSIONS sessions; RSS $(rss)"
events() { curl -s "$URL/api/v1/sessions" | python3 -c 'import json,sys; print(sum(r["events"] for r in json.load(sys.stdin)))'; }
# One wrk run: NAME, then RATE (requests/s in all; 0 = saturation, a closed loop).
load() {
  local before after secs
  before=$(events)
  echo "== wrk ($1): $CONNECTIONS connections, ${DURATION} s, events and state reads, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  RATE=$2 CONNECTIONS=$CONNECTIONS SESSIONS=$SESSIONS timeout $((DURATION + 30)) wrk -t2 -c"$CONNECTIONS" \
    -d"${DURATION}s" --timeout 10s -s "$HERE/serve_wrk.lua" "$URL" -- 2 | tee "$DIR/wrk"
  after=$(events)
  secs=$(sed -n 's/.*duration \([0-9.]*\) s/\1/p' "$DIR/wrk")
  echo "journaled events: $((after - before)) in $secs s = $(python3 -c "print(round(($after - $before) / $secs))") events/s; load average after $(cut -d' ' -f1-3 /proc/loadavg)"
}
load saturation 0
# The goal's load: about 2,000 events/s offered (RATE requests/s, four in five events; a
# connection waits CONNECTIONS / RATE s on average after each answer, so the rate achieved is a
# little under RATE).
load "about 2,000 events/s offered" "${RATE:-2700}"
echo "RSS after the load: $(rss)"
echo "== $STREAMS SSE listeners held, 200 events meanwhile"
timeout 120 python3 - "$URL" "$STREAMS" "$SERVE" <<'PY'
import json, socket, sys, time, urllib.request
url, n, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3]
host, port = url.split("//")[1].split(":")
socks = []
for k in range(n):
    s = socket.create_connection((host, int(port)), timeout=20)
    s.sendall(("GET /api/v1/sessions/%d/stream HTTP/1.1\r\nHost: x\r\n\r\n" % (k % 50 + 1)).encode())
    socks.append(s)
import select
counts = {s: 0 for s in socks}


def wait_for(k, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline and any(c < k for c in counts.values()):
        ready, _, _ = select.select([s for s in socks if counts[s] < k], [], [], 1)
        for s in ready:
            counts[s] += s.recv(65536).count(b"event: state")
    return sum(1 for c in counts.values() if c >= k)


first = wait_for(1, 20)
print("listeners connected, each given the current state: %d of %d" % (first, n))
t = time.time()
for sid in range(1, 51):
    state = json.load(urllib.request.urlopen(url + "/api/v1/sessions/%d" % sid))
    for k in range(4):
        at = state["clocks"]["as_of_ms"] + 10 * (k + 1)
        kind = "resume" if (state["clocks"]["paused"] ^ (k % 2 == 1)) else "pause"
        body = json.dumps({"type": kind, "at_ms": at}).encode()
        urllib.request.urlopen(urllib.request.Request(url + "/api/v1/sessions/%d/events" % sid, data=body)).read()
print("200 events posted with %d listeners held: %.2f s" % (n, time.time() - t))
got = wait_for(5, 20)
print("listeners that received all 4 events of their session: %d of %d" % (got, n))
rss = [l for l in open("/proc/%s/status" % pid) if l.startswith("VmRSS")][0].split()[1]
print("RSS with %d listeners held: %.1f MB" % (n, int(rss) / 1024))
PY
