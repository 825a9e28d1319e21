"""The distributed audit's output directory (arbiter.distributed): the parts the workers write,
the journal of the parts done, the manifest, and what an earlier run of the same command left
there; and --output, the parts concatenated."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import uuid
from typing import Dict, List, Optional

import arbiter
from ._audit import AuditOptions
from ._dist_connect import UsageError
from ._dist_plan import Task
from ._dist_tasks import part_name

MANIFEST = "manifest.json"
JOURNAL = "journal.jsonl"
FORMAT = "arbiter-distributed-audit/1"


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
            if os.path.getsize(os.path.join(self.path, part_name(task.index))) != entry["part_bytes"]:
                return None
        except OSError:
            return None
        return entry

    def start(self, tasks: List[Task]):
        # What earlier runs did stays recorded (the journal of this run holds only its own parts):
        # a run killed after this point loses none of them.
        self.manifest["tasks"] = [dict(self.done.get(t.index, {}), task=t.index, part=part_name(t.index),
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
        self.manifest["tasks"] = [dict(self.done[t.index], part=part_name(t.index), input=t.input,
                                       begin=t.spec[3], end=t.spec[4]) for t in tasks]
        self._write_manifest()
        self.journal.close()
        os.unlink(os.path.join(self.path, JOURNAL))
        keep = {part_name(t.index) for t in tasks}
        for name in os.listdir(self.path):  # parts of an earlier plan with more tasks, a lost task's records
            if (name.startswith("part-") and name.endswith(".jsonl") and name not in keep) or name.startswith(".task-"):
                remove(os.path.join(self.path, name))

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


def output_dir(args: argparse.Namespace, options: AuditOptions, inputs: list) -> Optional[OutputDir]:
    """Where the parts go: --output-dir, FILE.parts for --output, nowhere for --summary alone, or a
    temporary directory of the current one for standard output. UsageError when it is an input."""
    recorded = {**options.asdict(), "task_bytes": args.task_bytes or "default", "arbiter": arbiter.__version__}
    for i in inputs:
        for target, flag in ((args.output, "--output"), (args.output_dir, "--output-dir")):
            if target and os.path.exists(target) and os.path.exists(i["path"]) and os.path.samefile(i["path"], target):
                raise UsageError(f"{flag} '{target}' is the input '{i['name']}': refusing to overwrite an input")
    if args.output_dir:
        return OutputDir(os.path.abspath(args.output_dir), inputs, recorded, temporary=False)
    if args.output:
        return OutputDir(os.path.abspath(args.output) + ".parts", inputs, recorded, temporary=False)
    if args.summary:
        return None  # only counts come back
    # Standard output: the parts go through a directory of the current one (the workers must see
    # it) and are copied out in order as they land.
    try:
        path = tempfile.mkdtemp(prefix=".arbiter-audit-", dir=os.getcwd())
    except OSError as e:
        raise UsageError(f"cannot make a directory for the parts in {os.getcwd()}: {e}; give --output-dir") from None
    return OutputDir(path, inputs, recorded, temporary=True)


def remove(path: str):
    """Removes a file, if it is there."""
    try:
        os.unlink(path)
    except OSError:
        pass


def concatenate(parts_dir: str, tasks: List[Task], output: str):
    """--output: the parts, in order, copied into the file (written beside it, then renamed)."""
    d = os.path.dirname(os.path.abspath(output))
    fd, temp = tempfile.mkstemp(prefix="." + os.path.basename(output) + ".", dir=d)
    try:
        with os.fdopen(fd, "wb") as dst:
            for t in tasks:
                with open(os.path.join(parts_dir, part_name(t.index)), "rb") as src:
                    shutil.copyfileobj(src, dst, 1 << 20)
        os.replace(temp, output)
    except BaseException:
        remove(temp)
        raise
