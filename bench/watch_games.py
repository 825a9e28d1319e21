"""Real games for the watch benchmarks (bench/watch_bench.py, bench/watch_net_bench.py): the mainline
SAN moves of the games in SHARED/pgn/real without a FEN, longer than 20 plies, and the probe tour
that reaches a fivefold repetition (an alert at a known move)."""
import os
import re

PROBE_TOUR = "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8 Nf3 Nc6 Ng1 Nb8 Nc3 Nf6 Nb1 Ng8".split()


def real_games(shared, count):
    """Up to `count` (tags, moves) pairs."""
    games = []
    real = os.path.join(shared, "pgn", "real")
    for name in sorted(os.listdir(real)):
        text = open(os.path.join(real, name), encoding="utf-8", errors="replace").read()
        for chunk in re.split(r"\n\s*\n(?=\[)", text):
            if "FEN" in chunk:
                continue
            tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
            body = "\n".join(l for l in chunk.splitlines() if not l.startswith("["))
            body = re.sub(r"\{[^}]*\}", " ", body)
            while re.search(r"\([^()]*\)", body):
                body = re.sub(r"\([^()]*\)", " ", body)
            toks = [re.sub(r"[!?]+$", "", re.sub(r"^\d+\.+", "", t)) for t in body.split()
                    if not re.match(r"^(\d+\.+|\$\d+|1-0|0-1|1/2-1/2|\*)$", t)]
            toks = [t for t in toks if t]
            if len(toks) > 20:
                games.append((tags, toks))
        if len(games) >= count:
            break
    return games[:count]


def game_text(board, tags, moves, n):
    """The game at `n` plies, in progress, with a [%clk] after each move."""
    body = []
    for k, m in enumerate(moves[:n]):
        body.append(("%d. " % (k // 2 + 1) if k % 2 == 0 else "") + m + " {[%%clk 1:%02d:00]}" % (k % 60))
    return ('[Event "Bench"]\n[Round "1"]\n[Board "%d"]\n[White "%s"]\n[Black "%s"]\n[Result "*"]\n\n%s *\n\n'
            % (board, tags.get("White", "?"), tags.get("Black", "?"), " ".join(body)))


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))]


def cpu_seconds(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
