"""The distributed audit's work on the workers (arbiter.distributed): auditing a task and writing
its numbered part. Pure: the same task always gives the same answer, so Dask may run one again."""

from __future__ import annotations

import os
import time
import uuid
from typing import Optional

from . import _arbiter
from ._audit import AuditOptions


def part_name(index: int) -> str:
    """The file of task `index`'s part in the output directory."""
    return f"part-{index:05d}.jsonl"


def audit_task(spec: tuple, options: AuditOptions, summary: bool, records_dir: Optional[str], index: int) -> dict:
    """Audits one task on a worker. `spec` is (path, name, kind, begin, end), `options` the audit's
    (one AuditOptions, by name); the records go to a new file in `records_dir` (none with
    `summary`: only counts come back), named in the answer with the counts."""
    path, name, kind, begin, end = spec
    records = None
    if records_dir is not None and not summary:
        records = os.path.join(records_dir, f".task-{index:05d}-{uuid.uuid4().hex[:12]}.records")
    _arbiter.reuse_memory()
    started = time.process_time()
    try:
        games, newlines, nbytes, counts, error = _arbiter.audit_task(path, name, kind, begin, end, records, options,
                                                                     summary)
    except BaseException:
        if records is not None and os.path.exists(records):
            os.unlink(records)
        raise
    return {"games": games, "newlines": newlines, "bytes": nbytes, "counts": counts,
            "error": list(error) if error else None, "records": records,
            "cpu": time.process_time() - started}


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


def run_job(job: tuple):
    """What the client submits: ("audit", spec, options, summary, records_dir, index) or ("number",
    records, part, game, game_in_file, line_base, offset_base) — one function, so that the jobs of
    a step go to the scheduler in one message (client.map)."""
    return audit_task(*job[1:]) if job[0] == "audit" else number_task(*job[1:])
