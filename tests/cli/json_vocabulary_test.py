#!/usr/bin/env python3
"""Every command's JSON matches docs/json.md (ctest cli.json_vocabulary).

Runs the arbiter binary on positions, games and sessions that reach every branch of its JSON
(terminations, claims with evidence and look-alikes, penalties, errors, a damaged session…),
and checks each printed object against the key tables of docs/json.md: every key printed is
documented for its command, with a value of a documented type, and no value is "". Keys are
documented but never printed are listed too (a stale table fails as well).

Usage: json_vocabulary_test.py ARBITER DOCS_JSON_MD [SHARED_DATA_DIR]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ARBITER, DOC = sys.argv[1], sys.argv[2]
SHARED = sys.argv[3] if len(sys.argv) > 3 else ""

TYPE_WORDS = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
              "object": dict, "array": list}


def read_tables(path):
    """Section name -> {key path: type text}."""
    sections, current = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^## (.+?)\s*$", line)
        if m:
            current = m.group(1)
            sections[current] = {}
            continue
        m = re.match(r"^\| `([^`]+)` \| ([^|]*) \|", line)
        if m and current is not None:
            sections[current][m.group(1)] = m.group(2).strip()
    return sections


TABLES = read_tables(DOC)
problems = []
seen = {name: set() for name in TABLES}


def type_ok(value, type_text):
    words = type_text.split()
    if value is None:
        return "null" in words
    for w in words:
        if w.startswith("@"):
            if isinstance(value, dict):
                return True
            continue
        t = TYPE_WORDS.get(w)
        if t is None:
            continue
        if t is int and isinstance(value, bool):
            continue
        if isinstance(value, t) and not (t in (int, (int, float)) and isinstance(value, bool)):
            return True
    return False


def lookup(table, path):
    """The documented path matching `path` ('*' matches one key)."""
    if path in table:
        return path
    parts = path.split(".")
    for i in range(len(parts) - 1, -1, -1):
        for candidate in list(table):
            cparts = candidate.split(".")
            if len(cparts) != len(parts):
                continue
            if all(c == p or c == "*" or (c.startswith("*") and p.endswith(c[1:])) for c, p in zip(cparts, parts)):
                return candidate
    return None


def check(value, section, where, path=""):
    table = TABLES[section]
    if isinstance(value, str) and value == "":
        problems.append(f"{where}: {section}: '{path}' is \"\" (absent values are null)")

    def child(key_path, v):
        doc = lookup(table, key_path)
        if doc is None:
            problems.append(f"{where}: {section}: key '{key_path}' is not documented in docs/json.md")
            return
        seen[section].add(doc)
        type_text = table[doc]
        if not type_ok(v, type_text):
            problems.append(f"{where}: {section}: '{key_path}' = {json.dumps(v)[:60]} is not {type_text}")
            return
        ref = next((w[1:] for w in type_text.split() if w.startswith("@")), None)
        if ref and v is not None:
            check(v, "object " + ref, where)
        else:
            walk(v, key_path)

    def walk(v, p):
        if isinstance(v, dict):
            for k, x in v.items():
                child(f"{p}.{k}" if p else k, x)
        elif isinstance(v, list):
            for x in v:
                child(f"{p}[]", x)
        elif isinstance(v, str) and v == "":
            problems.append(f"{where}: {section}: '{p}' is \"\" (absent values are null)")

    walk(value, path)


def run(section, args, want_status=0, lines=False, stdin=None):
    proc = subprocess.run([ARBITER] + args, capture_output=True, text=True, input=stdin)
    where = "arbiter " + " ".join(args)
    if want_status is not None and proc.returncode != want_status:
        problems.append(f"{where}: exit {proc.returncode}, wanted {want_status}: {proc.stderr.strip()}")
        return
    outs = proc.stdout.splitlines() if lines else [proc.stdout]
    for text in outs:
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except ValueError as e:
            problems.append(f"{where}: not JSON ({e}): {text[:80]}")
            continue
        check(value, section, where)


tmp = tempfile.mkdtemp()
REP = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"
# status: an ongoing game, a termination (checkmate), uscf's director draws (a long game).
run("status", ["status", "--json", "--moves", REP])
run("status", ["status", "--json", "--moves", "f3 e5 g4 Qh4#"])
run("status", ["status", "--json", "--rules", "uscf", "--moves", REP + " Ng8 " + REP + " Ng8"])
run("status", ["status", "--json", "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 99 80"])
# claim: threefold correct with an intended move, incorrect with castling look-alikes, fifty.
run("claim", ["claim", "threefold", "--json", "--moves", REP, "--intended", "Ng8"])
run("claim", ["claim", "threefold", "--json", "--moves", "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8 Nf3"])
run("claim", ["claim", "fifty", "--json", "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 99 80", "--intended", "Rh2"])
# dead: both sides, one side with a mating line, timing, the batch with a bad line.
run("dead", ["dead", "--json", "--fen", "8/8/8/4k3/8/8/8/4K2B w - - 0 1"])
run("dead", ["dead", "--json", "--side", "black", "--timing", "--fen", "8/8/8/8/4n3/8/7R/5k1K b - -"])
run("dead", ["dead", "--batch", "-"], want_status=2, lines=True,
    stdin="8/8/8/4k3/8/8/8/4K2B w - - 0 1 both g1\n8/8/8/8 w - -\n4k3/8/8/8/8/8/8/R3K3 w - - white\n")
run("perft", ["perft", "2", "--json"])
run("perft", ["perft", "2", "--json", "--divide", "--moves", "e4"])
run("moves", ["moves", "--json", "--moves", "f3 e5 g4 Qh4#"])
run("moves", ["moves", "--json", "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"])
run("play", ["play", "--json", "e4"])
run("operations", ["help", "--operations", "--json"])
run("play", ["play", "--json", "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"])
# errors under --json.
run("error", ["status", "--json", "--fen", "8/8/8/8 w - -"], want_status=2)
run("error", ["status", "--json", "--moves", "e4 e5 Ke3"], want_status=2)
run("error", ["claim", "fifty", "--json", "--moves", "e4", "--intended", "Zz9"], want_status=2)
run("error", ["status", "--json", "--bogus"], want_status=2)
run("error", ["status", "--json", "--pgn", os.path.join(tmp, "missing.pgn")], want_status=2)

# sessions: a clock, moves, an offer, an incorrect claim with a penalty, a touch, a correct claim.
J = os.path.join(tmp, "j.arbiter")
run("session state", ["session", "new", "--json", "--journal", J, "--white", "Ann", "--black", "Bob",
                      "--time-control", "300+2", "--event", "Open", "--round", "3"])
at = 1000
for m in ["Nf3", "Nf6", "Ng1"]:
    run("session state", ["session", "event", "--journal", J, "1", json.dumps({"type": "move", "move": m, "at_ms": at})])
    at += 1000
run("session state", ["session", "event", "--journal", J, "1", json.dumps({"type": "offer", "side": "black", "at_ms": at})])
run("session state", ["session", "event", "--journal", J, "1",
                      json.dumps({"type": "claim", "kind": "threefold", "intended": "Ng8", "at_ms": at + 500})])
run("session refusal", ["session", "event", "--journal", J, "1", json.dumps({"type": "move", "move": "e5", "at_ms": at + 600})],
    want_status=2)
run("error", ["session", "event", "--journal", J, "1", '{"type":"move",'], want_status=2)
run("session refusal", ["session", "event", "--journal", J, "1", "-"], want_status=2,
    stdin='# one a line\n{"type":"move","move":"Ke5","at_ms":%d}\n' % (at + 601))
run("session state", ["session", "event", "--journal", J, "1",
                      json.dumps({"type": "move", "move": "Ng8", "press": False, "at_ms": at + 700})])
run("session state", ["session", "show", "--json", "--journal", J, "1"])
run("session state", ["session", "new", "--json", "--journal", J])  # no clock: clocks null
run("session state", ["session", "event", "--journal", J, "2", json.dumps({"type": "move", "move": "e4", "at_ms": 0})])
run("session state", ["session", "event", "--journal", J, "2", json.dumps({"type": "resign", "side": "black", "at_ms": 1})])
# 3: a touch, a move with an offer, an offer and an agreement before move 30 with the arbiter's consent.
run("session state", ["session", "new", "--json", "--journal", J, "--no-offers-before", "30"])
for i, e in enumerate([{"type": "touch", "square": "g1"}, {"type": "move", "move": "Nf3", "offer": True, "consent": True},
                       {"type": "move", "move": "Nf6"}, {"type": "offer", "side": "white", "consent": True},
                       {"type": "accept", "side": "black", "consent": True}]):
    e["at_ms"] = i
    run("session state", ["session", "event", "--journal", J, "3", json.dumps(e)])
# 4: a fifty claim from a set-up position; 5: a threefold claim with look-alikes (castling rights).
run("session state", ["session", "new", "--json", "--journal", J, "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 99 80"])
run("session state", ["session", "event", "--journal", J, "4",
                      json.dumps({"type": "claim", "kind": "fifty", "intended": "Rh2", "at_ms": 0})])
run("session state", ["session", "new", "--json", "--journal", J])
for i, m in enumerate("Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8".split()):
    run("session state", ["session", "event", "--journal", J, "5", json.dumps({"type": "move", "move": m, "at_ms": i})])
run("session state", ["session", "event", "--journal", J, "5",
                      json.dumps({"type": "claim", "kind": "threefold", "intended": "Nf3", "at_ms": 10})])
# 6: a quickplay finish claim rejected with time added, then one postponed.
run("session state", ["session", "new", "--json", "--journal", J, "--time-control", "5400", "--time-category",
                      "standard", "--quickplay-finish"])
for e in [{"type": "move", "move": "e4", "at_ms": 1000},
          {"type": "claim", "kind": "quickplay", "side": "black", "at_ms": 5341000},
          {"type": "ruling", "decision": "reject", "added_ms": 60000, "at_ms": 5342000},
          {"type": "claim", "kind": "quickplay", "side": "black", "at_ms": 5343000},
          {"type": "ruling", "decision": "postpone", "at_ms": 5344000}]:
    run("session state", ["session", "event", "--journal", J, "6", json.dumps(e)])
# 7: uscf, the position repeated five times: the director may declare a draw (14K).
run("session state", ["session", "new", "--json", "--journal", J, "--rules", "uscf"])
for i, m in enumerate((REP + " Ng8 " + REP + " Ng8").split()):
    run("session state", ["session", "event", "--journal", J, "7", json.dumps({"type": "move", "move": m, "at_ms": i})])
# 8: the arbiter's decisions and a correction, then a forfeit.
run("session state", ["session", "new", "--json", "--journal", J, "--time-control", "300+2"])
for e in [{"type": "move", "move": "e4", "at_ms": 1000}, {"type": "move", "move": "e5", "at_ms": 2000},
          {"type": "set_clock", "white_ms": 200000, "black_ms": 250000, "white_moves": 1, "black_moves": 1, "at_ms": 3000},
          {"type": "add_time", "side": "black", "added_ms": 60000, "text": "a disturbance", "at_ms": 4000},
          {"type": "note", "text": "the clock was replaced", "at_ms": 5000},
          {"type": "move", "move": "Nf3", "at_ms": 6000},
          {"type": "retract", "count": 1, "text": "entered twice", "at_ms": 7000},
          {"type": "retract", "count": 1, "force": True, "at_ms": 7500},
          {"type": "forfeit", "side": "white", "reason": "conduct", "draw": True, "text": "noise", "at_ms": 8000}]:
    run("session state", ["session", "event", "--journal", J, "8", json.dumps(e)])
run("session export", ["session", "export", "--json", "--journal", J, "8"])
run("session export", ["session", "export", "--json", "--journal", J, "3"])
run("session export", ["session", "export", "--json", "--journal", J, "6"])
# A damaged copy: one event row of session 2 edited so that it does not decode.
import shutil
import sqlite3
D = os.path.join(tmp, "damaged.arbiter")
shutil.copy(J, D)
for suffix in ("-wal", "-shm"):
    if os.path.exists(J + suffix):
        shutil.copy(J + suffix, D + suffix)
db = sqlite3.connect(D)
db.execute("UPDATE events SET event = 'frobnicate at=1' WHERE session_id = 2 AND seq = 1")
db.commit()
db.close()
run("session list", ["session", "list", "--json", "--journal", D], want_status=2)
# The edited row breaks the hash chain too: verify names it (exit 2).
run("session verify", ["session", "verify", "--json", "--journal", D], want_status=2)
# 9: a session with a section and a board (listed with them).
run("session state", ["session", "new", "--json", "--journal", J, "--section", "Open A", "--board", "12"])
run("session list", ["session", "list", "--json", "--journal", J])
run("session export", ["session", "export", "--json", "--journal", J, "1"])
run("session history", ["session", "show", "--history", "--json", "--journal", J, "8"])
# 10: a claim after a touch with intent: not admissible, the right lost (9.4; its reason's
# message names the article).
run("session state", ["session", "new", "--json", "--journal", J])
run("session state", ["session", "event", "--journal", J, "10", json.dumps({"type": "touch", "square": "g1", "at_ms": 0})])
run("session state", ["session", "event", "--journal", J, "10",
                      json.dumps({"type": "claim", "kind": "threefold", "at_ms": 10})])
# Users: an arbiter with sections and boards, a viewer revoked.
for args in (["--name", "deputy", "--role", "arbiter", "--sections", "Open A", "--boards", "1-10,12"],
             ["--name", "screen", "--role", "viewer"]):
    subprocess.run([ARBITER, "users", "add", "--journal", J, "--by", "chief"] + args, capture_output=True, check=True)
subprocess.run([ARBITER, "users", "revoke", "--journal", J, "--name", "screen"], capture_output=True, check=True)
run("users list", ["users", "list", "--json", "--journal", J])
HEAD = json.loads(subprocess.run([ARBITER, "session", "verify", "--json", "--journal", J], capture_output=True,
                                 text=True).stdout)["head"]
run("session verify", ["session", "verify", "--json", "--journal", J, "--head", HEAD])

# audit: the repository's own test games, and the real corpus when it is there.
here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/
latin1 = os.path.join(tmp, "latin1.pgn")
with open(latin1, "wb") as f:
    f.write(b'[White "M\xfcller"]\n[Result "1/2-1/2"]\n\n1. e4 e5 1/2-1/2\n')
games = [os.path.join(here, "data", "audit", "findings.pgn"), os.path.join(here, "data", "pgn", "features.pgn"), latin1]
run("audit jsonl", ["audit", "--quiet", "--format", "jsonl"] + games, lines=True)
run("audit summary", ["audit", "--quiet", "--format", "summary", "--json"] + games)
if SHARED and os.path.isdir(os.path.join(SHARED, "pgn", "real")):
    real = os.path.join(SHARED, "pgn", "real")
    sample = [os.path.join(real, f) for f in sorted(os.listdir(real))[:3]]
    run("audit jsonl", ["audit", "--quiet", "--format", "jsonl"] + sample, lines=True)

# watch: alerts of every type over a composed feed, a correction withdrawing one.
FEED = os.path.join(tmp, "feed.pgn")
WSTATE = os.path.join(tmp, "watch.state")
def feed(text):
    with open(FEED, "w") as f:
        f.write(text)
GAME = '[Round "1"]\n[Board "%d"]\n[White "A"]\n[Black "B"]\n%s[Result "%s"]\n\n%s %s\n\n'
RT = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 "
feed(GAME % (1, "", "*", RT + "5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8", "*")
     + GAME % (2, "", "1/2-1/2", "1. f3 e5 2. g4 Qh4#", "1/2-1/2")
     + GAME % (3, "", "*", "1. e4 e5 2. Ke3", "*")
     + GAME % (4, '[FEN "7k/8/6K1/8/8/8/8/3R4 b - - 140 80"]\n', "*", "80... Kg8", "*")
     + GAME % (5, '[FEN "4k3/8/8/8/8/8/8/4K2Q w - - 0 1"]\n', "*",
               "1. Qh2 {[%clk 0:00:10]} Kd7 {[%clk 0:00:00]} 2. Qh3 {[%clk 0:00:00]}", "*"))
run("watch", ["watch", "--once", "--state", WSTATE, FEED], lines=True)
feed(GAME % (1, "", "*", RT + "5. Nc3", "*"))
run("watch", ["watch", "--once", "--state", WSTATE, FEED], lines=True)

# Documented keys never printed: the table has gone stale (or the samples above miss a branch).
for section, table in TABLES.items():
    if section.startswith("object ") and not seen[section]:
        continue
    for key in table:
        if key not in seen[section]:
            problems.append(f"docs/json.md: {section}: '{key}' is documented but no sample printed it")

for p in problems:
    print("FAIL", p)
print(f"{len(problems)} problems, {sum(len(s) for s in seen.values())} documented keys seen")
sys.exit(1 if problems else 0)
