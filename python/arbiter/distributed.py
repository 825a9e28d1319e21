"""The audit of a game database on a Dask cluster (docs/distributed.md).

    /usr/bin/python3 -m arbiter.distributed audit --scheduler tcp://HOST:PORT|local[:N]
        [--rules ID|auto] [--time-category C] [--only LIST] [--select TAG=VALUE] [--exact]
        [--initial-position-counts true|false] [--counters-from-setup S] [--fifty-extension EXT]
        [--online-claims] [--intended-mate-incorrect]
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

The modules: _dist_args (the command line, the audit's options as one AuditOptions), _dist_connect
(the cluster), _dist_plan (the tasks), _dist_tasks (what the workers run), _dist_output (the output
directory, journal and manifest) and _dist_run (the run, one step a method); this one is the entry
point and keeps their public names.

Exit status: 0 done; 2 bad usage or input (a malformed or unreachable scheduler, an input that
cannot be read, no games, an output directory of another run, no worker left); 1 internal failure.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import List, Optional

import arbiter
from . import _arbiter
# The names this module had before it was split, kept here (re-exported: tests and users reach them).
from ._dist_args import PROG, audit_options
from ._dist_args import parse as _parse
from ._dist_connect import TaskFailed, UsageError
from ._dist_connect import connect as _connect
from ._dist_connect import scheduler_address as _scheduler_address
from ._dist_connect import versions_from_metadata as _versions_from_metadata
from ._dist_output import FORMAT, JOURNAL, MANIFEST, OutputDir
from ._dist_output import output_dir as _output_dir
from ._dist_plan import DEFAULT_FRAME_TASK_BYTES, DEFAULT_TASK_BYTES, Task
from ._dist_plan import plan as _plan
from ._dist_run import AuditRun, Progress
from ._dist_tasks import audit_task, number_task, run_job
from ._dist_tasks import part_name as _part_name

__all__ = ["main", "run_audit", "audit_task", "number_task", "run_job", "OutputDir", "Progress", "Task", "AuditRun",
           "UsageError", "TaskFailed", "PROG", "DEFAULT_TASK_BYTES", "DEFAULT_FRAME_TASK_BYTES", "MANIFEST",
           "JOURNAL", "FORMAT"]


def run_audit(args: argparse.Namespace) -> int:
    """The audit the parsed command line asks for: its exit status."""
    options = audit_options(args)
    # Options are checked here, once, not on every worker.
    _arbiter.audit_piece(b"", "-", 1, 0, False, options, True, None)
    import dask

    # Every submit would read and tokenize this module's source to show it on the dashboard
    # (Client._get_computation_code, about 12 ms a task): no frame is shown.
    with dask.config.set({"distributed.diagnostics.computations.ignore-modules": [".*"]}):
        begun = getattr(args, "started", time.monotonic())
        inputs, tasks = _plan(args)
        out = _output_dir(args, options, inputs)
        try:
            return AuditRun(args, options, tasks, out, begun).run()
        finally:
            if out is not None:
                out.close()


def main(argv: Optional[List[str]] = None) -> int:
    """`python3 -m arbiter.distributed audit …`: the exit status."""
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
    # Run as `python3 -m arbiter.distributed`: the tasks refer to arbiter._dist_tasks.run_job (so
    # that Dask pickles a reference the workers import, not this __main__ module's function by value).
    from arbiter.distributed import main as _main

    sys.exit(_main())
