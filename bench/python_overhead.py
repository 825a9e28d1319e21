"""The Python side of the binding's per-call overhead (docs/performance.md, issue 14): the 40-ply
game of bench/python_overhead_bench.cpp played with Game.push(san), with Game.status() after
every move, and with push alone; the best of several rounds, in microseconds of CPU time per move
(CPU time, as Google Benchmark's "CPU" column, so that a loaded machine does not blur the ratio).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py
    build/bench/arbiter_python_overhead_bench      # the same loop in C++
"""

import time

import arbiter

GAME = ("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 "
        "Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe5 Nxe5 dxe5 Nd2 Qd4 Qc2 Rfd8").split()


def push_and_status():
    g = arbiter.Game()
    for m in GAME:
        g.push(m)
        g.status()


def push_only():
    g = arbiter.Game()
    for m in GAME:
        g.push(m)


def best(fn, seconds=2.0):
    rounds, best_time = 0, float("inf")
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or rounds < 5:
        t = time.process_time()
        for _ in range(20):
            fn()
        best_time = min(best_time, (time.process_time() - t) / 20)
        rounds += 1
    return best_time / len(GAME) * 1e6


if __name__ == "__main__":
    print(f"Game.push + Game.status: {best(push_and_status):.2f} us per move")
    print(f"Game.push alone:         {best(push_only):.2f} us per move")
