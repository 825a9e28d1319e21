"""The audit of a game database on a Dask cluster (docs/distributed.md).

    /usr/bin/python3 -m arbiter.distributed audit --scheduler tcp://HOST:PORT|local[:N]
        [--rules ID|auto] [--time-category C] [--only LIST] [--select TAG=VALUE] [--exact]
        [--output-dir DIR] [--output OUT.jsonl] [--summary [--json]] [--task-bytes B]
        [--worker-timeout S] [--in-flight K] [--progress|--no-progress] INPUT...

The client only coordinates. It cuts the inputs into tasks without reading them (C++,
face::plan_input: byte ranges of a plain file, runs of whole frames of a Zstandard file of several
frames, one task for a gzip, bzip2 or single-frame file) and submits one task each. A worker opens
the input itself, reads only its part — the games that start there, decided by the library's own
game boundaries, so ranges cut anywhere give the CLI's games — audits it in C++ and writes its
records to a file in the output directory, giving back only counts (games, lines, bytes, findings).
Once the tasks before one are counted, the client knows its first game number, line and offset,
and a second task on a worker writes the numbered part (part-NNNNN.jsonl, atomically). The client
journals each part as it lands, so that running the same command again redoes only what is missing
or stale, and writes manifest.json at the end. `cat DIR/part-*.jsonl` is byte-identical to
``arbiter audit --format jsonl`` on the same inputs, whatever the task size and the workers.

Exit status: 0 done; 2 bad usage or input (a malformed or unreachable scheduler, an input that
cannot be read, no games, an output directory of another run, no worker left); 1 internal failure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import socket
import sys
import tempfile
import time
import uuid
from typing import Dict, List, Optional

import arbiter
from arbiter import _arbiter

PROG = "arbiter.distributed"
#: Bytes of an input (as stored) a task reads, about, by default: plain PGN, and Zstandard frames
#: (which hold about three times as much text: about as many games a task).
DEFAULT_TASK_BYTES = 64 << 20
DEFAULT_FRAME_TASK_BYTES = 24 << 20
MANIFEST = "manifest.json"
JOURNAL = "journal.jsonl"
FORMAT = "arbiter-distributed-audit/1"


# ---- the functions the workers run (pure: the same task always gives the same answer) ----

def audit_task(spec: tuple, options: tuple, records_dir: Optional[str], index: int) -> dict:
    """Audits one task on a worker. `spec` is (path, name, kind, begin, end); the records go to a
    new file in `records_dir` (none with --summary), named in the answer with the counts."""
    path, name, kind, begin, end = spec
    rules, time_category, summary, only, select, exact = options
    records = None
    if records_dir is not None and not summary:
        records = os.path.join(records_dir, f".task-{index:05d}-{uuid.uuid4().hex[:12]}.records")
    _arbiter.reuse_memory()
    started = time.process_time()
    try:
        games, newlines, nbytes, counts, error = _arbiter.audit_task(
            path, name, kind, begin, end, records, rules, time_category, summary, only, select, exact)
    except BaseException:
        if records is not None and os.path.exists(records):
            os.unlink(records)
        raise
    return {"games": games, "newlines": newlines, "bytes": nbytes, "counts": counts,
            "error": list(error) if error else None, "records": records,
            "cpu": time.process_time() - started}


def run_job(job: tuple):
    """What the client submits: ("audit", spec, options, records_dir, index) or ("number", records,
    part, game, game_in_file, line_base, offset_base) — one function, so that the jobs of a step
    go to the scheduler in one message (client.map)."""
    return audit_task(*job[1:]) if job[0] == "audit" else number_task(*job[1:])


def number_task(records: str, part: str, game: int, game_in_file: int, line_base: int, offset_base: int) -> int:
    """Writes a task's part on a worker: its records with their game numbers, lines and offsets,
    under a temporary name and then renamed (a part is never half-written). Returns its size.
    Run again after its worker died before answering, it finds the part written and the records,
    which only it removes, gone."""
    if not os.path.exists(records) and os.path.exists(part):
        return os.path.getsize(part)
    temp = f"{part}.{uuid.uuid4().hex[:12]}.tmp"
    try:
        size = _arbiter.number_file(records, temp, game, game_in_file, line_base, offset_base)
        os.replace(temp, part)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    os.unlink(records)
    return size


# ---- the client ----

class UsageError(Exception):
    pass


class TaskFailed(Exception):
    pass


def _versions_from_metadata():
    """Dask's client registers with the scheduler giving the versions of its packages, and to
    learn those of the optional ones (numpy, pandas, lz4) it imports each: pandas alone takes
    0.2 s, a twentieth of a run on a small cluster, for a version string. This gives the same
    report, reading the version of an optional package not imported yet from its installed
    metadata instead (None when it is not installed, as Dask reports it)."""
    import importlib.metadata
    from itertools import chain

    from distributed import versions

    def get_versions(packages=None):
        optional = [name for name, _ in versions.optional_packages]
        loaded = [p for p in versions.optional_packages if p[0] in sys.modules]
        report = {"host": versions.get_system_info(),
                  "packages": versions.get_package_info(chain(versions.required_packages, loaded, packages or []))}
        for name in optional:
            if name not in report["packages"]:
                try:
                    report["packages"][name] = importlib.metadata.version(name)
                except importlib.metadata.PackageNotFoundError:
                    report["packages"][name] = None
        return report

    return get_versions


def _connect(scheduler: str, timeout: float):
    from distributed import Client, LocalCluster
    from distributed import versions

    # Only in the client's process (the workers import this module too, and keep Dask's own).
    versions.get_versions = _versions_from_metadata()

    if scheduler == "local" or scheduler.startswith("local:"):
        n = scheduler.partition(":")[2] or str(os.cpu_count() or 1)
        if not n.isdigit() or int(n) < 1:
            raise UsageError(f"--scheduler {scheduler}: expected local or local:N with N >= 1 workers")
        import dask

        # As docs/distributed.md recommends for a cluster: the event loop's tick every second
        # (20 ms by default, most of an idle process's CPU) and no statistical profiler.
        with dask.config.set({"distributed.admin.tick.interval": "1s", "distributed.worker.profile.enabled": False}):
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
        # Answers come straight from the workers, not through the scheduler.
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
                                description="Audit PGN files on a Dask cluster: the workers read the inputs and "
                                            "write the output themselves; `cat DIR/part-*.jsonl` is the output of "
                                            "`arbiter audit --format jsonl`.")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("audit", help="audit PGN files (plain, .pgn.zst, gzip, bzip2) that every worker can open")
    a.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="PGN files, at paths every worker can open (a shared or network file system)")
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
    a.add_argument("--exact", action="store_true",
                   help="dead positions: the full analysis of every game's final position (arbiter audit --exact)")
    a.add_argument("--output-dir", default=None, metavar="DIR",
                   help="the workers write one part a task here (part-00000.jsonl, ...) and the client "
                        "manifest.json; the same command again redoes only missing or stale parts")
    a.add_argument("--output", "-o", default=None, metavar="FILE",
                   help="the parts concatenated into FILE at the end (parts kept in FILE.parts/ until then, "
                        "or in --output-dir)")
    a.add_argument("--summary", action="store_true", help="counts per finding type and kind, added up on the workers")
    a.add_argument("--json", action="store_true", help="with --summary: one JSON object")
    a.add_argument("--task-bytes", type=int, default=None, metavar="B",
                   help="bytes of an input a task reads, about, as stored (default: 64 MiB of plain PGN, "
                        "24 MiB of .zst frames)")
    a.add_argument("--worker-timeout", type=float, default=60.0, metavar="S",
                   help="stop with exit 2 when no worker has been there for S seconds (default 60)")
    a.add_argument("--in-flight", type=int, default=0,
                   help="tasks on the cluster at a time (default: 4 per worker thread, at least 8)")
    a.add_argument("--connect-timeout", type=float, default=10.0, help="seconds to reach the scheduler (default 10)")
    prog = a.add_mutually_exclusive_group()
    prog.add_argument("--progress", dest="progress", action="store_true", default=None,
                      help="a progress line on standard error (default: on a terminal only)")
    prog.add_argument("--no-progress", dest="progress", action="store_false")
    a.add_argument("--stats", action="store_true",
                   help="print the client's start-up and audit times and its CPU time on standard error")
    args = p.parse_args(argv)
    if args.task_bytes is not None and args.task_bytes < 1:
        p.error("--task-bytes: at least 1")
    if args.in_flight < 0:
        p.error("--in-flight: at least 1")
    if args.worker_timeout <= 0:
        p.error("--worker-timeout: more than 0 seconds")
    if args.json and not args.summary:
        p.error("--json applies only with --summary (the records are already JSON lines)")
    return args


# ---- planning: the tasks of the inputs, read from their headers only ----

class Task:
    __slots__ = ("index", "input", "spec", "key", "size")

    def __init__(self, index, input_index, spec, key, size):
        self.index, self.input, self.spec, self.key, self.size = index, input_index, spec, key, size


def _options(args) -> tuple:
    return (args.rules, args.time_category, args.summary, tuple(args.only), tuple(args.select), args.exact)


def _plan(args) -> tuple:
    """(inputs, tasks): each input's name, path, size, modification time and how it is cut."""
    inputs, tasks = [], []
    options = list(_options(args))
    options[2] = False  # a part is the same whether a summary is printed or not
    for i, name in enumerate(args.inputs):
        if name == "-":
            raise UsageError("'-' (standard input): the workers read the inputs themselves; give files")
        path = os.path.abspath(name)
        compression, size, kind, spans = _arbiter.plan_input(path, args.task_bytes or DEFAULT_TASK_BYTES,
                                                             args.task_bytes or DEFAULT_FRAME_TASK_BYTES)
        try:
            st = os.stat(path)
            stamp = [st.st_size, st.st_mtime_ns]
        except OSError:
            stamp = None
        inputs.append({"name": name, "path": path, "size": size, "mtime_ns": stamp[1] if stamp else None,
                       "compression": compression or None, "kind": kind, "tasks": len(spans)})
        for begin, end in spans:
            spec = (path, name, kind, begin, end)
            key = hashlib.sha256(json.dumps([arbiter.__version__, options, spec, stamp]).encode()).hexdigest()[:32]
            tasks.append(Task(len(tasks), i, spec, key, end - begin))
    return inputs, tasks


def _part_name(index: int) -> str:
    return f"part-{index:05d}.jsonl"


# ---- the output directory: parts, the journal of the parts done, the manifest ----

class OutputDir:
    """The parts' directory, what an earlier run of the same command left there, and the journal."""

    def __init__(self, path: str, inputs: list, options: dict, temporary: bool):
        self.path = path
        self.temporary = temporary
        self.done: Dict[int, dict] = {}
        self.previous_run = 0
        names = [i["name"] for i in inputs]
        if os.path.isdir(path) and not temporary:
            entries = os.listdir(path)
            manifest = os.path.join(path, MANIFEST)
            if entries and not os.path.exists(manifest):
                raise UsageError(f"--output-dir {path}: holds files that are not an arbiter.distributed audit's "
                                 f"(no {MANIFEST}): give an empty or new directory")
            if entries:
                old = self._read_json(manifest)
                if old.get("format") != FORMAT or [i.get("name") for i in old.get("inputs", [])] != names:
                    raise UsageError(
                        f"--output-dir {path}: holds the parts of another run (inputs "
                        f"{', '.join(i.get('name', '?') for i in old.get('inputs', []))}): nothing was overwritten; "
                        f"give another directory or remove it")
                self.previous_run = int(old.get("run", 0))
                for t in old.get("tasks", []):
                    if "games" in t:
                        self.done[t["task"]] = t
                self._read_journal()
                for name in entries:  # what a killed run left half done
                    if name.startswith(".task-") or name.endswith(".tmp"):
                        os.unlink(os.path.join(path, name))
        else:
            os.makedirs(path, exist_ok=True)
        self.run = self.previous_run + 1
        self.manifest = {"format": FORMAT, "state": "running", "run": self.run, "inputs": inputs,
                         "options": options}
        self.journal = None

    def _read_json(self, path):
        try:
            with open(path, "rb") as f:
                return json.load(f)
        except (OSError, ValueError) as e:
            raise UsageError(f"--output-dir {self.path}: cannot read {MANIFEST}: {e}") from None

    def _read_journal(self):
        try:
            with open(os.path.join(self.path, JOURNAL), "rb") as f:
                for line in f:
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        continue  # the last line of a killed run, half-written
                    self.done[entry["task"]] = entry
        except FileNotFoundError:
            pass

    def valid(self, task: Task) -> Optional[dict]:
        """What an earlier run recorded for this task, when its part is there and still right."""
        entry = self.done.get(task.index)
        if entry is None or entry.get("key") != task.key:
            return None
        try:
            if os.path.getsize(os.path.join(self.path, _part_name(task.index))) != entry["part_bytes"]:
                return None
        except OSError:
            return None
        return entry

    def start(self, tasks: List[Task]):
        # What earlier runs did stays recorded (the journal of this run holds only its own parts):
        # a run killed after this point loses none of them.
        self.manifest["tasks"] = [dict(self.done.get(t.index, {}), task=t.index, part=_part_name(t.index),
                                       input=t.input, begin=t.spec[3], end=t.spec[4]) for t in tasks]
        self._write_manifest()
        self.journal = open(os.path.join(self.path, JOURNAL), "a", encoding="utf-8")

    def record(self, entry: dict):
        self.done[entry["task"]] = entry
        self.journal.write(json.dumps(entry) + "\n")
        self.journal.flush()

    def finish(self, tasks: List[Task], totals: dict):
        self.manifest["state"] = "complete"
        self.manifest["totals"] = totals
        self.manifest["tasks"] = [dict(self.done[t.index], part=_part_name(t.index), input=t.input,
                                       begin=t.spec[3], end=t.spec[4]) for t in tasks]
        self._write_manifest()
        self.journal.close()
        os.unlink(os.path.join(self.path, JOURNAL))
        keep = {_part_name(t.index) for t in tasks}
        for name in os.listdir(self.path):  # parts of an earlier plan with more tasks, a lost task's records
            if (name.startswith("part-") and name.endswith(".jsonl") and name not in keep) or name.startswith(".task-"):
                _remove(os.path.join(self.path, name))

    def close(self):
        if self.journal is not None and not self.journal.closed:
            self.journal.close()
        if self.temporary:
            shutil.rmtree(self.path, ignore_errors=True)

    def _write_manifest(self):
        temp = os.path.join(self.path, f".{MANIFEST}.{uuid.uuid4().hex[:12]}.tmp")
        with open(temp, "w", encoding="utf-8") as f:
            json.dump(self.manifest, f, indent=1)
            f.write("\n")
        os.replace(temp, os.path.join(self.path, MANIFEST))


# ---- the run ----

class Progress:
    """Tasks and games done, games/s and the time left, on one line of standard error."""

    def __init__(self, enabled: Optional[bool], total_bytes: int, tasks: int):
        tty = sys.stderr.isatty()
        self.enabled = tty if enabled is None else enabled
        self.tty = tty
        self.total_bytes = max(total_bytes, 1)
        self.tasks = tasks
        self.start = time.monotonic()
        self.last = 0.0
        self.tasks_shown = -1
        self.shown = False

    def show(self, tasks_done: int, games: int, bytes_done: int, final: bool = False):
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty and not final and now - self.last < 0.25:
            return
        if not self.tty and not final and tasks_done == self.tasks_shown:
            return  # off a terminal: a line when parts land, not a line a second
        self.tasks_shown = tasks_done
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        share = bytes_done / self.total_bytes
        left = elapsed * (1 - share) / share if share > 0 else None
        text = (f"{PROG}: {tasks_done}/{self.tasks} tasks, {games:,} games, {games / elapsed:,.0f} games/s, "
                f"{100 * share:.0f} % of the input" + (f", about {_duration(left)} left" if left and not final else ""))
        if self.tty:
            sys.stderr.write("\r\x1b[K" + text + ("\n" if final else ""))
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()
        self.shown = True


def _duration(s: float) -> str:
    s = int(s + 0.5)
    return f"{s // 3600} h {s % 3600 // 60:02d} min" if s >= 3600 else f"{s // 60} min {s % 60:02d} s" if s >= 60 \
        else f"{s} s"


def run_audit(args: argparse.Namespace) -> int:
    # Options are checked here, once, not on every worker.
    _arbiter.audit_piece(b"", "-", 1, 0, False, args.rules, args.time_category, True, None, args.only, args.select,
                         args.exact)
    import dask

    # Every submit would read and tokenize this module's source to show it on the dashboard
    # (Client._get_computation_code, about 12 ms a task): no frame is shown.
    with dask.config.set({"distributed.diagnostics.computations.ignore-modules": [".*"]}):
        return _run_audit(args)


def _output_dir(args, inputs) -> Optional[OutputDir]:
    options = {"rules": args.rules, "time_category": args.time_category, "only": args.only, "select": args.select,
               "exact": args.exact, "task_bytes": args.task_bytes or "default", "arbiter": arbiter.__version__}
    for i in inputs:
        for target, flag in ((args.output, "--output"), (args.output_dir, "--output-dir")):
            if target and os.path.exists(target) and os.path.exists(i["path"]) and os.path.samefile(i["path"], target):
                raise UsageError(f"{flag} '{target}' is the input '{i['name']}': refusing to overwrite an input")
    if args.output_dir:
        return OutputDir(os.path.abspath(args.output_dir), inputs, options, temporary=False)
    if args.output:
        return OutputDir(os.path.abspath(args.output) + ".parts", inputs, options, temporary=False)
    if args.summary:
        return None  # only counts come back
    # Standard output: the parts go through a directory of the current one (the workers must see
    # it) and are copied out in order as they land.
    try:
        path = tempfile.mkdtemp(prefix=".arbiter-audit-", dir=os.getcwd())
    except OSError as e:
        raise UsageError(f"cannot make a directory for the parts in {os.getcwd()}: {e}; give --output-dir") from None
    return OutputDir(path, inputs, options, temporary=True)


def _run_audit(args: argparse.Namespace) -> int:
    begun = getattr(args, "started", time.monotonic())
    inputs, tasks = _plan(args)
    out = _output_dir(args, inputs)
    try:
        return _run(args, inputs, tasks, out, begun)
    finally:
        if out is not None:
            out.close()


def _run(args, inputs, tasks, out: Optional[OutputDir], begun: float) -> int:
    import queue

    kept = {}
    if out is not None:
        for t in tasks:
            entry = out.valid(t)
            if entry is not None:
                kept[t.index] = entry
        if kept:
            print(f"{PROG}: {out.path}: {len(kept)} of {len(tasks)} parts are done already (run {out.previous_run}); "
                  f"running the other {len(tasks) - len(kept)}", file=sys.stderr)
    client, cluster = _connect(args.scheduler, args.connect_timeout)
    connected = time.monotonic()
    cpu_at_connect = sum(os.times()[:2])
    options = list(_options(args))
    options[2] = out is None  # only counts come back when no part is written
    options = tuple(options)
    records_dir = out.path if out is not None else None
    if out is not None:
        out.start(tasks)
    progress = Progress(args.progress, sum(t.size for t in tasks), len(tasks))
    stream = sys.stdout.buffer if out is not None and out.temporary else None
    try:
        # In input order: the counts of each task, then its part.
        metas: Dict[int, dict] = {}   # the audit's answer (or an earlier run's entry)
        audits: Dict[object, int] = {}  # future -> task
        numbering: Dict[object, tuple] = {}  # future -> (task, entry)
        to_submit = [t for t in tasks if t.index not in kept]
        submit_at = 0
        cursor = 0       # the first task whose part is not placed yet
        emitted = 0      # standard output: parts copied out
        landed = set()   # parts written
        games_before = 0
        text_bytes = 0  # of the inputs' text, decompressed
        per_file = {"input": None, "games": 0, "lines": 0, "bytes": 0, "dead": False}
        totals = None
        games_done = bytes_done = tasks_done = 0
        errors = []
        no_worker_since = None
        threads = sum(client.nthreads().values()) or 1
        asked = time.monotonic()

        # Futures report here as they finish (a callback in the client's event loop): the loop
        # below sleeps until one does, without asking the scheduler anything.
        finished: queue.Queue = queue.Queue()

        # The jobs of a step, submitted together (one message to the scheduler): (job, what for).
        jobs: list = []

        def submit(t: Task):
            jobs.append((("audit", t.spec, options, records_dir, t.index), t.index))

        def flush():
            if not jobs:
                return
            stamp = uuid.uuid4().hex[:8]
            keys = [f"arbiter-{job[0]}-{stamp}-{k}" for k, (job, _) in enumerate(jobs)]
            for f, (job, what) in zip(client.map(run_job, [job for job, _ in jobs], key=keys, pure=False), jobs):
                (audits if job[0] == "audit" else numbering)[f] = what
                f.add_done_callback(finished.put)
            jobs.clear()

        def finish_task(t: Task, entry: dict):
            nonlocal tasks_done, games_done, bytes_done
            tasks_done += 1
            games_done += entry["games"]
            bytes_done += t.size
            landed.add(t.index)
            if out is not None and t.index not in kept:
                out.record(entry)

        while True:
            # Keep the cluster busy, but no more than --in-flight tasks ahead of the cursor.
            in_flight = args.in_flight or max(8, 4 * threads)
            while submit_at < len(to_submit) and to_submit[submit_at].index < cursor + in_flight:
                submit(to_submit[submit_at])
                submit_at += 1
            # Place the tasks whose counts are known, in order.
            while cursor < len(tasks) and (cursor in metas or cursor in kept):
                t = tasks[cursor]
                meta = kept.get(cursor) or metas[cursor]
                if per_file["input"] != t.input:
                    per_file = {"input": t.input, "games": 0, "lines": 0, "bytes": 0, "dead": False}
                dropped = per_file["dead"]  # an earlier task of this input ended it with a read error
                entry = {"task": t.index, "key": t.key, "run": out.run if out else 1,
                         "games": 0 if dropped else meta["games"], "newlines": 0 if dropped else meta["newlines"],
                         "bytes": 0 if dropped else meta["bytes"],
                         "counts": None if dropped else meta["counts"], "error": None if dropped else meta["error"],
                         "game": games_before + 1, "game_in_file": per_file["games"] + 1,
                         "line_base": per_file["lines"], "offset_base": per_file["bytes"]}
                if cursor in kept and any(kept[cursor].get(k) != entry[k] for k in
                                          ("game", "game_in_file", "line_base", "offset_base")):
                    # An earlier input changed: this part's numbers did too. Audit it again.
                    del kept[cursor]
                    submit(t)
                    break
                if cursor in kept:
                    finish_task(t, kept[cursor])
                elif dropped or out is None:
                    entry["part_bytes"] = 0
                    if out is not None:
                        open(os.path.join(out.path, _part_name(t.index)), "wb").close()
                        if meta.get("records"):
                            _remove(meta["records"])
                    finish_task(t, entry)
                else:
                    jobs.append((("number", meta["records"], os.path.join(out.path, _part_name(t.index)),
                                  entry["game"], entry["game_in_file"], entry["line_base"], entry["offset_base"]),
                                 (t, entry)))
                if not dropped:
                    games_before += entry["games"]
                    text_bytes += entry["bytes"]
                    per_file["games"] += entry["games"]
                    per_file["lines"] += entry["newlines"]
                    per_file["bytes"] += entry["bytes"]
                    if entry["counts"] is not None:
                        totals = entry["counts"] if totals is None else _arbiter.add_counts(totals, entry["counts"])
                    if entry["error"]:
                        per_file["dead"] = True
                        errors.append(entry["error"])
                        note = "" if entry["error"][0] == "cannot_open" else " (the games before it were audited)"
                        print(f"{PROG}: {entry['error'][4]}{note}", file=sys.stderr)
                cursor += 1
            # Standard output: the parts landed, in order.
            while stream is not None and emitted < len(tasks) and emitted in landed:
                part = os.path.join(out.path, _part_name(emitted))
                with open(part, "rb") as f:
                    shutil.copyfileobj(f, stream, 1 << 20)
                stream.flush()
                os.unlink(part)
                emitted += 1
            flush()
            progress.show(tasks_done, games_done, bytes_done)
            if cursor >= len(tasks) and not numbering and (stream is None or emitted == len(tasks)):
                break
            if not audits and not numbering:
                continue
            done = []
            try:
                done.append(finished.get(timeout=1.0))
                while True:
                    done.append(finished.get_nowait())
            except queue.Empty:
                pass
            for f in done:
                t = tasks[audits[f]] if f in audits else numbering[f][0]
                if f in numbering and f.status == "finished":
                    # A part written: its size from the directory, not fetched from the worker.
                    ok, value = True, os.path.getsize(os.path.join(out.path, _part_name(t.index)))
                else:
                    ok, value = _result(f, t)
                if not ok:
                    # Its answer was on a worker that died before handing it over: Dask runs it
                    # again, and it reports here again when done.
                    f.add_done_callback(finished.put)
                    continue
                if f in audits:
                    metas[audits.pop(f)] = value
                else:
                    t, entry = numbering.pop(f)
                    entry["part_bytes"] = value
                    finish_task(t, entry)
                f.release()
            # Workers: how many threads (asked at most once a second), and none for how long.
            if time.monotonic() - asked < 1.0:
                continue
            asked = time.monotonic()
            threads = sum(client.nthreads().values())
            if threads:
                no_worker_since = None
            elif no_worker_since is None:
                no_worker_since = time.monotonic()
            elif time.monotonic() - no_worker_since > args.worker_timeout:
                where = f"; the {len(landed)} parts done are kept in {out.path}: run the same command again " \
                        f"to finish" if out is not None and not out.temporary else ""
                raise UsageError(f"no worker for {args.worker_timeout:g} s: stopped with {len(landed)} of "
                                 f"{len(tasks)} tasks done{where}")
        progress.show(tasks_done, games_done, bytes_done, final=True)
        if games_done == 0 and not errors:
            raise UsageError("no games found in the input: nothing to audit")
        if totals is not None and totals["games"] == 0 and games_done:
            print(f"{PROG}: no game has the tags --select asks for ({games_done} games read)", file=sys.stderr)
        if out is not None:
            out.finish(tasks, {"games": games_done, "counts": totals})
            if args.output:
                _concatenate(out.path, tasks, args.output)
                if not args.output_dir:
                    shutil.rmtree(out.path, ignore_errors=True)
        if args.summary and totals is not None:
            text = _arbiter.summary_text(totals, time.monotonic() - connected, text_bytes, args.json)
            sys.stdout.write(text)
            sys.stdout.flush()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if args.stats:
        cpu = sum(os.times()[:2])
        print(f"{PROG}: stats: start-up {connected - begun:.2f} s (import distributed, connect), audit "
              f"{time.monotonic() - connected:.2f} s, client CPU {cpu:.2f} s ({cpu - cpu_at_connect:.2f} s after "
              f"connecting), "
              f"{len(tasks)} tasks, {games_done} games, worker CPU in the audit "
              f"{sum(m.get('cpu', 0) for m in metas.values()):.2f} s", file=sys.stderr)
    if errors:
        print(f"{PROG}: some input could not be read to its end (see above)", file=sys.stderr)
        return 2
    return 0


def _result(future, task: Task):
    """(True, a finished task's answer), or (False, None) when it cannot be had now (the worker
    that holds it died: Dask runs the task again). A task that failed on a worker is named with
    its input and bytes."""
    try:
        return True, future.result(timeout=5)
    except TimeoutError:
        return False, None
    except OSError as e:
        raise TaskFailed(f"task {task.index} ({task.spec[1]}, bytes {task.spec[3]}-{task.spec[4]}) failed on a "
                         f"worker: {e}") from None


def _remove(path: str):
    try:
        os.unlink(path)
    except OSError:
        pass


def _concatenate(parts_dir: str, tasks: List[Task], output: str):
    """--output: the parts, in order, copied into the file (written beside it, then renamed)."""
    d = os.path.dirname(os.path.abspath(output))
    fd, temp = tempfile.mkstemp(prefix="." + os.path.basename(output) + ".", dir=d)
    try:
        with os.fdopen(fd, "wb") as dst:
            for t in tasks:
                with open(os.path.join(parts_dir, _part_name(t.index)), "rb") as src:
                    shutil.copyfileobj(src, dst, 1 << 20)
        os.replace(temp, output)
    except BaseException:
        _remove(temp)
        raise


def main(argv: Optional[List[str]] = None) -> int:
    started = time.monotonic()
    args = _parse(sys.argv[1:] if argv is None else argv)
    args.started = started
    try:
        return run_audit(args)
    except (UsageError, TaskFailed, arbiter.Error) as e:
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
