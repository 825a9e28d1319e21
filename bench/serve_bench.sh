#!/usr/bin/env bash
# serve_bench.sh ARBITER — `make bench-serve`: wrk on loopback against `arbiter serve` with
# SESSIONS (500) clocked sessions, CONNECTIONS (500) connections posting events (pause/resume,
# each journaled with synchronous=FULL before its answer) and reading states, for DURATION (20 s);
# first as fast as answers come (saturation), then at a fixed offered load of 2,000 events/s
# (RATE=2700 requests/s); then STREAMS (500) SSE listeners held while events go on; the server's RSS. Figures for
# docs/performance.md. All of it twice: over plain HTTP, then over HTTPS (`--tls-cert/--tls-key`, a
# throwaway self-signed P-256 certificate; wrk and the listeners keep their connections, so each
# pays its handshake once), then the two side by side (PASSES="plain tls" by default).
# Bounded: every step has a time limit.
set -euo pipefail
ARBITER=$1
SESSIONS=${SESSIONS:-500} CONNECTIONS=${CONNECTIONS:-500} DURATION=${DURATION:-20} STREAMS=${STREAMS:-500}
PASSES=${PASSES:-plain tls}
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$(mktemp -d)
SERVE=
trap 'if [ -n "$SERVE" ]; then kill $SERVE 2>/dev/null || true; fi; rm -rf "$DIR"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$DIR/key.pem" -out "$DIR/cert.pem" 2>/dev/null
CURL=(curl -s --cacert "$DIR/cert.pem")

# One pass: NAME (plain or tls); its figures go to $DIR/NAME.summary for the table at the end.
bench_pass() {
  local name=$1 tls=()
  [ "$name" = tls ] && tls=(--tls-cert "$DIR/cert.pem" --tls-key "$DIR/key.pem")
  SUMMARY="$DIR/$name.summary"
  : > "$SUMMARY"
  echo "=== $name: $([ "$name" = tls ] && echo "HTTPS (TLS)" || echo "plain HTTP")"
  "$ARBITER" serve --journal "$DIR/bench-$name.arbiter" --listen 127.0.0.1:0 --threads 1200 "${tls[@]}" > "$DIR/$name.out" &
  SERVE=$!
  for _ in $(seq 100); do grep -q listening "$DIR/$name.out" 2>/dev/null && break; sleep 0.1; done
  URL=$(sed -n 's/^listening on //p' "$DIR/$name.out")
  echo "server $URL (pid $SERVE); journal on $(df --output=fstype "$DIR" | tail -1) in $DIR"
  for _ in $(seq "$SESSIONS"); do
    "${CURL[@]}" -o /dev/null -X POST "$URL/api/v1/sessions" -d '{"time_control":"5400+30"}'
  done
  echo "created $SESSIONS sessions; RSS $(rss)"
  echo "rss_sessions $(rss)" >> "$SUMMARY"
  load saturation 0 sat
  # The goal's load: about 2,000 events/s offered (RATE requests/s, four in five events; a
  # connection waits CONNECTIONS / RATE s on average after each answer, so the rate achieved is a
  # little under RATE).
  load "about 2,000 events/s offered" "${RATE:-2700}" rate
  echo "RSS after the load: $(rss)"
  echo "rss_load $(rss)" >> "$SUMMARY"
  echo "== $STREAMS SSE listeners held, 200 events meanwhile"
  timeout 120 python3 - "$URL" "$STREAMS" "$SERVE" "$DIR/cert.pem" "$SUMMARY" <<'PY'
import json, socket, ssl, sys, time, urllib.request
url, n, pid, ca, summary = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
host, port = url.split("//")[1].split(":")
tls = url.startswith("https:")
ctx = ssl.create_default_context(cafile=ca) if tls else None
socks = []
for k in range(n):
    s = socket.create_connection((host, int(port)), timeout=20)
    if tls:
        s = ctx.wrap_socket(s, server_hostname=host)
    s.sendall(("GET /api/v1/sessions/%d/stream HTTP/1.1\r\nHost: x\r\n\r\n" % (k % 50 + 1)).encode())
    socks.append(s)
import select
counts = {s: 0 for s in socks}


def wait_for(k, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline and any(c < k for c in counts.values()):
        ready, _, _ = select.select([s for s in socks if counts[s] < k], [], [], 1)
        for s in ready:
            data = s.recv(65536)
            while tls and s.pending():  # TLS: what OpenSSL holds already, which select() does not see
                data += s.recv(65536)
            counts[s] += data.count(b"event: state")
    return sum(1 for c in counts.values() if c >= k)


first = wait_for(1, 20)
print("listeners connected, each given the current state: %d of %d" % (first, n))
t = time.time()
for sid in range(1, 51):
    state = json.load(urllib.request.urlopen(url + "/api/v1/sessions/%d" % sid, context=ctx))
    for k in range(4):
        at = state["clocks"]["as_of_ms"] + 10 * (k + 1)
        kind = "resume" if (state["clocks"]["paused"] ^ (k % 2 == 1)) else "pause"
        body = json.dumps({"type": kind, "at_ms": at}).encode()
        urllib.request.urlopen(urllib.request.Request(url + "/api/v1/sessions/%d/events" % sid, data=body),
                               context=ctx).read()
posted = time.time() - t
print("200 events posted with %d listeners held: %.2f s" % (n, posted))
got = wait_for(5, 20)
print("listeners that received all 4 events of their session: %d of %d" % (got, n))
rss = [l for l in open("/proc/%s/status" % pid) if l.startswith("VmRSS")][0].split()[1]
print("RSS with %d listeners held: %.1f MB" % (n, int(rss) / 1024))
with open(summary, "a") as f:
    f.write("sse_posted %.2f s\nsse_got %d of %d\nrss_sse %.1f MB\n" % (posted, got, n, int(rss) / 1024))
PY
  kill "$SERVE"
  wait "$SERVE" || true
  SERVE=
}
rss() { awk '/VmRSS/ {print $2 / 1024 " MB"}' /proc/$SERVE/status; }
events() { "${CURL[@]}" "$URL/api/v1/sessions" | python3 -c 'import json,sys; print(sum(r["events"] for r in json.load(sys.stdin)))'; }
# One wrk run: NAME, then RATE (requests/s in all; 0 = saturation, a closed loop), then the key of
# its figures in the summary.
load() {
  local before after secs
  before=$(events)
  echo "== wrk ($1): $CONNECTIONS connections, ${DURATION} s, events and state reads, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  RATE=$2 CONNECTIONS=$CONNECTIONS SESSIONS=$SESSIONS timeout $((DURATION + 30)) wrk -t2 -c"$CONNECTIONS" \
    -d"${DURATION}s" --timeout 10s -s "$HERE/serve_wrk.lua" "$URL" -- 2 | tee "$DIR/wrk"
  after=$(events)
  secs=$(sed -n 's/.*duration \([0-9.]*\) s/\1/p' "$DIR/wrk")
  local rate
  rate=$(python3 -c "print(round(($after - $before) / $secs))")
  echo "journaled events: $((after - before)) in $secs s = $rate events/s; load average after $(cut -d' ' -f1-3 /proc/loadavg)"
  {
    echo "$3_requests $(sed -n 's/^Requests\/sec: *\([0-9.]*\)/\1/p' "$DIR/wrk")"
    echo "$3_events $rate"
    sed -n 's/^latency p50 \([0-9.]*\) ms, p90 [0-9.]* ms, p99 \([0-9.]*\) ms.*/'"$3"'_p50 \1 ms\n'"$3"'_p99 \2 ms/p' "$DIR/wrk"
    local sockets
    sockets=$(sed -n 's/^ *Socket errors: \(.*\)/\1/p' "$DIR/wrk")
    echo "$3_errors $(sed -n 's/.*errors (non-2xx) \([0-9]*\).*/\1/p' "$DIR/wrk") non-2xx; socket: ${sockets:-none}"
  } >> "$SUMMARY"
}
for pass in $PASSES; do bench_pass "$pass"; done
echo "=== side by side"
python3 - "$DIR" $PASSES <<'PY'
import sys
d, passes = sys.argv[1], sys.argv[2:]
rows = [("sat_requests", "saturation: requests/s"), ("sat_events", "saturation: events/s"),
        ("sat_p50", "saturation: latency p50"), ("sat_p99", "saturation: latency p99"),
        ("sat_errors", "saturation: errors"),
        ("rate_events", "2,000 events/s offered: events/s"), ("rate_p50", "2,000 events/s: latency p50"),
        ("rate_p99", "2,000 events/s: latency p99"), ("rate_errors", "2,000 events/s: errors"),
        ("rss_sessions", "RSS after creating the sessions"), ("rss_load", "RSS after the load"),
        ("sse_posted", "200 events with the listeners held"), ("sse_got", "listeners given all 4 events"),
        ("rss_sse", "RSS with the listeners held")]
got = {}
for p in passes:
    got[p] = {}
    for line in open("%s/%s.summary" % (d, p)):
        k, _, v = line.strip().partition(" ")
        got[p][k] = v
print("%-36s" % "" + "".join("%-28s" % p for p in passes))
for key, label in rows:
    print("%-36s" % label + "".join("%-28s" % got[p].get(key, "-") for p in passes))
PY
