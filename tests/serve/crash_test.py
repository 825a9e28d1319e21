"""crash_test.py — kill -9 `arbiter serve` under a stream of events from several clients: after
a restart on the same journal every acknowledged (200) event is there, in order, and the
sessions replay. Bounded: 3 rounds, 4 clients, at most 40 events each a round.
Usage: crash_test.py ARBITER WORKDIR"""
import os
import random
import signal
import sys
import threading
import time

from serve_test_lib import fresh_journal, Server, check, run

ARBITER, WORK = sys.argv[1], sys.argv[2]
JOURNAL = fresh_journal(WORK, "crash.journal")

CYCLE = ["Nf3", "Nf6", "Ng1", "Ng8", "Nc3", "Nc6", "Nb1", "Nb8"]  # never a threefold claim: no end


def test_kill_9():
    srv = Server(ARBITER, JOURNAL).start()
    ids = [srv.request("POST", "/api/v1/sessions", {"white": "W%d" % k})[1]["id"] for k in range(4)]
    acked = {sid: 0 for sid in ids}
    rng = random.Random(12)
    for round_ in range(3):
        stop = threading.Event()

        def client(sid):
            for _ in range(40):
                if stop.is_set():
                    return
                n = acked[sid]
                try:
                    status, j, _, _ = srv.request("POST", "/api/v1/sessions/%d/events" % sid,
                                                  {"type": "move", "move": CYCLE[n % 8], "at_ms": 1000 * (n + 1)},
                                                  timeout=5)
                except OSError:
                    return  # the server died under us: this event was not acknowledged
                if status != 200:
                    return
                check(j["events"] == n + 1, "events count %s" % j["events"])
                acked[sid] = n + 1

        threads = [threading.Thread(target=client, args=(sid,)) for sid in ids]
        [t.start() for t in threads]
        time.sleep(0.3 + rng.random() * 0.5)
        srv.proc.send_signal(signal.SIGKILL)
        srv.proc.wait(10)
        stop.set()
        [t.join(20) for t in threads]
        srv = Server(ARBITER, JOURNAL).start()
        for sid in ids:
            status, j, _, _ = srv.request("GET", "/api/v1/sessions/%d" % sid)
            check(status == 200, "session %d after kill -9: %d %s" % (sid, status, j))
            # Every acknowledged event is there; at most the one in flight when killed is more.
            check(acked[sid] <= j["events"] <= acked[sid] + 1,
                  "round %d session %d: %d acknowledged, %d journaled" % (round_, sid, acked[sid], j["events"]))
            check(j["moves"] == [CYCLE[k % 8] for k in range(j["events"])], "moves in order")
            acked[sid] = j["events"]
    check(sum(acked.values()) > 0, "events were played")
    print("acknowledged and journaled: %s" % acked)
    check(srv.stop() == 0, "clean stop")


run([("kill -9 under load", test_kill_9)])
