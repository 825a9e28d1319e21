#!/usr/bin/env python3
"""One answer per operation (issue 61): the same good and bad requests for every operation on a
position or a game -- status, claim, dead, moves, perft, play -- through the command line (--json),
the service (POST /api/v1/NAME), the Python module (request()) and the JavaScript package
(request()) must give the same JSON, key order aside; a refusal the same code and field. An
operation that does not exist is refused as not_found by every face that takes a name.

usage: operation_parity_test.py ARBITER_CLI WORK_DIR PYTHON_PACKAGE_DIR JS_PACKAGE_DIR
Prints one line per case and face; exits 1 on any difference."""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve"))
from serve_test_lib import Server  # noqa: E402

ARBITER, WORK, PY_DIR, JS_DIR = sys.argv[1:5]

KNIGHTS = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"
KRK = "8/8/8/4k3/8/8/8/K6R w - - 0 1"
LOCKED = "8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"

# (name, operation, request, the CLI's arguments or None where the CLI has no such command)
CASES = [
    ("status of a repetition", "status", {"moves": KNIGHTS}, ["status", "--moves", KNIGHTS]),
    ("status under uscf", "status", {"moves": KNIGHTS, "rules": "uscf"}, ["status", "--rules", "uscf", "--moves", KNIGHTS]),
    ("a correct claim", "claim", {"moves": KNIGHTS, "kind": "threefold"}, ["claim", "threefold", "--moves", KNIGHTS]),
    ("an incorrect claim", "claim", {"moves": "Nf3 Nf6", "kind": "fifty", "rules": "fide-2005"},
     ["claim", "fifty", "--rules", "fide-2005", "--moves", "Nf3 Nf6"]),
    ("a claim with a written move", "claim", {"moves": KNIGHTS[:-4], "kind": "threefold", "intended": "Ng8"},
     ["claim", "threefold", "--intended", "Ng8", "--moves", KNIGHTS[:-4]]),
    ("dead: a locked board", "dead", {"fen": LOCKED}, ["dead", "--fen", LOCKED]),
    ("dead: one side", "dead", {"fen": KRK, "side": "black"}, ["dead", "--side", "black", "--fen", KRK]),
    ("dead: the fast check", "dead", {"fen": LOCKED, "fast": True}, ["dead", "--fast", "--fen", LOCKED]),
    ("dead: the fast check, unknown", "dead", {"fen": KRK, "fast": True, "side": "white"},
     ["dead", "--fast", "--side", "white", "--fen", KRK]),
    ("dead: fast and quick", "dead", {"fen": KRK, "fast": True, "quick": True}, ["dead", "--fast", "--quick", "--fen", KRK]),
    ("moves of a mate", "moves", {"fen": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"},
     ["moves", "--fen", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"]),
    ("moves of the start", "moves", {}, ["moves"]),
    ("moves, verbose", "moves", {"fen": KRK, "verbose": True}, ["moves", "--verbose", "--fen", KRK]),
    ("perft with divide", "perft", {"fen": KRK, "depth": 2, "divide": True}, ["perft", "--divide", "2", "--fen", KRK]),
    ("perft", "perft", {"depth": 3}, ["perft", "3"]),
    ("play", "play", {"fen": KRK, "move": "Rh5+"}, ["play", "Rh5+", "--fen", KRK]),
    ("play in UCI", "play", {"fen": KRK, "move": "h1h5"}, ["play", "h1h5", "--fen", KRK]),
    # Refusals: the same code and field everywhere.
    ("an empty FEN", "status", {"fen": ""}, ["status", "--fen", ""]),
    ("a claim of no kind, before the position", "claim", {"fen": "x", "kind": "sixfold"},
     ["claim", "sixfold", "--fen", "x"]),
    ("an illegal move", "status", {"moves": "e4 e5 Ke3"}, ["status", "--moves", "e4 e5 Ke3"]),
    ("perft too deep", "perft", {"depth": 99}, ["perft", "99"]),
    ("dead: no such side", "dead", {"fen": KRK, "side": "grey"}, ["dead", "--side", "grey", "--fen", KRK]),
    ("dead: a limit of 0", "dead", {"fen": KRK, "limit": 0}, ["dead", "--limit", "0", "--fen", KRK]),
    ("an unknown rule set", "claim", {"moves": "e4", "kind": "fifty", "rules": "fide-1999"},
     ["claim", "fifty", "--rules", "fide-1999", "--moves", "e4"]),
    ("play in figurines", "play", {"fen": KRK, "move": "\u2656h5+"}, ["play", "\u2656h5+", "--fen", KRK]),
    ("status of moves in figurines", "status", {"moves": "e4 e5 \u2658f3 \u265ec6"},
     ["status", "--moves", "e4 e5 \u2658f3 \u265ec6"]),
    ("play: a figurine off the board", "play", {"fen": KRK, "move": "\u2656h9"}, ["play", "\u2656h9", "--fen", KRK]),
    ("play: an illegal move", "play", {"fen": KRK, "move": "Rh9"}, ["play", "Rh9", "--fen", KRK]),
    ("no such operation", "status2", {"moves": "e4"}, None),
]

# The table of every operation (face_core/requests/operations.hpp, `arbiter help --operations
# --json`): each face it names has the operation under the name it gives.
PY_NAMES = r"""
import functools, json, sys
import arbiter
missing = []
for op in json.load(sys.stdin):
    if "python" not in op["faces"]:
        continue
    if op["python"]:
        try:
            functools.reduce(getattr, op["python"].split("."), arbiter)
        except AttributeError:
            missing.append(op["name"] + ": arbiter." + op["python"])
    elif op["name"] not in arbiter.OPERATIONS:
        missing.append(op["name"] + ": neither a name nor in request()")
print(json.dumps(missing))
"""

JS_NAMES = r"""
import { load } from '%s/node.mjs';
const api = await load();
const ops = JSON.parse(await new Promise((ok) => { let s = ''; process.stdin.on('data', (d) => s += d); process.stdin.on('end', () => ok(s)); }));
const missing = [];
for (const op of ops) {
  if (!op.faces.includes('javascript')) continue;
  if (op.javascript) {
    let at = api;
    for (const part of op.javascript.split('.')) at = at?.[part] ?? at?.prototype?.[part];
    if (typeof at !== 'function') missing.push(op.name + ': ' + op.javascript);
  } else {
    try { api.request(op.name, {}); } catch (e) { if (e.code === 'not_found') missing.push(op.name + ': not in request()'); }
  }
}
console.log(JSON.stringify(missing));
"""


def check_table():
    """Each face the table names for an operation has it: the CLI's command, Python's and
    JavaScript's names (the service's routes: tests/serve/serve_service_test.cpp)."""
    p = subprocess.run([ARBITER, "help", "--operations", "--json"], capture_output=True, text=True, timeout=60)
    table = json.loads(p.stdout)
    failed = 0
    for op in table:
        if op["cli"]:
            words = op["cli"].split()[1:]
            ok = subprocess.run([ARBITER, "help"] + words, capture_output=True, text=True, timeout=60).returncode == 0
            print("%s table: %-16s cli %s" % ("ok  " if ok else "FAIL", op["name"], op["cli"]))
            failed += not ok
    py = subprocess.run([sys.executable, "-c", PY_NAMES], input=json.dumps(table), capture_output=True, text=True,
                        env=dict(os.environ, PYTHONPATH=PY_DIR), timeout=120)
    with tempfile.NamedTemporaryFile("w", suffix=".mjs", dir=WORK, delete=False) as f:
        f.write(JS_NAMES % os.path.abspath(JS_DIR))
    js = subprocess.run(["node", f.name], input=json.dumps(table), capture_output=True, text=True, timeout=120)
    for face, p in (("python", py), ("javascript", js)):
        missing = json.loads(p.stdout) if p.returncode == 0 else ["the runner failed: " + p.stderr]
        print("%s table: every %s name %s" % ("ok  " if not missing else "FAIL", face, "; ".join(missing)))
        failed += bool(missing)
    return failed

PY_RUNNER = r"""
import json, sys
import arbiter
out = []
for op, request in json.load(sys.stdin):
    try:
        out.append(arbiter.request(op, request))
    except arbiter.Error as e:
        out.append({"error": {"code": e.code, "field": e.field}})
print(json.dumps(out))
"""

JS_RUNNER = r"""
import { load } from '%s/node.mjs';
const api = await load();
const calls = JSON.parse(await new Promise((ok) => { let s = ''; process.stdin.on('data', (d) => s += d); process.stdin.on('end', () => ok(s)); }));
const out = [];
for (const [op, request] of calls) {
  try {
    out.push(api.request(op, request));
  } catch (e) {
    out.push({ error: { code: e.code ?? 'not an ArbiterError: ' + e.message, field: e.field ?? null } });
  }
}
console.log(JSON.stringify(out));
"""


def refusal(answer):
    """A refusal's code and field (its words differ by face: each names the parameter its way)."""
    if isinstance(answer, dict) and "error" in answer:
        return {"error": {"code": answer["error"]["code"], "field": answer["error"].get("field")}}
    return answer


def cli(args):
    if args is None:
        return None
    p = subprocess.run([ARBITER] + args[:1] + ["--json"] + args[1:], capture_output=True, text=True, timeout=120)
    return refusal(json.loads(p.stdout.strip().splitlines()[-1]))


def run(runner, calls, env=None):
    p = subprocess.run(runner, input=json.dumps(calls), capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0:
        raise AssertionError("%s failed: %s" % (runner[0], p.stderr))
    return [refusal(a) for a in json.loads(p.stdout)]


def main():
    os.makedirs(WORK, exist_ok=True)
    journal = os.path.join(WORK, "operations.arbiter")
    if os.path.exists(journal):
        os.remove(journal)
    answers = {name: {"cli": cli(args)} for name, _, _, args in CASES}
    server = Server(ARBITER, journal).start()
    try:
        for name, op, request, _ in CASES:
            status, parsed = server.request("POST", "/api/v1/" + op, request)[:2]
            answers[name]["service"] = refusal(parsed)
    finally:
        server.stop()
    calls = [(op, request) for _, op, request, _ in CASES]
    py = run([sys.executable, "-c", PY_RUNNER], calls, dict(os.environ, PYTHONPATH=PY_DIR))
    with tempfile.NamedTemporaryFile("w", suffix=".mjs", dir=WORK, delete=False) as f:
        f.write(JS_RUNNER % os.path.abspath(JS_DIR))
    js = run(["node", f.name], calls)
    for (name, _, _, _), p, j in zip(CASES, py, js):
        answers[name]["python"] = p
        answers[name]["javascript"] = j
    failed = 0
    for name, op, _, _ in CASES:
        faces = {face: a for face, a in answers[name].items() if a is not None}
        reference = faces["python"]
        for face, a in faces.items():
            same = a == reference
            if name == "no such operation" and face == "service":
                same = a == {"error": {"code": "not_found", "field": None}}  # no such route
            print("%s %-42s %-10s %s" % ("ok  " if same else "FAIL", name, face,
                                         json.dumps(a)[:100] if not same else op))
            failed += not same
    if answers["no such operation"]["python"] != {"error": {"code": "not_found", "field": None}}:
        print("FAIL an unknown operation is not refused as not_found: %s" % answers["no such operation"]["python"])
        failed += 1
    failed += check_table()
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
