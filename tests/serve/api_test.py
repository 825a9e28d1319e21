"""api_test.py — the JSON API of `arbiter serve` against a real server process on 127.0.0.1:
every endpoint and error code, the CLI's own JSON, SSE to two listeners, session scenarios
replayed through HTTP and through the CLI with identical states, restart on the same journal,
a second server refused, the token. Usage: api_test.py ARBITER WORKDIR"""
import json
import os
import subprocess
import sys
import threading

from serve_test_lib import fresh_journal, Server, Stream, check, run

ARBITER, WORK = sys.argv[1], sys.argv[2]
JOURNAL = fresh_journal(WORK, "api.journal")
srv = Server(ARBITER, JOURNAL).start()


def cli(*args, journal=None, ok=True):
    p = subprocess.run([ARBITER] + list(args), capture_output=True, text=True, timeout=60)
    if ok:
        check(p.returncode == 0, "arbiter %s: %d %s" % (" ".join(args), p.returncode, p.stderr))
    return p


def new_session(**config):
    status, j, _, headers = srv.request("POST", "/api/v1/sessions", config)
    check(status == 201, "create: %d %s" % (status, j))
    check(headers.get("Location") == "/api/v1/sessions/%d" % j["id"], "Location header")
    return j["id"], j


CLOCK = {}


def event(sid, e, expect=200):
    if "at_ms" not in e:  # events without a time: a second apart
        CLOCK[sid] = CLOCK.get(sid, 0) + 1000
        e = dict(e, at_ms=CLOCK[sid])
    status, j, _, _ = srv.request("POST", "/api/v1/sessions/%d/events" % sid, e)
    check(status == expect, "event %s: %d %s" % (e, status, j))
    return j


def test_health():
    status, j, _, h = srv.request("GET", "/api/v1/health")
    check(status == 200 and j["status"] == "ok" and j["version"], "health %s" % j)
    p = subprocess.run([ARBITER, "status", "--json", "--rules", "nonsense", "--moves", "e4"], capture_output=True,
                       text=True)
    status, j, _, _ = srv.request("GET", "/api/v1/rule_sets")
    # The ids are the library's (the same the CLI lists when refusing an unknown one), the default first.
    check(status == 200 and j["default"] == j["rule_sets"][0] == "fide-2023" and len(j["rule_sets"]) == 8
          and all(r in p.stdout for r in j["rule_sets"]), "rule_sets %s" % j)
    check("script-src 'self'" in h["Content-Security-Policy"] and "unsafe-inline" not in h["Content-Security-Policy"],
          "CSP without inline scripts")


def test_create_same_as_cli():
    config = {"white": "Anna", "black": "Ben", "time_control": "300+2", "event": "Open", "round": "3"}
    sid, j = new_session(**config)
    p = cli("session", "new", "--journal", os.path.join(WORK, "cli.journal"), "--white", "Anna", "--black", "Ben",
            "--time-control", "300+2", "--event", "Open", "--round", "3", "--json")
    mine = json.loads(p.stdout)
    j.pop("id"), mine.pop("id")
    check(j == mine, "POST /sessions gives session new --json: %s vs %s" % (j, mine))
    status, got, _, _ = srv.request("GET", "/api/v1/sessions/%d" % sid)
    check(status == 200 and got["id"] == sid and got["notes"] == [], "GET session %s" % got)


def test_body_limits():
    big = b'{"white":"' + b"a" * (1 << 20) + b'"}'
    status, j, _, _ = srv.request("POST", "/api/v1/sessions", big)
    check(status == 413 and j["error"]["code"] == "too_large" and "1048576" in j["error"]["message"], "1 MiB: %s" % j)
    status, j, _, _ = srv.request("POST", "/api/v1/status", b'{"pgn":"' + b" " * (2 << 20) + b'1. e4 *"}')
    check(status == 200, "a 2 MiB PGN is under the 16 MiB limit: %d %s" % (status, j))
    status, j, _, _ = srv.request("POST", "/api/v1/status", b" " * (17 << 20))
    check(status == 413 and j["error"]["code"] == "too_large", "over 16 MiB: %d %s" % (status, j))


def test_config_errors():
    # The CLI's codes and the settings' keys as fields (these were all bad_config before issue 45).
    for body, code, field in [({"rules": "fide-1850"}, "unknown_rule_set", "rules"),
                              ({"time_control": "5 minutes"}, "bad_value", "time_control"),
                              ({"date": "2024-05-01"}, "bad_value", "date"), ({"round": "3..1"}, "bad_value", "round"),
                              ({"start_fen": "8/8/8 w"}, "bad_fen", "start_fen"),
                              ({"white": 7}, "bad_field", "white"), ({"colour": "white"}, "bad_field", "colour"),
                              ({"no_offers_before": -1}, "bad_value", "no_offers_before"),
                              ({"no_offers_before": 10 ** 30}, "bad_value", "no_offers_before"),
                              ({"quickplay_finish": "yes"}, "bad_field", "quickplay_finish"), ([1, 2], "bad_json", None)]:
        status, j, _, _ = srv.request("POST", "/api/v1/sessions", body)
        check(status == 400 and j["error"]["code"] == code and j["error"].get("field") == field and
              j["error"]["message"] and "--" not in j["error"]["message"],
              "%s -> %d %s (expected %s, field %s)" % (body, status, j, code, field))


def test_events_and_refusal():
    sid, _ = new_session(time_control="300+2")
    j = event(sid, {"type": "move", "move": "e4", "at_ms": 1000})
    check(j["moves"] == ["e4"] and j["ply"] == 1, "after e4 %s" % j)
    before = srv.request("GET", "/api/v1/sessions/%d/pgn" % sid)[2]
    j = event(sid, {"type": "move", "move": "e4", "at_ms": 2000}, expect=409)
    check(j["error"]["code"] == "illegal_move" and j["refusal"]["error"]["code"] == "illegal_move", "409 %s" % j)
    j = event(sid, {"type": "move", "move": "Nf3", "side": "white", "at_ms": 2000}, expect=409)
    check(j["error"]["code"] == "out_of_turn", "out of turn %s" % j)
    after = srv.request("GET", "/api/v1/sessions/%d/pgn" % sid)[2]
    check(before == after, "a refused event changes nothing")
    # The journal holds one event: the CLI reads it from the file the server writes.
    p = cli("session", "show", "--journal", JOURNAL, str(sid), "--json")
    check(json.loads(p.stdout)["events"] == 1, "journal unchanged by refusals: %s" % p.stdout)
    # session event's codes for the same text (these were all bad_event before issue 45).
    for body, status_code, code in [("{", 400, "bad_json"), ('{"type":"mvoe"}', 400, "unknown_event_type"),
                                    ('{"type":"move"}', 400, "missing_field"), ("[]", 400, "bad_json"),
                                    ('{"type":"move","move":"Nc6","at_ms":"soon"}', 400, "bad_value"),
                                    ('{"type":"move","move":"Nc6","at_ms":1,"colour":"w"}', 400, "unknown_field")]:
        status, j, _, _ = srv.request("POST", "/api/v1/sessions/%d/events" % sid, body)
        check(status == status_code and j["error"]["code"] == code, "%s -> %d %s" % (body, status, j))
    status, j, _, _ = srv.request("POST", "/api/v1/sessions/99999/events", {"type": "resign", "side": "white",
                                                                           "at_ms": 1})
    check(status == 404 and j["error"]["code"] == "no_such_session", "404 %s" % j)


def test_list_get_pgn():
    sid, _ = new_session(white="Carla", black="Dan")
    event(sid, {"type": "move", "move": "d4"})
    status, j, _, _ = srv.request("GET", "/api/v1/sessions")
    row = [r for r in j if r["id"] == sid][0]
    # The row of `session list --json` (one writer, face::session_row): event and round too.
    check(row == {"id": sid, "status": "ongoing", "result": "*", "ply": 1, "rules": "fide-2023", "events": 1,
                  "white": "Carla", "black": "Dan", "event": "?", "round": "?"}, "list row %s" % row)
    status, _, raw, h = srv.request("GET", "/api/v1/sessions/%d/pgn" % sid)
    p = cli("session", "export", "--journal", JOURNAL, str(sid))
    check(status == 200 and raw.decode() == p.stdout and "chess-pgn" in h["Content-Type"], "pgn as export")
    for path, code in [("/api/v1/sessions/0", "not_found"), ("/api/v1/sessions/abc", "not_found"),
                       ("/api/v1/sessions/12345678", "no_such_session"), ("/api/v1/sessions/1/nope", "not_found"),
                       ("/api/v2/health", "not_found"), ("/nothing.html", "not_found")]:
        status, j, _, _ = srv.request("GET", path)
        check(status == 404 and j["error"]["code"] == code, "%s -> %d %s" % (path, status, j))
    for method, path in [("DELETE", "/api/v1/sessions"), ("GET", "/api/v1/sessions/1/events"),
                         ("PUT", "/api/v1/health"), ("POST", "/api/v1/sessions/1/pgn"), ("GET", "/api/v1/status"),
                         ("POST", "/board.svg")]:
        status, j, _, h = srv.request(method, path, b"{}")
        check(status == 405 and j["error"]["code"] == "method_not_allowed", "%s %s -> %d" % (method, path, status))
        # RFC 9110: the methods the resource takes, in the Allow header as in the body's "allow".
        check(h.get("Allow") == j["allow"] and method not in h.get("Allow", ""), "%s %s: Allow %r, allow %r"
              % (method, path, h.get("Allow"), j.get("allow")))


def position_cli(command, args):
    return json.loads(cli(*command, *args, "--json").stdout)


def test_status_claim_dead_same_as_cli():
    moves = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"
    cases = [("/api/v1/status", {"moves": moves}, ["status"], ["--moves", moves]),
             ("/api/v1/claim", {"moves": moves, "kind": "threefold", "intended": "Ng8"}, ["claim", "threefold"],
              ["--moves", moves, "--intended", "Ng8"]),
             ("/api/v1/claim", {"moves": moves, "kind": "threefold"}, ["claim", "threefold"], ["--moves", moves]),
             ("/api/v1/claim", {"moves": moves, "kind": "fifty", "rules": "uscf"}, ["claim", "fifty"],
              ["--moves", moves, "--rules", "uscf"]),
             ("/api/v1/dead", {"fen": "8/8/8/8/8/2k5/8/K7 w - - 0 1"}, ["dead"], ["--fen", "8/8/8/8/8/2k5/8/K7 w - - 0 1"]),
             ("/api/v1/dead", {"fen": "8/8/8/8/8/2k5/8/KB6 w - - 0 1", "side": "white"}, ["dead"],
              ["--fen", "8/8/8/8/8/2k5/8/KB6 w - - 0 1", "--side", "white"])]
    for path, body, command, args in cases:
        status, j, _, _ = srv.request("POST", path, body)
        check(status == 200, "%s %s -> %d %s" % (path, body, status, j))
        check(j == position_cli(command, args), "%s %s: same JSON as arbiter %s" % (path, body, command))
    pgn = '[Event "x"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n'
    pgn_file = os.path.join(WORK, "g.pgn")
    with open(pgn_file, "w") as f:
        f.write(pgn)
    status, j, _, _ = srv.request("POST", "/api/v1/claim", {"pgn": pgn, "ply": 7, "kind": "threefold",
                                                            "intended": "Ng8"})
    check(status == 200 and j == position_cli(["claim", "threefold"], ["--pgn", pgn_file, "--ply", "7",
                                                                        "--intended", "Ng8"]), "claim from pgn")
    # The CLI's codes for the same problems (tests/faces/error_parity_test.py compares every face).
    for path, body, code in [("/api/v1/status", {"fen": "not a fen"}, "bad_fen"),
                             ("/api/v1/status", {"moves": "e4 e5 Ke3"}, "illegal_move"),
                             ("/api/v1/status", {}, "bad_usage"),
                             ("/api/v1/status", {"moves": "e4", "ply": 3}, "bad_usage"),
                             ("/api/v1/claim", {"moves": "e4", "kind": "fourfold"}, "bad_value"),
                             ("/api/v1/claim", {"moves": "e4", "kind": "threefold", "intended": "Zz9"}, "bad_move"),
                             ("/api/v1/claim", {"pgn": pgn, "ply": 99, "kind": "threefold"}, "bad_value"),
                             ("/api/v1/dead", {"fen": "8/8/8/8/8/8/8/8 w - -"}, "bad_fen"),
                             ("/api/v1/dead", {"fen": "8/8/8/8/8/2k5/8/K7 w - -", "side": "red"}, "bad_value"),
                             ("/api/v1/dead", {"fen": "8/8/8/8/8/2k5/8/K7 w - -", "limit": 10 ** 13}, "bad_value"),
                             ("/api/v1/status", {"fen": 42}, "bad_field")]:
        status, j, _, _ = srv.request("POST", path, body)
        check(status == 400 and j["error"]["code"] == code and j["error"]["message"],
              "%s %s -> %d %s (expected %s)" % (path, body, status, j, code))
    status, j, _, _ = srv.request("POST", "/api/v1/status", {"moves": "e4 e5 Ke3"})
    check("move 3 'Ke3'" in j["error"]["message"], "the message names the move: %s" % j)


def test_board_svg():
    status, _, raw, h = srv.request("GET", "/board.svg?fen=8/8/8/8/8/2k5/8/K7%20w%20-%20-&flip=1&highlight=e4,e5&arrow=g1f3")
    svg = raw.decode()
    check(status == 200 and h["Content-Type"].startswith("image/svg+xml") and svg.startswith("<svg"), "svg")
    check(svg.count("<rect") == 66 and svg.count("<line") == 1 and "white king" in svg and "black king" in svg,
          "64 squares + 2 highlights, one arrow, two kings")
    status, _, raw, _ = srv.request("GET", "/board.svg")
    check(status == 200 and raw.decode().count("<title>") == 32, "initial position by default")
    for q, code in [("fen=xyz", "bad_fen"), ("highlight=z9", "bad_square"), ("arrow=e2", "bad_square")]:
        status, j, _, _ = srv.request("GET", "/board.svg?" + q)
        check(status == 400 and j["error"]["code"] == code, "%s -> %d %s" % (q, status, j))


def test_sse_two_listeners():
    sid, _ = new_session()
    a = Stream(srv.port, "/api/v1/sessions/%d/stream" % sid)
    b = Stream(srv.port, "/api/v1/sessions/%d/stream" % sid)
    check(a.status == 200 and b.status == 200, "stream status")
    for s in (a, b):
        n, state = s.next_state()
        check(n == 0 and state["ply"] == 0, "first state is the current one")
    for k, mv in enumerate(["e4", "e5", "Nf3"]):
        event(sid, {"type": "move", "move": mv})
        for s in (a, b):
            n, state = s.next_state()
            check(n == k + 1 and state["moves"][-1] == mv, "listener got %s: %s" % (mv, state["moves"]))
    # Events in quick succession: a listener gets the state after each of them, in order.
    for mv in ["Nc6", "Bb5", "a6"]:
        event(sid, {"type": "move", "move": mv})
    for s in (a, b):
        got = [s.next_state() for _ in range(3)]
        check([n for n, _ in got] == [4, 5, 6] and got[-1][1]["moves"][-1] == "a6", "each state: %s" % [n for n, _ in got])
    a.close()
    # A console that reconnects gets the current state first (it catches up).
    event(sid, {"type": "move", "move": "Ba4"})
    c = Stream(srv.port, "/api/v1/sessions/%d/stream" % sid, "Last-Event-ID: 6\r\n")
    n, state = c.next_state()
    check(n == 7 and state["moves"] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"], "catch-up %s" % state)
    _, state = b.next_state()
    check(state["moves"][-1] == "Ba4", "the other listener still follows")
    b.close(), c.close()
    status, j, _, _ = srv.request("GET", "/api/v1/sessions/777777/stream")
    check(status == 404, "stream of no session")


# Procedure scenarios (as in tests/cli/cli_session_test.sh): the same events through the CLI and
# through HTTP give the same final state.
SCENARIOS = {
    "incorrect_claim_penalty": ({"time_control": "300+2"}, [
        {"type": "move", "move": "Nf3", "at_ms": 1000}, {"type": "move", "move": "Nf6", "at_ms": 2000},
        {"type": "claim", "kind": "threefold", "at_ms": 3000}]),
    "correct_claim_written_move": ({"time_control": "5400+30"}, [
        {"type": "move", "move": m, "at_ms": 1000 * (k + 1)} for k, m in enumerate(
            ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"])] + [
        {"type": "claim", "kind": "threefold", "intended": "Ng8", "at_ms": 9000}]),
    "offer_decline_accept": ({"white": "W", "black": "B"}, [
        {"type": "move", "move": "e4", "offer": True, "at_ms": 1000}, {"type": "decline", "at_ms": 2000},
        {"type": "move", "move": "e5", "at_ms": 3000}, {"type": "offer", "side": "white", "at_ms": 4000},
        {"type": "accept", "at_ms": 5000}]),
    "touch_move_and_flag": ({"time_control": "60"}, [
        {"type": "start", "at_ms": 0}, {"type": "touch", "side": "white", "square": "g1", "at_ms": 500},
        {"type": "move", "move": "Nf3", "at_ms": 1000}, {"type": "flag", "side": "black", "at_ms": 62000}]),
    "pause_resign": ({"time_control": "900+10", "rules": "uscf"}, [
        {"type": "move", "move": "d4", "at_ms": 1000}, {"type": "pause", "at_ms": 2000},
        {"type": "resume", "at_ms": 9000}, {"type": "resign", "side": "black", "at_ms": 9500}]),
}

FLAGS = {"time_control": "--time-control", "white": "--white", "black": "--black", "rules": "--rules"}


def test_scenarios_same_as_cli():
    cli_journal = os.path.join(WORK, "scenarios.journal")
    for name, (config, events) in SCENARIOS.items():
        sid, _ = new_session(**config)
        args = ["session", "new", "--journal", cli_journal]
        for k, v in config.items():
            args += [FLAGS[k], v]
        cid = cli(*args).stdout.strip()
        for e in events:
            p = cli("session", "event", "--journal", cli_journal, cid, json.dumps(e), ok=False)
            status, j, _, _ = srv.request("POST", "/api/v1/sessions/%d/events" % sid, e)
            check(p.returncode == 0 and status == 200, "%s %s: CLI %d, HTTP %d %s" % (name, e, p.returncode, status, j))
        mine = json.loads(cli("session", "show", "--journal", cli_journal, cid, "--json").stdout)
        status, got, _, _ = srv.request("GET", "/api/v1/sessions/%d" % sid)
        mine.pop("id"), got.pop("id")
        check(got == mine, "%s: HTTP and CLI differ:\n%s\n%s" % (name, got, mine))


def test_second_server_refused():
    p = subprocess.run([ARBITER, "serve", "--journal", JOURNAL, "--listen", "127.0.0.1:0"], capture_output=True,
                       text=True, timeout=20)
    check(p.returncode == 2 and "already served" in p.stderr, "second server: %d %s" % (p.returncode, p.stderr))


def test_listen_rules():
    for args, says in [(["--listen", "0.0.0.0:0"], "not a loopback address"),
                       (["--listen", "127.0.0.1:99999"], "port"), (["--listen", "nohost"], "HOST:PORT"),
                       (["--token-file", os.path.join(WORK, "missing")], "cannot read")]:
        p = subprocess.run([ARBITER, "serve", "--journal", os.path.join(WORK, "other.journal")] + args,
                           capture_output=True, text=True, timeout=20)
        check(p.returncode == 2 and says in p.stderr, "%s: %d %s" % (args, p.returncode, p.stderr))


def test_token():
    token_file = os.path.join(WORK, "token")
    with open(token_file, "w") as f:
        f.write("s3cret-token-0123456789\n")
    t = Server(ARBITER, os.path.join(WORK, "token.journal"), "--token-file", token_file).start()
    try:
        check(t.request("GET", "/api/v1/health")[0] == 200, "health needs no token")
        check(t.request("GET", "/")[0] == 200, "static files need no token")
        status, j, _, h = t.request("GET", "/api/v1/sessions")
        check(status == 401 and j["error"]["code"] == "unauthorized" and h.get("WWW-Authenticate") == "Bearer",
              "401 without token")
        check(t.request("GET", "/api/v1/sessions", headers={"Authorization": "Bearer wrong-token-0123456789"})[0]
              == 401, "401 with a wrong token")
        status, j, _, _ = t.request("POST", "/api/v1/sessions", {},
                                    headers={"Authorization": "Bearer s3cret-token-0123456789"})
        check(status == 201, "201 with the token")
    finally:
        t.stop()


def test_restart_same_states():
    global srv
    status, before, _, _ = srv.request("GET", "/api/v1/sessions")
    states = {r["id"]: srv.request("GET", "/api/v1/sessions/%d" % r["id"])[1] for r in before}
    check(srv.stop() == 0, "clean stop on SIGTERM")
    srv = Server(ARBITER, JOURNAL).start()
    status, after, _, _ = srv.request("GET", "/api/v1/sessions")
    check(after == before, "same list after restart")
    for sid, state in states.items():
        check(srv.request("GET", "/api/v1/sessions/%d" % sid)[1] == state, "session %d same after restart" % sid)
    event(before[0]["id"], {"type": "resign", "side": "white"})


def test_concurrent_clients():
    ids = [new_session()[0] for _ in range(4)]
    errors = []

    def play(sid):
        try:
            for mv in ["Nf3", "Nf6", "Ng1", "Ng8"] * 3:
                event(sid, {"type": "move", "move": mv})
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=play, args=(sid,)) for sid in ids]
    [t.start() for t in threads]
    [t.join(60) for t in threads]
    check(not errors, "errors: %s" % errors)
    for sid in ids:
        check(srv.request("GET", "/api/v1/sessions/%d" % sid)[1]["events"] == 12, "all events of session %d" % sid)


try:
    run([("health", test_health), ("create same as CLI", test_create_same_as_cli),
         ("config errors", test_config_errors), ("body limits", test_body_limits), ("events and refusal", test_events_and_refusal),
         ("list, get, pgn, 404, 405", test_list_get_pgn),
         ("status, claim, dead same as CLI", test_status_claim_dead_same_as_cli), ("board.svg", test_board_svg),
         ("SSE to two listeners, catch-up", test_sse_two_listeners),
         ("scenarios same as CLI", test_scenarios_same_as_cli), ("second server refused", test_second_server_refused),
         ("listen and token-file checks", test_listen_rules), ("token", test_token),
         ("concurrent clients", test_concurrent_clients), ("restart, same states", test_restart_same_states)])
finally:
    srv.stop()
