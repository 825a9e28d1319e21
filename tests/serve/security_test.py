"""security_test.py — `arbiter serve` tried as an attacker on the hall network would (issue 64):
named users with roles (a viewer posting an event, an arbiter deleting a session or acting outside
its section, a revoked token, a token of another server), 1,000 wrong tokens in a minute from one
address while a user on another works on, who entered each event, and rows edited, deleted and
inserted with sqlite3 — each refused or detected, nothing lost. Usage: security_test.py ARBITER WORKDIR"""
import http.client
import json
import os
import sqlite3
import subprocess
import sys
import time

from serve_test_lib import fresh_journal, Server, Stream, check, run

ARBITER, WORK = sys.argv[1], sys.argv[2]
JOURNAL = fresh_journal(WORK, "security.journal")


def cli(*args, ok=True):
    p = subprocess.run([ARBITER] + list(args), capture_output=True, text=True, timeout=60)
    if ok:
        check(p.returncode == 0, "arbiter %s: %d %s" % (" ".join(args), p.returncode, p.stderr))
    return p


def add_user(journal, name, role, *extra):
    p = cli("users", "add", "--journal", journal, "--name", name, "--role", role, "--json", "--by", "setup", *extra)
    j = json.loads(p.stdout)
    check(j["name"] == name and j["role"] == role and len(j["token"]) == 64, "users add --json: %s" % p.stdout)
    return j["token"]


TOKENS = {
    "chief": add_user(JOURNAL, "chief", "chief"),
    "deputy": add_user(JOURNAL, "deputy", "arbiter", "--sections", "Open A"),
    "boards": add_user(JOURNAL, "boards", "arbiter", "--boards", "1-10,12"),
    "screen": add_user(JOURNAL, "screen", "viewer"),
}
srv = Server(ARBITER, JOURNAL).start()


def call(method, path, token=None, body=None, source="127.0.0.1"):
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=20, source_address=(source, 0))
    headers = {"Authorization": "Bearer " + token} if token else {}
    data = None if body is None else json.dumps(body).encode()
    c.request(method, path, body=data, headers=headers)
    r = c.getresponse()
    raw = r.read()
    c.close()
    parsed = json.loads(raw) if r.getheader("Content-Type", "").startswith("application/json") else None
    return r.status, parsed, dict(r.getheaders())


def as_user(name, method, path, body=None, expect=200):
    status, j, headers = call(method, path, TOKENS[name], body)
    check(status == expect, "%s %s %s as %s: %d %s" % (method, path, body, name, status, j))
    return j, headers


SESSIONS = {}


def test_open_routes_need_no_token():
    for path in ("/api/v1/health", "/api/v1/rule_sets", "/", "/board.svg?fen=8/8/8/8/8/8/8/K6k%20w%20-%20-"):
        status, _, _ = call("GET", path)
        check(status == 200, "%s without a token: %d" % (path, status))
    for method, path in (("GET", "/api/v1/sessions"), ("POST", "/api/v1/claim"), ("GET", "/api/v1/journal"),
                         ("GET", "/api/v1/watch")):
        status, j, headers = call(method, path)
        check(status == 401 and j["error"]["code"] == "unauthorized", "%s %s: %d %s" % (method, path, status, j))
        check(headers.get("WWW-Authenticate") == "Bearer", "WWW-Authenticate on a 401")


def test_roles():
    # The chief creates sessions: one in section Open A on board 3, one in Open B on board 11.
    for key, section, board in (("a", "Open A", "3"), ("b", "Open B", "11")):
        j, _ = as_user("chief", "POST", "/api/v1/sessions",
                       {"white": "W" + key, "black": "B" + key, "section": section, "board": board}, expect=201)
        SESSIONS[key] = j["id"]
    a, b = SESSIONS["a"], SESSIONS["b"]
    # A viewer reads everything, writes nothing.
    as_user("screen", "GET", "/api/v1/sessions")
    as_user("screen", "GET", "/api/v1/sessions/%d" % a)
    as_user("screen", "GET", "/api/v1/sessions/%d/pgn" % a)
    as_user("screen", "POST", "/api/v1/claim", {"kind": "threefold", "moves": "e4 e5"})
    j, _ = as_user("screen", "POST", "/api/v1/sessions/%d/events" % a, {"type": "move", "move": "e4", "at_ms": 1000},
                   expect=403)
    check(j["error"]["code"] == "forbidden" and j["needs"] == "arbiter" and "arbiter role" in j["error"]["message"],
          "viewer event: %s" % j)
    j, _ = as_user("screen", "POST", "/api/v1/sessions", {}, expect=403)
    check(j["needs"] == "chief" and "chief role" in j["error"]["message"], "viewer create: %s" % j)
    st = Stream(srv.port, "/api/v1/sessions/%d/stream" % a, "Authorization: Bearer %s\r\n" % TOKENS["screen"])
    check(st.status == 200 and st.next_state()[1]["moves"] == [], "a viewer's stream")
    st.close()
    # An arbiter enters events on its section only, never creates or deletes.
    as_user("deputy", "POST", "/api/v1/sessions/%d/events" % a, {"type": "move", "move": "e4", "at_ms": 1000})
    j, _ = as_user("deputy", "POST", "/api/v1/sessions/%d/events" % b, {"type": "move", "move": "e4", "at_ms": 1000},
                   expect=403)
    check("sections" in j["error"]["message"] and "Open B" in j["error"]["message"], "outside its section: %s" % j)
    j, _ = as_user("deputy", "DELETE", "/api/v1/sessions/%d" % b, expect=403)
    check(j["needs"] == "chief", "an arbiter deleting a session: %s" % j)
    as_user("deputy", "POST", "/api/v1/sessions", {}, expect=403)
    j, _ = as_user("deputy", "POST", "/api/v1/sessions/%d/events" % a, {"type": "retract", "count": 1, "force": True, "at_ms": 1500},
                   expect=403)
    check(j["needs"] == "chief", "a retraction with force is the chief's: %s" % j)
    # Boards: 11 is not in 1-10,12; 3 is.
    as_user("boards", "POST", "/api/v1/sessions/%d/events" % b, {"type": "move", "move": "d4", "at_ms": 1000},
            expect=403)
    as_user("boards", "POST", "/api/v1/sessions/%d/events" % a, {"type": "move", "move": "e5", "at_ms": 2000})
    # The session is unchanged by every refusal: two moves, by the two arbiters.
    j, _ = as_user("screen", "GET", "/api/v1/sessions/%d" % a)
    check(j["moves"] == ["e4", "e5"], "after the refusals: %s" % j["moves"])
    j, _ = as_user("screen", "GET", "/api/v1/sessions/%d" % b)
    check(j["moves"] == [], "session b untouched: %s" % j["moves"])


def test_who_entered_each_event():
    a = SESSIONS["a"]
    h, _ = as_user("screen", "GET", "/api/v1/sessions/%d/history" % a)
    check(h["created"]["by"] == "chief", "created by: %s" % h["created"])
    check([e["by"] for e in h["events"]] == ["deputy", "boards"], "by: %s" % h["events"])
    check(all(e["at"].endswith("Z") and e["unix_ms"] > 1.7e12 for e in h["events"]), "when: %s" % h["events"])
    # The CLI records the OS user, or --by.
    cli("session", "event", "--journal", JOURNAL, "--by", "Reza", str(a), '{"type":"move","move":"Nf3","at_ms":3000}')
    p = cli("session", "show", "--journal", JOURNAL, "--history", "--json", str(a))
    check([e["by"] for e in json.loads(p.stdout)["events"]] == ["deputy", "boards", "Reza"], "CLI --by: %s" % p.stdout)
    p = cli("session", "show", "--journal", JOURNAL, "--history", str(a))
    check("Event 3    move Nf3 — Reza, " in p.stdout, "session show --history: %s" % p.stdout)
    p = cli("session", "export", "--journal", JOURNAL, "--json", str(a))
    x = json.loads(p.stdout)
    check([e["by"] for e in x["entered"]] == ["deputy", "boards", "Reza"] and len(x["journal_head"]) == 64,
          "export: %s" % p.stdout)
    # The server saw the CLI's event (a conflict reloads it); the journal's head moved with it.
    j, _ = as_user("chief", "GET", "/api/v1/journal")
    check(j["chain"] == "whole" and len(j["head"]) == 64, "journal: %s" % j)


def test_chief_deletes_a_session():
    b = SESSIONS["b"]
    j, _ = as_user("chief", "DELETE", "/api/v1/sessions/%d" % b)
    check(j == {"id": b, "deleted": True, "by": "chief"}, "delete: %s" % j)
    as_user("screen", "GET", "/api/v1/sessions/%d" % b, expect=404)
    lst, _ = as_user("screen", "GET", "/api/v1/sessions")
    check(b not in [s["id"] for s in lst], "a deleted session is not listed")
    p = cli("session", "show", "--journal", JOURNAL, str(b), ok=False)
    check(p.returncode == 2 and "deleted by chief" in p.stderr,
          "CLI on a deleted session: %d %s %s" % (p.returncode, p.stdout, p.stderr))


def test_revoked_and_foreign_tokens():
    as_user("screen", "GET", "/api/v1/sessions")
    cli("users", "revoke", "--journal", JOURNAL, "--name", "screen")
    j, _ = as_user("screen", "GET", "/api/v1/sessions", expect=401)  # at once, on the running server
    check(j["error"]["code"] == "unauthorized", "revoked: %s" % j)
    other = fresh_journal(WORK, "other.journal")
    foreign = add_user(other, "chief", "chief")
    status, j, _ = call("GET", "/api/v1/sessions", foreign)
    check(status == 401, "a token of another server's journal: %d %s" % (status, j))
    p = cli("users", "list", "--journal", JOURNAL, "--json")
    users = {u["name"]: u for u in json.loads(p.stdout)}
    check(users["screen"]["revoked"]["by"] and users["chief"]["revoked"] is None, "users list: %s" % p.stdout)
    check("token" not in p.stdout, "users list shows no token")


def test_guessing_is_stopped():
    """1,000 wrong tokens from 127.0.0.2 within a minute: 429 after at most 20, with Retry-After;
    the chief on 127.0.0.1 works on throughout, and nothing is lost."""
    codes = []
    chief_ok = 0
    started = time.time()
    for i in range(1000):
        status, j, headers = call("GET", "/api/v1/sessions", "%064x" % (i * 7919 + 1), source="127.0.0.2")
        codes.append(status)
        if status == 429:
            check(j["error"]["code"] == "too_many_attempts", "429 body: %s" % j)
            check(1 <= int(headers.get("Retry-After", "0")) <= 61, "Retry-After: %s" % headers.get("Retry-After"))
        if i % 100 == 0:
            as_user("chief", "GET", "/api/v1/sessions")
            chief_ok += 1
        if time.time() - started > 50:
            break
    first_429 = codes.index(429) if 429 in codes else None
    check(first_429 is not None and first_429 <= 20, "429 after at most 20 failures: first at %s" % first_429)
    check(all(c == 401 for c in codes[:first_429]) and all(c == 429 for c in codes[first_429:]),
          "401 then only 429: %s" % sorted(set(codes)))
    # Even the right token waits at that address; the others are unaffected.
    status, _, _ = call("GET", "/api/v1/sessions", TOKENS["chief"], source="127.0.0.2")
    check(status == 429, "a right token from the blocked address: %d" % status)
    as_user("chief", "GET", "/api/v1/sessions")
    j, _ = as_user("deputy", "GET", "/api/v1/sessions/%d" % SESSIONS["a"])
    check(j["moves"][:2] == ["e4", "e5"], "nothing lost: %s" % j["moves"])
    p = cli("session", "show", "--json", "--journal", JOURNAL, str(SESSIONS["a"]))
    check(json.loads(p.stdout)["moves"] == ["e4", "e5", "Nf3"], "nothing lost in the journal: %s" % p.stdout)


def stop_and_read_stderr():
    srv.stop()
    return srv.proc.stderr.read()


def test_tampering_is_detected():
    global srv
    log = stop_and_read_stderr()
    check("authentication failed from 127.0.0.2" in log, "failures logged with the address: %s" % log[-500:])
    check("within a minute: refused for" in log, "the lockout logged")
    p = cli("session", "verify", "--journal", JOURNAL, "--json")
    head = json.loads(p.stdout)["head"]
    cases = [
        ("UPDATE events SET at_ms = at_ms + 1 WHERE seq = 2", "event 2 was changed"),
        ("DELETE FROM events WHERE seq = 3", "event 3 was removed"),
        ("INSERT INTO events SELECT session_id, 4, at_ms, event, digest, entered_ms, entered_by FROM events "
         "WHERE seq = 3", "event 4 was inserted"),
        ("UPDATE users SET role = 'chief' WHERE name = 'deputy'", "user 'deputy' was changed"),
    ]
    pristine = open(JOURNAL, "rb").read()
    for statement, named in cases:
        for suffix in ("-wal", "-shm"):
            if os.path.exists(JOURNAL + suffix):
                os.remove(JOURNAL + suffix)
        open(JOURNAL, "wb").write(pristine)
        db = sqlite3.connect(JOURNAL)
        db.execute(statement)
        db.commit()
        db.close()
        p = cli("session", "verify", "--journal", JOURNAL, ok=False)
        check(p.returncode == 2 and named in p.stderr, "verify after %s: %d %s" % (statement, p.returncode, p.stderr))
        p = subprocess.run([ARBITER, "serve", "--journal", JOURNAL, "--listen", "127.0.0.1:0"], capture_output=True,
                           text=True, timeout=30)
        check(p.returncode == 2 and "hash chain" in p.stderr and "--accept-broken-journal" in p.stderr,
              "serve on a broken journal: %d %s" % (p.returncode, p.stderr))
    # Told to, it serves the broken journal and warns on every answer.
    srv = Server(ARBITER, JOURNAL, "--accept-broken-journal").start()
    status, j, headers = call("GET", "/api/v1/health")
    check(j["journal"] == "broken" and headers.get("X-Arbiter-Journal") == "broken", "warned: %s %s" % (j, headers))
    j, _ = as_user("chief", "GET", "/api/v1/journal")
    check(j["chain"] == "broken" and "was changed" in j["problem"], "journal route: %s" % j)
    srv.stop()
    # The pristine file verifies, with its published head.
    for suffix in ("-wal", "-shm"):
        if os.path.exists(JOURNAL + suffix):
            os.remove(JOURNAL + suffix)
    open(JOURNAL, "wb").write(pristine)
    p = cli("session", "verify", "--journal", JOURNAL, "--head", head)
    check(p.stdout.startswith("whole: ") and head in p.stdout, "verify --head: %s" % p.stdout)


def test_token_file_is_one_chief():
    global srv
    token_file = os.path.join(WORK, "token")
    with open(token_file, "w") as f:
        f.write("a-long-enough-shared-token-0123\n")
    srv = Server(ARBITER, JOURNAL, "--token-file", token_file).start()
    try:
        status, j, _ = call("POST", "/api/v1/sessions", "a-long-enough-shared-token-0123", {"white": "T"})
        check(status == 201, "the token file's chief creates: %d %s" % (status, j))
        h, _ = as_user("chief", "GET", "/api/v1/sessions/%d/history" % j["id"])
        check(h["created"]["by"] == "token-file", "recorded as token-file: %s" % h["created"])
    finally:
        srv.stop()


try:
    run([
        ("open routes need no token", test_open_routes_need_no_token),
        ("roles", test_roles),
        ("who entered each event", test_who_entered_each_event),
        ("chief deletes a session", test_chief_deletes_a_session),
        ("revoked and foreign tokens", test_revoked_and_foreign_tokens),
        ("guessing is stopped", test_guessing_is_stopped),
        ("tampering is detected", test_tampering_is_detected),
        ("token file is one chief", test_token_file_is_one_chief),
    ])
finally:
    srv.stop()
