"""The command line of the distributed audit (arbiter.distributed): its options parsed and checked,
and the audit's options read from them into one AuditOptions."""

from __future__ import annotations

import argparse
from typing import List

from . import _arbiter
from ._audit import AuditOptions

PROG = "arbiter.distributed"


def _add_audit_options(a: argparse.ArgumentParser) -> None:
    """The options of `arbiter audit` that decide the records: the rule set, the time category,
    --only, --select, --exact and the rule options of RULES.md §1."""
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
    for o in _arbiter.RULE_OPTIONS:  # the rule options of RULES.md §1, from the core's one table
        if o["group"] != "rule":
            continue
        help_text = o["help"][:1].lower() + o["help"][1:]
        if o["kind"] == "flag":
            a.add_argument(o["flag"], dest=o["name"], action="store_true", help=help_text)
        elif o["kind"] == "list":
            a.add_argument(o["flag"], dest=o["name"], action="append", default=[], metavar="VALUE", help=help_text)
        else:
            a.add_argument(o["flag"], dest=o["name"], default=None, help=help_text,
                           choices=o["values"].split() if o["values"] else None)

def parse(argv: List[str]) -> argparse.Namespace:
    """The options of `python3 -m arbiter.distributed audit …`; exit 2 with argparse's message on
    bad usage."""
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
    _add_audit_options(a)
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


def audit_options(args: argparse.Namespace) -> AuditOptions:
    """The audit's options of the command line, by name (the same for every task)."""
    rule_options = {}
    for o in _arbiter.RULE_OPTIONS:
        if o["group"] == "rule":
            value = getattr(args, o["name"])
            rule_options[o["name"]] = value == "true" if o["kind"] == "boolean" and value is not None else value
    return AuditOptions.of(args.rules, args.time_category, args.only, args.select, args.exact, **rule_options)
