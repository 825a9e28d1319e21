"""The audit of a game database on a Dask cluster (docs/distributed.md).

    /usr/bin/python3 -m arbiter.distributed audit --scheduler tcp://HOST:PORT|local[:N]
        [--rules ID|auto] [--time-category C] [--only LIST] [--select TAG=VALUE]
        [--chunk-bytes B] [--chunk-games N] [--in-flight K] [--output OUT.jsonl]
        [--summary [--json]] INPUT...

The client streams the inputs (plain, .pgn.zst, gzip, bzip2: detected by content) through the
library's reader and cuts them into pieces of whole games at the library's own game boundaries
(C++, one call per piece of a few MB). It sends each piece straight to a worker (Dask's scatter:
the data does not pass through the scheduler) with a task that runs the C++ audit on it, keeping
at most --in-flight pieces on the cluster (its memory is bounded whatever the input size). Each
task returns the piece's records as one bytes object; the client puts the game numbers in (C++)
and writes them in input order with one write per piece, so the output is byte-identical to
``arbiter audit --format jsonl`` whatever the number of workers and the piece size. With
--summary only the counts come back. A worker that dies loses nothing: the client holds each
piece until its records are back and sends it again when its task was lost.

Exit status: 0 done, 2 bad usage or input (an unreachable scheduler, an input that cannot be
read, no games), 1 internal failure.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import os
import socket
import sys
import tempfile
import time
import uuid
from typing import List, Optional

import arbiter
from arbiter import _arbiter

PROG = "arbiter.distributed"
#: Pieces of the distributed audit: large, so that the scheduler sees few tasks.
DEFAULT_CHUNK_BYTES = 4 << 20
#: Times a piece is sent again after its worker died before giving its records back.
MAX_RESENDS = 5


# ---- the function the workers run (pure: the same piece always gives the same answer) ----

def audit_task(text: bytes, where: tuple, options: tuple):
    """Audits one piece on a worker: (text, games read, counts), as ``_arbiter.audit_piece``.
    `where` is (file, first_line, first_offset, ends_at_boundary, error), `options` (rules,
    time_category, summary, only, select, exact)."""
    file, first_line, first_offset, ends_at_boundary, error = where
    rules, time_category, summary, only, select, exact = options
    _arbiter.reuse_memory()  # the buffers of the pieces that come and go on this worker
    return _arbiter.audit_piece(text, file, first_line, first_offset, ends_at_boundary, rules, time_category,
                                summary, error, only, select, exact)


# ---- the client ----

class UsageError(Exception):
    pass


def _connect(scheduler: str, timeout: float):
    from distributed import Client, LocalCluster

    if scheduler == "local" or scheduler.startswith("local:"):
        n = scheduler.partition(":")[2] or str(os.cpu_count() or 1)
        if not n.isdigit() or int(n) < 1:
            raise UsageError(f"--scheduler {scheduler}: expected local or local:N with N >= 1 workers")
        cluster = LocalCluster(n_workers=int(n), threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
        return Client(cluster, direct_to_workers=True), cluster
    host, port = _scheduler_address(scheduler)
    # A refused connection answers at once: Dask's client would retry until its timeout.
    try:
        socket.create_connection((host, port), timeout=min(timeout, 5.0)).close()
    except ConnectionRefusedError:
        raise UsageError(f"--scheduler {scheduler}: connection refused (is dask-scheduler running there?)") from None
    except OSError:
        pass  # unreachable or slow: Dask's client tries for the whole timeout and says why
    try:
        # Results come straight from the workers, not through the scheduler.
        return Client(scheduler, timeout=timeout, direct_to_workers=True), None
    except (OSError, TimeoutError) as e:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s: {e}") from None


def _scheduler_address(scheduler: str):
    """(host, port) of a tcp://HOST:PORT address, or UsageError naming what is wrong with it."""
    expected = "expected tcp://HOST:PORT (a dask-scheduler's address) or local[:N]"
    scheme, sep, rest = scheduler.partition("://")
    if not sep:
        raise UsageError(f"--scheduler {scheduler!r}: {expected}")
    if scheme != "tcp":
        raise UsageError(f"--scheduler {scheduler!r}: the scheme is {scheme!r}, not tcp: {expected}")
    host, colon, port = rest.rpartition(":")
    if "/" in rest:
        raise UsageError(f"--scheduler {scheduler!r}: an address takes no path: {expected}")
    if not colon:
        raise UsageError(f"--scheduler {scheduler!r}: no port: {expected}")
    if not host:
        raise UsageError(f"--scheduler {scheduler!r}: no host: {expected}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UsageError(f"--scheduler {scheduler!r}: the port {port!r} is not a number from 1 to 65535")
    return host.strip("[]"), int(port)


def _parse(argv: List[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog=f"python3 -m {PROG}",
                                description="Audit PGN games on a Dask cluster; the output is that of "
                                            "`arbiter audit --format jsonl` (or --summary).")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("audit", help="audit PGN files (plain, .pgn.zst, gzip, bzip2)")
    a.add_argument("inputs", nargs="+", metavar="INPUT", help="PGN files ('-' = standard input)")
    a.add_argument("--scheduler", required=True,
                   help="tcp://HOST:PORT of a running dask-scheduler, or local[:N] for N local worker processes")
    a.add_argument("--rules", default="auto", help="a rule-set id for every game, or auto (default)")
    a.add_argument("--time-category", default=None, help="standard, rapid or blitz for every game "
                                                         "(default: from each game's TimeControl tag)")
    a.add_argument("--only", action="append", default=[], metavar="LIST",
                   help="report only these findings: types or kinds, comma-separated (as arbiter audit --only)")
    a.add_argument("--select", action="append", default=[], metavar="TAG=VALUE",
                   help="audit only the games whose tag has this value, exact (repeat: all must hold; "
                        "as arbiter audit --select)")
    a.add_argument("--chunk-bytes", type=int, default=DEFAULT_CHUNK_BYTES,
                   help="a piece sent to a worker ends at the first game boundary past this many bytes "
                        "(default 4 MiB)")
    a.add_argument("--chunk-games", type=int, default=None,
                   help="a piece also ends after this many games (default: no limit)")
    a.add_argument("--in-flight", type=int, default=0,
                   help="pieces on the cluster at a time (default: 3 per worker thread, at least 4)")
    a.add_argument("--output", "-o", default=None, help="write to this file instead of standard output")
    a.add_argument("--exact", action="store_true",
                   help="dead positions: the full analysis of every game's final position (arbiter audit --exact)")
    a.add_argument("--summary", action="store_true", help="counts per finding type and kind, added up on the workers")
    a.add_argument("--json", action="store_true", help="with --summary: one JSON object")
    a.add_argument("--connect-timeout", type=float, default=10.0, help="seconds to reach the scheduler (default 10)")
    a.add_argument("--stats", action="store_true",
                   help="print the client's start-up and audit times and its CPU time on standard error")
    args = p.parse_args(argv)
    if args.chunk_games is not None and args.chunk_games < 1:
        p.error("--chunk-games: at least 1")
    if args.chunk_bytes < 1:
        p.error("--chunk-bytes: at least 1")
    if args.in_flight < 0:
        p.error("--in-flight: at least 1")
    if args.json and not args.summary:
        p.error("--json applies only with --summary (the records are already JSON lines)")
    return args


class _Output:
    """Standard output, or a file written beside its final name and renamed into place at the end."""

    def __init__(self, path: Optional[str], inputs: List[str]):
        self.path = path
        self.temp = None
        if path is None:
            self.stream = sys.stdout.buffer
            return
        for i in inputs:
            if i != "-" and os.path.exists(i) and os.path.exists(path) and os.path.samefile(i, path):
                raise UsageError(f"--output '{path}' is the input '{i}' (the same file): refusing to overwrite an input")
        d = os.path.dirname(os.path.abspath(path))
        fd, self.temp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=d)
        self.stream = os.fdopen(fd, "wb")

    def commit(self):
        self.stream.flush()
        if self.temp:
            self.stream.close()
            os.replace(self.temp, self.path)
            self.temp = None

    def discard(self):
        if self.temp:
            self.stream.close()
            os.unlink(self.temp)
            self.temp = None


class _Piece:
    """A piece on the cluster: what it takes to send it again, and its task."""

    __slots__ = ("index", "text", "where", "data", "task", "sends")

    def __init__(self, index, piece, error):
        self.index = index
        self.text = piece.text
        self.where = (piece.file, piece.first_line, piece.first_offset, piece.ends_at_boundary, error)
        self.data = self.task = None
        self.sends = 0


class _Cluster:
    """Sends pieces straight to the workers (scatter, then a task on the worker that holds the
    piece) and takes their results, sending a piece again when its worker died before its result
    was taken."""

    def __init__(self, client, options: tuple):
        self.client = client
        self.options = options
        self.run = uuid.uuid4().hex[:12]
        self.seq = itertools.count()

    def send(self, p: _Piece):
        p.sends += 1
        if p.sends > MAX_RESENDS + 1:
            raise RuntimeError(f"a piece of {p.where[0]} was lost {MAX_RESENDS} times with its workers")
        for f in (p.task, p.data):
            if f is not None:
                f.release()
        for attempt in itertools.count(1):
            try:
                p.data = self.client.scatter(p.text, direct=True, hash=False)
                break
            except OSError:  # CommClosedError, TimeoutError: the worker chosen is gone
                if attempt == 40:
                    raise
                time.sleep(0.25)  # until the scheduler knows it is gone
        n = next(self.seq)
        p.task = self.client.submit(audit_task, p.data, p.where, self.options, key=f"arbiter-audit-{self.run}-{n}",
                                    pure=False)

    def result(self, p: _Piece):
        from distributed.client import CancelledError

        while True:
            try:
                r = p.task.result()
                break
            except CancelledError:
                # The worker that held the piece died: send it again.
                self.send(p)
        p.task.release()
        p.data.release()
        p.data = p.task = None
        return r


def run_audit(args: argparse.Namespace) -> int:
    # Options are checked here, once, not on every worker.
    _arbiter.audit_piece(b"", "-", 1, 0, False, args.rules, args.time_category, True, None, args.only, args.select,
                         args.exact)
    import dask

    # Every submit would read and tokenize this module's source to show it on the dashboard
    # (Client._get_computation_code, about 12 ms a task): no frame is shown.
    with dask.config.set({"distributed.diagnostics.computations.ignore-modules": [".*"]}):
        return _run_audit(args)


def _run_audit(args: argparse.Namespace) -> int:
    _arbiter.reuse_memory()  # pieces of a few MB come and go
    begun = getattr(args, "started", time.monotonic())
    client, cluster = _connect(args.scheduler, args.connect_timeout)
    connected = time.monotonic()
    out = _Output(args.output, args.inputs)
    errors: list = []
    start = time.monotonic()
    try:
        threads = sum(client.nthreads().values()) or 1
        in_flight = args.in_flight or max(4, 3 * threads)
        dask = _Cluster(client, (args.rules, args.time_category, args.summary, args.only, args.select, args.exact))
        numbering = arbiter._Numbering()
        window: collections.deque = collections.deque()  # _Piece, in input order
        total = None
        read_bytes = 0
        games_read = 0

        def take(p: _Piece):
            nonlocal total, games_read
            text, games, counts = dask.result(p)
            games_read += games
            total = counts if total is None else _arbiter.add_counts(total, counts)
            if not args.summary:
                out.stream.write(numbering.lines(p.index, text, games))

        for index, piece, error in arbiter.pieces(args.inputs, args.chunk_games, args.chunk_bytes, errors):
            read_bytes += len(piece.text)
            p = _Piece(index, piece, error)
            dask.send(p)
            window.append(p)
            while len(window) > in_flight:
                take(window.popleft())
        while window:
            take(window.popleft())
        for e in errors:
            print(f"{PROG}: {e.message}", file=sys.stderr)
        if games_read == 0 and not errors:
            raise UsageError("no games found in the input: nothing to audit")
        if total is not None and total["games"] == 0 and games_read:
            print(f"{PROG}: no game has the tags --select asks for ({games_read} games read)", file=sys.stderr)
        if args.summary and total is not None:
            out.stream.write(_arbiter.summary_text(total, time.monotonic() - start, read_bytes,
                                                   args.json).encode())
        out.commit()
    except BaseException:
        out.discard()
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if args.stats:
        cpu = os.times()
        print(f"{PROG}: stats: start-up {connected - begun:.2f} s (import distributed, connect), audit "
              f"{time.monotonic() - connected:.2f} s, client CPU {cpu.user + cpu.system:.2f} s, "
              f"{read_bytes} bytes, {games_read} games", file=sys.stderr)
    if errors:
        print(f"{PROG}: some input could not be read to its end (see above)", file=sys.stderr)
        return 2
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    started = time.monotonic()
    args = _parse(sys.argv[1:] if argv is None else argv)
    args.started = started
    try:
        return run_audit(args)
    except (UsageError, arbiter.Error) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except Exception as e:  # an internal failure: exit 1 with the reason
        print(f"{PROG}: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    # Run as `python3 -m arbiter.distributed`: the tasks refer to arbiter.distributed.audit_task (so
    # that Dask pickles a reference the workers import, not this __main__ module's function by value).
    from arbiter.distributed import main as _main

    sys.exit(_main())
