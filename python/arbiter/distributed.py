"""The audit of a game database on a Dask cluster (docs/distributed.md).

    /usr/bin/python3 -m arbiter.distributed audit --scheduler tcp://HOST:PORT|local[:N]
        [--rules ID|auto] [--time-category C] [--chunk-games N] [--in-flight K]
        [--output OUT.jsonl] [--summary [--json]] INPUT...

The client streams the inputs (plain, .pgn.zst, gzip, bzip2: detected by content), cuts them into
pieces of whole games at the library's own game boundaries, and keeps at most --in-flight pieces
on the cluster at a time (its memory is bounded whatever the input size). Each worker runs the
C++ audit on its piece and returns the records; the client numbers them and writes them in input
order, so the output is byte-identical to ``arbiter audit --format jsonl`` on the same inputs
whatever the number of workers and the piece size. With --summary the counts are added up on the
workers. A worker that dies loses nothing: Dask runs its pieces again.

Exit status: 0 done, 2 bad usage or input (an unreachable scheduler, an input that cannot be
read, no games), 1 internal failure.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import os
import sys
import tempfile
import time
import uuid
import warnings
from typing import List, Optional

import arbiter
from arbiter import _arbiter

PROG = "arbiter.distributed"


# ---- the functions the workers run (pure: the same piece always gives the same answer) ----

def audit_chunk(text: bytes, file: str, first_line: int, first_offset: int, ends_at_boundary: bool,
                rules: str, time_category: Optional[str], summary: bool, error):
    """Audits one piece on a worker: (records, counts); no records with `summary`."""
    return _arbiter.audit_piece(text, file, first_line, first_offset, ends_at_boundary, rules,
                                time_category, summary, error)


def merge_counts(*results):
    """Adds up the counts of several pieces (or of earlier merges) on a worker."""
    total = None
    for r in results:
        counts = r[1] if isinstance(r, tuple) else r
        total = counts if total is None else _arbiter.add_counts(total, counts)
    return total


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
        return Client(cluster), cluster
    if "://" not in scheduler:
        raise UsageError(f"--scheduler {scheduler!r}: expected tcp://HOST:PORT or local[:N]")
    try:
        return Client(scheduler, timeout=timeout), None
    except (OSError, TimeoutError) as e:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s: {e}") from None


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
    a.add_argument("--chunk-games", type=int, default=arbiter.DEFAULT_CHUNK_GAMES,
                   help=f"games per piece sent to a worker (default {arbiter.DEFAULT_CHUNK_GAMES})")
    a.add_argument("--chunk-bytes", type=int, default=arbiter.DEFAULT_CHUNK_BYTES,
                   help="a piece also ends at the first game boundary past this many bytes (default 1 MiB)")
    a.add_argument("--in-flight", type=int, default=0,
                   help="pieces on the cluster at a time (default: 4 per worker thread, at least 8)")
    a.add_argument("--output", "-o", default=None, help="write to this file instead of standard output")
    a.add_argument("--summary", action="store_true", help="counts per finding type and kind, added up on the workers")
    a.add_argument("--json", action="store_true", help="with --summary: one JSON object")
    a.add_argument("--connect-timeout", type=float, default=10.0, help="seconds to reach the scheduler (default 10)")
    args = p.parse_args(argv)
    if args.chunk_games < 1:
        p.error("--chunk-games: at least 1")
    if args.chunk_bytes < 0:
        p.error("--chunk-bytes: at least 0")
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


def run_audit(args: argparse.Namespace) -> int:
    # Each piece goes into its task on purpose (about 1 MiB): a task that carries its data can be
    # run again on another worker when one dies; scattered data would die with its worker.
    warnings.filterwarnings("ignore", message="Large object of size", category=UserWarning)
    # Options are checked here, not on every worker.
    _arbiter.audit_piece(b"", "-", 1, 0, False, args.rules, args.time_category, True, None)
    client, cluster = _connect(args.scheduler, args.connect_timeout)
    out = _Output(args.output, args.inputs)
    errors: list = []
    start = time.monotonic()
    try:
        threads = sum(client.nthreads().values()) or 1
        in_flight = args.in_flight or max(8, 4 * threads)
        run = uuid.uuid4().hex[:12]
        numbering = arbiter._Numbering()
        window = collections.deque()  # (file index, future), in input order
        merges = collections.deque()  # --summary: futures of merged counts
        total = None
        read_bytes = 0
        games = 0
        seq = itertools.count()

        def write(index, fut):
            nonlocal games
            records, _ = fut.result()
            for r in records:
                out.stream.write(numbering.line(index, r))
            games += len(records)

        for index, piece, error in arbiter.pieces(args.inputs, args.chunk_games, args.chunk_bytes, errors):
            read_bytes += len(piece.text)
            fut = client.submit(audit_chunk, piece.text, piece.file, piece.first_line, piece.first_offset,
                                piece.ends_at_boundary, args.rules, args.time_category, args.summary, error,
                                key=f"arbiter-audit-{run}-{next(seq)}", pure=False)
            window.append((index, fut))
            if args.summary:
                # Reduced on the workers: groups of pieces, then the client adds up the merges.
                if len(window) >= 8:
                    merges.append(client.submit(merge_counts, *[f for _, f in window],
                                                key=f"arbiter-merge-{run}-{next(seq)}", pure=False))
                    window.clear()
                while len(merges) > max(1, in_flight // 8):
                    total = merge_counts(*(x for x in (total, merges.popleft().result()) if x is not None))
            else:
                while len(window) > in_flight:
                    write(*window.popleft())
        if args.summary:
            if window:
                merges.append(client.submit(merge_counts, *[f for _, f in window],
                                            key=f"arbiter-merge-{run}-{next(seq)}", pure=False))
                window.clear()
            while merges:
                total = merge_counts(*(x for x in (total, merges.popleft().result()) if x is not None))
            games = total["games"] if total else 0
        else:
            while window:
                write(*window.popleft())
        for e in errors:
            print(f"{PROG}: {e.message}", file=sys.stderr)
        if games == 0 and not errors:
            raise UsageError("no games found in the input: nothing to audit")
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
    if errors:
        print(f"{PROG}: some input could not be read to its end (see above)", file=sys.stderr)
        return 2
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
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
    sys.exit(main())
