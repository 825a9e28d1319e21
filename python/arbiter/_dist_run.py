"""The run of the distributed audit on its cluster (arbiter.distributed): the tasks submitted in
input order, their counts placed as they come (each task's first game number, line and offset),
the parts numbered on the workers and journaled, standard output fed in order, the workers
watched, and the end: summary, manifest, --output. One step a method of AuditRun."""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import sys
import time
import uuid
from typing import Dict, List, Optional

from . import _arbiter
from ._audit import AuditOptions
from ._dist_args import PROG
from ._dist_connect import TaskFailed, UsageError, connect
from ._dist_output import OutputDir, concatenate, remove
from ._dist_plan import Task
from ._dist_tasks import part_name, run_job


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
                f"{100 * share:.0f} % of the input" + (f", about {duration(left)} left" if left and not final else ""))
        if self.tty:
            sys.stderr.write("\r\x1b[K" + text + ("\n" if final else ""))
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()
        self.shown = True


def duration(s: float) -> str:
    """Seconds as people read them: "42 s", "3 min 05 s", "1 h 02 min"."""
    s = int(s + 0.5)
    return f"{s // 3600} h {s % 3600 // 60:02d} min" if s >= 3600 else f"{s // 60} min {s % 60:02d} s" if s >= 60 \
        else f"{s} s"


def result(future, task: Task):
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


class AuditRun:
    """One run of the audit of `tasks` on a cluster, in input order: the counts of each task,
    then its part. `out` is where the parts go (None: only counts come back, --summary)."""

    def __init__(self, args: argparse.Namespace, options: AuditOptions, tasks: List[Task],
                 out: Optional[OutputDir], begun: float):
        self.args, self.options, self.tasks, self.out, self.begun = args, options, tasks, out, begun
        self.kept: Dict[int, dict] = {}  # task -> an earlier run's entry, its part still right
        self.metas: Dict[int, dict] = {}  # task -> the audit's answer
        self.audits: Dict[object, int] = {}  # future -> task
        self.numbering: Dict[object, tuple] = {}  # future -> (task, entry)
        self.jobs: list = []  # the jobs of a step, submitted together: (job, what for)
        self.finished: queue.Queue = queue.Queue()  # futures report here as they finish
        self.to_submit: List[Task] = []
        self.submit_at = 0  # the next of to_submit
        self.cursor = 0  # the first task whose part is not placed yet
        self.emitted = 0  # standard output: parts copied out
        self.landed = set()  # parts written
        self.games_before = 0
        self.text_bytes = 0  # of the inputs' text, decompressed
        self.per_file = {"input": None, "games": 0, "lines": 0, "bytes": 0, "dead": False}
        self.totals = None
        self.games_done = self.bytes_done = self.tasks_done = 0
        self.errors: list = []
        self.no_worker_since = None
        self.threads = 1
        self.asked = 0.0
        self.client = None
        self.stream = sys.stdout.buffer if out is not None and out.temporary else None
        self.progress: Optional[Progress] = None

    def run(self) -> int:
        """Runs the audit to its end: the exit status (2 when some input could not be read)."""
        self.keep_earlier_parts()
        self.client, cluster = connect(self.args.scheduler, self.args.connect_timeout)
        self.connected = time.monotonic()
        self.cpu_at_connect = sum(os.times()[:2])
        if self.out is not None:
            self.out.start(self.tasks)
        self.progress = Progress(self.args.progress, sum(t.size for t in self.tasks), len(self.tasks))
        try:
            self.to_submit = [t for t in self.tasks if t.index not in self.kept]
            self.threads = sum(self.client.nthreads().values()) or 1
            self.asked = time.monotonic()
            while self.step():
                pass
            self.finish()
        finally:
            self.client.close()
            if cluster is not None:
                cluster.close()
        if self.args.stats:
            self.print_stats()
        if self.errors:
            print(f"{PROG}: some input could not be read to its end (see above)", file=sys.stderr)
            return 2
        return 0

    def keep_earlier_parts(self):
        """The parts an earlier run of the same command left, still right, are not redone."""
        if self.out is None:
            return
        for t in self.tasks:
            entry = self.out.valid(t)
            if entry is not None:
                self.kept[t.index] = entry
        if self.kept:
            print(f"{PROG}: {self.out.path}: {len(self.kept)} of {len(self.tasks)} parts are done already (run "
                  f"{self.out.previous_run}); running the other {len(self.tasks) - len(self.kept)}", file=sys.stderr)

    def step(self) -> bool:
        """One turn of the loop: submit, place, copy out, wait for answers, watch the workers.
        False when everything is done."""
        self.submit_ahead()
        self.place_counted()
        self.copy_out_landed()
        self.flush()
        self.progress.show(self.tasks_done, self.games_done, self.bytes_done)
        if self.cursor >= len(self.tasks) and not self.numbering and \
                (self.stream is None or self.emitted == len(self.tasks)):
            return False
        if not self.audits and not self.numbering:
            return True
        self.collect_answers()
        self.watch_workers()
        return True

    # ---- submitting ----

    def submit(self, t: Task):
        records_dir = self.out.path if self.out is not None else None
        summary = self.out is None  # only counts come back when no part is written
        self.jobs.append((("audit", t.spec, self.options, summary, records_dir, t.index), t.index))

    def submit_ahead(self):
        """Keeps the cluster busy, but no more than --in-flight tasks ahead of the cursor."""
        in_flight = self.args.in_flight or max(8, 4 * self.threads)
        while self.submit_at < len(self.to_submit) and self.to_submit[self.submit_at].index < self.cursor + in_flight:
            self.submit(self.to_submit[self.submit_at])
            self.submit_at += 1

    def flush(self):
        """The jobs of this step to the scheduler in one message; each future reports when done."""
        if not self.jobs:
            return
        stamp = uuid.uuid4().hex[:8]
        keys = [f"arbiter-{job[0]}-{stamp}-{k}" for k, (job, _) in enumerate(self.jobs)]
        futures = self.client.map(run_job, [job for job, _ in self.jobs], key=keys, pure=False)
        for f, (job, what) in zip(futures, self.jobs):
            (self.audits if job[0] == "audit" else self.numbering)[f] = what
            f.add_done_callback(self.finished.put)
        self.jobs.clear()

    # ---- placing the tasks whose counts are known, in order ----

    def place_counted(self):
        while self.cursor < len(self.tasks) and (self.cursor in self.metas or self.cursor in self.kept):
            t = self.tasks[self.cursor]
            if self.per_file["input"] != t.input:
                self.per_file = {"input": t.input, "games": 0, "lines": 0, "bytes": 0, "dead": False}
            dropped = self.per_file["dead"]  # an earlier task of this input ended it with a read error
            entry = self.entry_of(t, self.kept.get(self.cursor) or self.metas[self.cursor], dropped)
            if self.cursor in self.kept and any(self.kept[self.cursor].get(k) != entry[k] for k in
                                                ("game", "game_in_file", "line_base", "offset_base")):
                # An earlier input changed: this part's numbers did too. Audit it again.
                del self.kept[self.cursor]
                self.submit(t)
                return
            self.place(t, entry, dropped)
            if not dropped:
                self.count(entry)
            self.cursor += 1

    def entry_of(self, t: Task, meta: dict, dropped: bool) -> dict:
        """The journal's entry of a task: its counts and where its part starts."""
        return {"task": t.index, "key": t.key, "run": self.out.run if self.out else 1,
                "games": 0 if dropped else meta["games"], "newlines": 0 if dropped else meta["newlines"],
                "bytes": 0 if dropped else meta["bytes"],
                "counts": None if dropped else meta["counts"], "error": None if dropped else meta["error"],
                "game": self.games_before + 1, "game_in_file": self.per_file["games"] + 1,
                "line_base": self.per_file["lines"], "offset_base": self.per_file["bytes"]}

    def place(self, t: Task, entry: dict, dropped: bool):
        """A task counted: kept from an earlier run, empty (dropped, or no parts), or its part to number."""
        if t.index in self.kept:
            self.finish_task(t, self.kept[t.index])
        elif dropped or self.out is None:
            entry["part_bytes"] = 0
            if self.out is not None:
                open(os.path.join(self.out.path, part_name(t.index)), "wb").close()
                records = self.metas[t.index].get("records")
                if records:
                    remove(records)
            self.finish_task(t, entry)
        else:
            self.jobs.append((("number", self.metas[t.index]["records"], os.path.join(self.out.path,
                                                                                     part_name(t.index)),
                               entry["game"], entry["game_in_file"], entry["line_base"], entry["offset_base"]),
                              (t, entry)))

    def count(self, entry: dict):
        """A placed task's games, lines, bytes, findings and read error added to the run's."""
        self.games_before += entry["games"]
        self.text_bytes += entry["bytes"]
        self.per_file["games"] += entry["games"]
        self.per_file["lines"] += entry["newlines"]
        self.per_file["bytes"] += entry["bytes"]
        if entry["counts"] is not None:
            self.totals = entry["counts"] if self.totals is None else _arbiter.add_counts(self.totals,
                                                                                         entry["counts"])
        if entry["error"]:
            self.per_file["dead"] = True
            self.errors.append(entry["error"])
            note = "" if entry["error"][0] == "cannot_open" else " (the games before it were audited)"
            print(f"{PROG}: {entry['error'][4]}{note}", file=sys.stderr)

    def finish_task(self, t: Task, entry: dict):
        self.tasks_done += 1
        self.games_done += entry["games"]
        self.bytes_done += t.size
        self.landed.add(t.index)
        if self.out is not None and t.index not in self.kept:
            self.out.record(entry)

    # ---- answers, output, workers ----

    def copy_out_landed(self):
        """Standard output: the parts landed, in order."""
        while self.stream is not None and self.emitted < len(self.tasks) and self.emitted in self.landed:
            part = os.path.join(self.out.path, part_name(self.emitted))
            with open(part, "rb") as f:
                shutil.copyfileobj(f, self.stream, 1 << 20)
            self.stream.flush()
            os.unlink(part)
            self.emitted += 1

    def collect_answers(self):
        """Sleeps until a future reports (a second at most), then takes every answer there."""
        done = []
        try:
            done.append(self.finished.get(timeout=1.0))
            while True:
                done.append(self.finished.get_nowait())
        except queue.Empty:
            pass
        for f in done:
            t = self.tasks[self.audits[f]] if f in self.audits else self.numbering[f][0]
            if f in self.numbering and f.status == "finished":
                # A part written: its size from the directory, not fetched from the worker.
                ok, value = True, os.path.getsize(os.path.join(self.out.path, part_name(t.index)))
            else:
                ok, value = result(f, t)
            if not ok:
                # Its answer was on a worker that died before handing it over: Dask runs it
                # again, and it reports here again when done.
                f.add_done_callback(self.finished.put)
                continue
            if f in self.audits:
                self.metas[self.audits.pop(f)] = value
            else:
                t, entry = self.numbering.pop(f)
                entry["part_bytes"] = value
                self.finish_task(t, entry)
            f.release()

    def watch_workers(self):
        """How many worker threads (asked at most once a second), and none for how long:
        UsageError after --worker-timeout seconds without one."""
        if time.monotonic() - self.asked < 1.0:
            return
        self.asked = time.monotonic()
        self.threads = sum(self.client.nthreads().values())
        if self.threads:
            self.no_worker_since = None
        elif self.no_worker_since is None:
            self.no_worker_since = time.monotonic()
        elif time.monotonic() - self.no_worker_since > self.args.worker_timeout:
            out = self.out
            where = f"; the {len(self.landed)} parts done are kept in {out.path}: run the same command again " \
                    f"to finish" if out is not None and not out.temporary else ""
            raise UsageError(f"no worker for {self.args.worker_timeout:g} s: stopped with {len(self.landed)} of "
                             f"{len(self.tasks)} tasks done{where}")

    # ---- the end ----

    def finish(self):
        """The last progress line, the manifest, --output and the summary."""
        self.progress.show(self.tasks_done, self.games_done, self.bytes_done, final=True)
        if self.games_done == 0 and not self.errors:
            raise UsageError(_arbiter.NO_GAMES)
        if self.totals is not None and self.totals["games"] == 0 and self.games_done:
            print(f"{PROG}: no game has the tags --select asks for ({self.games_done} games read)", file=sys.stderr)
        if self.out is not None:
            self.out.finish(self.tasks, {"games": self.games_done, "counts": self.totals})
            if self.args.output:
                concatenate(self.out.path, self.tasks, self.args.output)
                if not self.args.output_dir:
                    shutil.rmtree(self.out.path, ignore_errors=True)
        if self.args.summary and self.totals is not None:
            text = _arbiter.summary_text(self.totals, time.monotonic() - self.connected, self.text_bytes,
                                         self.args.json)
            sys.stdout.write(text)
            sys.stdout.flush()

    def print_stats(self):
        cpu = sum(os.times()[:2])
        print(f"{PROG}: stats: start-up {self.connected - self.begun:.2f} s (import distributed, connect), audit "
              f"{time.monotonic() - self.connected:.2f} s, client CPU {cpu:.2f} s ({cpu - self.cpu_at_connect:.2f} s "
              f"after connecting), "
              f"{len(self.tasks)} tasks, {self.games_done} games, worker CPU in the audit "
              f"{sum(m.get('cpu', 0) for m in self.metas.values()):.2f} s", file=sys.stderr)
