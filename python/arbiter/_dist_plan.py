"""Planning the distributed audit (arbiter.distributed): the tasks of the inputs, read from their
headers only (C++, face::plan_input), each with the key that tells whether an earlier run's part
is still right."""

from __future__ import annotations

import argparse
import hashlib
import json
import os

import arbiter
from . import _arbiter
from ._dist_args import audit_options
from ._dist_connect import UsageError

#: Bytes of an input (as stored) a task reads, about, by default: plain PGN, and Zstandard frames
#: (which hold about three times as much text: about as many games a task).
DEFAULT_TASK_BYTES = 64 << 20
DEFAULT_FRAME_TASK_BYTES = 24 << 20


class Task:
    """One task: its index, its input's index, spec (path, name, kind, begin, end), key and size."""

    __slots__ = ("index", "input", "spec", "key", "size")

    def __init__(self, index, input_index, spec, key, size):
        self.index, self.input, self.spec, self.key, self.size = index, input_index, spec, key, size


def plan(args: argparse.Namespace) -> tuple:
    """(inputs, tasks): each input's name, path, size, modification time and how it is cut."""
    inputs, tasks = [], []
    options = audit_options(args).asdict()  # a part is the same whether a summary is printed or not
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
