#!/usr/bin/env python3
"""The one error vocabulary (issue 45): the same bad inputs given to every face that takes them --
the command line (--json), the service (POST /api/v1/...), the Python module and the JavaScript
package (status() and Game) -- must be refused with the same code and the same field, and every
face's words must name the parameter in its own terms (no command-line flag outside the CLI).

usage: error_parity_test.py ARBITER_CLI WORK_DIR [PYTHON_PACKAGE_DIR] [JS_PACKAGE_DIR]
A face whose directory is not given (or absent) is left out and said so; the CLI and the service
are always run. Prints one line per case and face; exits 1 on any difference."""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve"))
from serve_test_lib import Server  # noqa: E402

ARBITER = sys.argv[1]
WORK = sys.argv[2]
PY_DIR = sys.argv[3] if len(sys.argv) > 3 and os.path.isdir(sys.argv[3]) else None
JS_DIR = sys.argv[4] if len(sys.argv) > 4 and os.path.isdir(sys.argv[4]) else None

BAD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"
KRK = "8/8/8/4k3/8/8/8/K6R w - - 0 1"

# Each case: a name, the expected (code, field), and what each face is given. `request` is the
# JSON of the service (and of JavaScript's status/claim/dead); `cli` the command's arguments;
# `python` and `js` name a call of those faces (built below).
CASES = [
    {"name": "bad FEN", "want": ("bad_fen", "fen"), "route": "status", "request": {"fen": BAD_FEN},
     "cli": ["status", "--fen", BAD_FEN], "python": ("game", {"fen": BAD_FEN}), "js": ("game", {"fen": BAD_FEN})},
    # Empty input has one meaning (issue 63): an empty FEN is a bad FEN, never the initial position.
    {"name": "empty FEN", "want": ("bad_fen", "fen"), "route": "status", "request": {"fen": ""},
     "cli": ["status", "--fen", ""], "python": ("game", {"fen": ""}), "js": ("game", {"fen": ""})},
    {"name": "illegal move", "want": ("illegal_move", "moves"), "route": "status", "request": {"moves": "e4 e5 Ke3"},
     "cli": ["status", "--moves", "e4 e5 Ke3"], "python": ("game", {"moves": "e4 e5 Ke3"}),
     "js": ("game", {"moves": "e4 e5 Ke3"})},
    {"name": "ambiguous move", "want": ("ambiguous_move", "moves"), "route": "status",
     "request": {"moves": "Nc3 a6 Nf3 b6 Ng5 c6 Ne4"}, "cli": ["status", "--moves", "Nc3 a6 Nf3 b6 Ng5 c6 Ne4"],
     "python": ("game", {"moves": "Nc3 a6 Nf3 b6 Ng5 c6 Ne4"}), "js": ("game", {"moves": "Nc3 a6 Nf3 b6 Ng5 c6 Ne4"})},
    {"name": "garbled move", "want": ("bad_move", "moves"), "route": "status", "request": {"moves": "e4 zz9"},
     "cli": ["status", "--moves", "e4 zz9"], "python": ("game", {"moves": "e4 zz9"}), "js": ("game", {"moves": "e4 zz9"})},
    {"name": "unknown rule set", "want": ("unknown_rule_set", "rules"), "route": "status",
     "request": {"moves": "e4", "rules": "fide-1999"}, "cli": ["status", "--rules", "fide-1999", "--moves", "e4"],
     "python": ("game", {"moves": "e4", "rules": "fide-1999"}), "js": ("game", {"moves": "e4", "rules": "fide-1999"})},
    {"name": "bad time category", "want": ("bad_value", "time_category"), "route": "status",
     "request": {"moves": "e4", "time_category": "bullet-ish"},
     "cli": ["status", "--time-category", "bullet-ish", "--moves", "e4"],
     "python": ("game", {"moves": "e4", "time_category": "bullet-ish"}),
     "js": ("game", {"moves": "e4", "time_category": "bullet-ish"})},
    {"name": "bad claim kind", "want": ("bad_value", "kind"), "route": "claim",
     "request": {"moves": "e4", "kind": "sixfold"}, "cli": ["claim", "sixfold", "--moves", "e4"],
     "python": ("claim", {"moves": "e4"}, "sixfold", None), "js": ("claim", {"moves": "e4"}, "sixfold", None)},
    {"name": "garbled intended move", "want": ("bad_move", "intended"), "route": "claim",
     "request": {"moves": "e4", "kind": "threefold", "intended": "zz9"},
     "cli": ["claim", "threefold", "--intended", "zz9", "--moves", "e4"],
     "python": ("claim", {"moves": "e4"}, "threefold", "zz9"), "js": ("claim", {"moves": "e4"}, "threefold", "zz9")},
    {"name": "dead: unknown side", "want": ("bad_value", "side"), "route": "dead",
     "request": {"fen": KRK, "side": "red"}, "cli": ["dead", "--side", "red", "--fen", KRK],
     "python": ("dead", KRK, {"side": "red"}), "js": ("dead", KRK, {"side": "red"})},
    {"name": "dead: limit 0", "want": ("bad_value", "limit"), "route": "dead", "request": {"fen": KRK, "limit": 0},
     "cli": ["dead", "--limit", "0", "--fen", KRK], "python": ("dead", KRK, {"limit": 0}),
     "js": ("dead", KRK, {"limit": 0})},
    {"name": "perft over the limit", "want": ("bad_value", "depth"), "cli": ["perft", "99"],
     "python": ("perft", 99), "js": ("perft", 99)},
]

# Text that is not a JSON object, through every face that reads JSON: the service's body, the CLI's
# session event and the JavaScript API (a lone surrogate, which JSON.stringify writes as \ud800).
JSON_CASES = [
    {"name": "not JSON", "want": ("bad_json", None), "body": '{"moves": "e4", ', "event": '{"type":"move",'},
    {"name": "lone surrogate", "want": ("bad_json", None), "body": '{"moves": "\\ud800"}',
     "event": '{"type":"move","move":"\\ud800","at_ms":0}', "js": "\ud800"},
    # (The CLI reads an event that does not start with "{" as a file's name: not this case.)
    {"name": "not an object", "want": ("bad_json", None), "body": '[1, 2]'},
]

# A new session's settings, through the faces that keep sessions: the CLI's `session new` and the
# service's POST /api/v1/sessions (the field is the settings' key in both).
SESSION_CASES = [
    {"name": "session: bad start FEN", "want": ("bad_fen", "start_fen"), "request": {"start_fen": "8/8/8 w"},
     "cli": ["--fen", "8/8/8 w"]},
    {"name": "session: bad date", "want": ("bad_value", "date"), "request": {"date": "2024-05-01"},
     "cli": ["--date", "2024-05-01"]},
    {"name": "session: bad round", "want": ("bad_value", "round"), "request": {"round": "3..1"},
     "cli": ["--round", "3..1"]},
    {"name": "session: bad rule set", "want": ("unknown_rule_set", "rules"), "request": {"rules": "fide-1850"},
     "cli": ["--rules", "fide-1850"]},
    {"name": "session: time control", "want": ("bad_value", "time_control"), "request": {"time_control": "5 min"},
     "cli": ["--time-control", "5 min"]},
]

# Text that is JSON but no event, through the faces that take events: the CLI's `session event` and
# the service's POST /api/v1/sessions/ID/events.
EVENT_CASES = [
    {"name": "event: unknown type", "want": ("unknown_event_type", "type"), "event": '{"type":"mvoe","at_ms":0}'},
    {"name": "event: no at_ms", "want": ("missing_field", "at_ms"), "event": '{"type":"move","move":"e4"}'},
    {"name": "event: at_ms text", "want": ("bad_value", "at_ms"), "event": '{"type":"move","move":"e4","at_ms":"x"}'},
    {"name": "event: unknown key", "want": ("unknown_field", "colour"),
     "event": '{"type":"move","move":"e4","at_ms":1,"colour":"w"}'},
]

FLAG_WORDS = ("--fen", "--moves", "--rules", "--time-category", "--intended", "--side", "--limit", "--depth", "--date",
              "--round", "--time-control")


def cli_error(args, words=1):
    """The CLI's refusal of `args`, --json given after the command's first `words` words."""
    p = subprocess.run([ARBITER] + args[:words] + ["--json"] + args[words:], capture_output=True, text=True, timeout=60)
    if p.returncode != 2:
        return ("exit %d" % p.returncode, None, p.stdout + p.stderr)
    e = json.loads(p.stdout.strip().splitlines()[-1])["error"]
    return (e["code"], e.get("field"), e["message"])


def service_error(server, route, request):
    status, parsed = server.request("POST", "/api/v1/" + route, request)[:2]
    if not isinstance(parsed, dict) or "error" not in parsed:
        return ("HTTP %d without an error" % status, None, json.dumps(parsed)[:200])
    e = parsed["error"]
    return (e["code"], e.get("field"), e["message"])


PY_RUNNER = r"""
import json, sys
import arbiter
out = []
for call in json.load(sys.stdin):
    try:
        if call[0] == "game":
            arbiter.Game(**call[1]).status()
        elif call[0] == "claim":
            arbiter.Game(**call[1]).claim(call[2], call[3])
        elif call[0] == "dead":
            arbiter.dead(call[1], **call[2])
        elif call[0] == "perft":
            arbiter.Position().perft(call[1])
        out.append(["no error", None, ""])
    except arbiter.Error as e:
        out.append([e.code, e.field, str(e)])
print(json.dumps(out))
"""

JS_RUNNER = r"""
import { load } from '%s/node.mjs';
const api = await load();
const calls = JSON.parse(await new Promise((ok) => { let s = ''; process.stdin.on('data', (d) => s += d); process.stdin.on('end', () => ok(s)); }));
const out = [];
for (const [call, face] of calls) {
  try {
    if (call[0] === 'game') {
      if (face === 'status') api.status(call[1]); else new api.Game(call[1]).status();
    } else if (call[0] === 'claim') {
      if (face === 'status') api.claim({ ...call[1], kind: call[2], intended: call[3] ?? undefined });
      else new api.Game(call[1]).claim(call[2], call[3]);
    } else if (call[0] === 'dead') {
      api.dead(call[1], call[2].side ?? 'both', call[2].limit === undefined ? undefined : { limit: call[2].limit });
    } else if (call[0] === 'perft') {
      new api.Position().perft(call[1]);
    }
    out.push(['no error', null, '']);
  } catch (e) {
    out.push([e.code ?? 'not an ArbiterError', e.field ?? null, String(e.message)]);
  }
}
console.log(JSON.stringify(out));
"""


def run_python(calls):
    env = dict(os.environ, PYTHONPATH=PY_DIR)
    p = subprocess.run([sys.executable, "-c", PY_RUNNER], input=json.dumps(calls), capture_output=True, text=True,
                       env=env, timeout=120)
    if p.returncode != 0:
        raise AssertionError("the Python runner failed: " + p.stderr)
    return [tuple(r) for r in json.loads(p.stdout)]


def run_js(calls):
    with tempfile.NamedTemporaryFile("w", suffix=".mjs", dir=WORK, delete=False) as f:
        f.write(JS_RUNNER % os.path.abspath(JS_DIR))
    p = subprocess.run(["node", f.name], input=json.dumps(calls), capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError("the JavaScript runner failed: " + p.stderr)
    return [tuple(r) for r in json.loads(p.stdout)]


def main():
    os.makedirs(WORK, exist_ok=True)
    journal = os.path.join(WORK, "parity.arbiter")
    if os.path.exists(journal):
        os.remove(journal)
    results = {c["name"]: {} for c in CASES}
    for c in CASES:
        results[c["name"]]["cli"] = cli_error(c["cli"])
    server = Server(ARBITER, journal).start()
    try:
        for c in CASES:
            if "route" in c:
                results[c["name"]]["service"] = service_error(server, c["route"], c["request"])
    finally:
        server.stop()
    if PY_DIR:
        for c, r in zip(CASES, run_python([c["python"] for c in CASES])):
            results[c["name"]]["python"] = r
    else:
        print("SKIP python: no package directory given")
    if JS_DIR:
        calls = [(c["js"], "game") for c in CASES] + [(c["js"], "status") for c in CASES if c["js"][0] in ("game", "claim")]
        got = run_js(calls)
        for c, r in zip(CASES, got[:len(CASES)]):
            results[c["name"]]["js Game" if c["js"][0] in ("game", "claim") else "js"] = r
        for c, r in zip([c for c in CASES if c["js"][0] in ("game", "claim")], got[len(CASES):]):
            results[c["name"]]["js status()"] = r
    else:
        print("SKIP javascript: no package directory given")
    json_results = {c["name"]: {} for c in JSON_CASES}
    server = Server(ARBITER, journal).start()
    try:
        for c in JSON_CASES:
            status, parsed = server.request("POST", "/api/v1/status", c["body"].encode())[:2]
            e = parsed["error"] if isinstance(parsed, dict) and "error" in parsed else {"code": "HTTP %d" % status}
            json_results[c["name"]]["service"] = (e["code"], e.get("field"), e.get("message", ""))
        for c in SESSION_CASES:
            results.setdefault(c["name"], {})["service"] = service_error(server, "sessions", c["request"])
        sid = server.request("POST", "/api/v1/sessions", {})[1]["id"]
        for c in EVENT_CASES:
            results.setdefault(c["name"], {})["service"] = service_error(server, "sessions/%d/events" % sid,
                                                                         c["event"])
    finally:
        server.stop()
    journal2 = os.path.join(WORK, "parity-events.arbiter")
    if os.path.exists(journal2):
        os.remove(journal2)
    subprocess.run([ARBITER, "session", "new", "--journal", journal2, "--white", "A", "--black", "B"],
                   capture_output=True, check=True, timeout=60)
    for c in [c for c in JSON_CASES if "event" in c]:
        p = subprocess.run([ARBITER, "session", "event", "--journal", journal2, "1", c["event"]], capture_output=True,
                           text=True, timeout=60)
        e = json.loads(p.stdout.strip().splitlines()[-1])["error"]
        json_results[c["name"]]["cli"] = (e["code"], e.get("field"), e["message"])
    if JS_DIR:
        js_calls = [(("game", {"moves": c["js"]}), "status") for c in JSON_CASES if "js" in c]
        for c, r in zip([c for c in JSON_CASES if "js" in c], run_js(js_calls)):
            json_results[c["name"]]["js status()"] = r
    for c in SESSION_CASES:
        results[c["name"]]["cli"] = cli_error(["session", "new", "--journal", journal2] + c["cli"], 2)
    for c in EVENT_CASES:
        results[c["name"]]["cli"] = cli_error(["session", "event", "--journal", journal2, "1", c["event"]], 2)
    failed = 0
    for c in JSON_CASES:
        for face, (code, field, message) in json_results[c["name"]].items():
            ok = (code, field) == c["want"]
            print("%s %-22s %-12s %s/%s" % ("ok  " if ok else "FAIL", c["name"], face, code, field))
            failed += not ok
    for c in CASES + SESSION_CASES + EVENT_CASES:
        for face, (code, field, message) in results[c["name"]].items():
            ok = (code, field) == c["want"]
            words_ok = face == "cli" or not any(w in message for w in FLAG_WORDS)
            print("%s %-22s %-12s %s/%s%s" % ("ok  " if ok and words_ok else "FAIL", c["name"], face, code, field,
                                              "" if words_ok else "  (names a CLI flag: %r)" % message))
            failed += not (ok and words_ok)
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
