"""`python3 -m arbiter.distributed audit` against a real dask-scheduler and two dask-worker
processes on 127.0.0.1 (issue 30): the workers read their own parts of the inputs and write the
parts; the output (standard output, `cat DIR/part-*.jsonl`, --output) is byte-identical to
`arbiter audit --format jsonl` for several task sizes, plain, multi-frame and single-frame .zst in
one run, with one worker or two, after a worker is killed with SIGKILL mid-run, and after the
client is killed and the same command run again (only the unfinished tasks run again); with every
worker gone the client stops within --worker-timeout (exit 2, the parts kept) and a rerun
finishes; malformed or refused schedulers, unreadable inputs and another run's directory are clear
errors with exit status 2. Every process started here is stopped at the end, whatever happens
(bounded waits only)."""

import glob
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from conftest import ROOT, run_cli

PYTHON = sys.executable
DASK_BIN = "/usr/bin"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env():
    e = dict(os.environ)
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__import__("arbiter").__file__)))
    e["PYTHONPATH"] = pkg + os.pathsep + e.get("PYTHONPATH", "")
    e.pop("LD_PRELOAD", None)  # the cluster runs unsanitized
    return e


def start(args, log):
    return subprocess.Popen([PYTHON, *args], stdout=log, stderr=subprocess.STDOUT, env=env(), start_new_session=True)


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


class Cluster:
    def __init__(self, tmp):
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.log = open(os.path.join(tmp, "dask.log"), "wb")
        self.procs = []
        self.workers = []

    def up(self):
        self.procs.append(start([os.path.join(DASK_BIN, "dask-scheduler"), "--host", "127.0.0.1", "--port",
                                 str(self.port), "--no-dashboard"], self.log))
        for _ in range(2):
            self.add_worker()
        self.wait_for(2)

    def add_worker(self):
        w = start([os.path.join(DASK_BIN, "dask-worker"), self.address, "--nthreads", "1", "--no-nanny",
                   "--no-dashboard", "--host", "127.0.0.1"], self.log)
        self.procs.append(w)
        self.workers.append(w)
        return w

    def wait_for(self, n, timeout=90):
        from distributed import Client
        with Client(self.address, timeout=timeout) as c:
            c.wait_for_workers(n, timeout=timeout)

    def down(self):
        for p in reversed(self.procs):
            stop(p)
        self.log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(str(tmp_path_factory.mktemp("dask")))
    try:
        c.up()
        yield c
    finally:
        c.down()


def inputs(shared_dir):
    """The real corpus when it is there, else the project's own fixtures."""
    files = sorted(glob.glob(os.path.join(shared_dir, "pgn", "real", "*.pgn"))) if shared_dir else []
    if not files:
        files = [os.path.join(ROOT, "tests", "data", "audit", "findings.pgn"),
                 os.path.join(ROOT, "tests", "data", "pgn", "features.pgn")]
    return files


@pytest.fixture(scope="module")
def files():
    shared = os.environ.get("ARBITER_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
    return inputs(shared if os.path.isdir(shared) else None)


def audit(args, timeout=300, **kw):
    r = subprocess.run([PYTHON, "-m", "arbiter.distributed", "audit", *args], capture_output=True, env=env(),
                       timeout=timeout, **kw)
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def parts(d):
    return b"".join(open(p, "rb").read() for p in sorted(glob.glob(os.path.join(str(d), "part-*.jsonl"))))


def manifest(d):
    with open(os.path.join(str(d), "manifest.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def mixed(files, tmp_path_factory):
    """Plain files, a Zstandard file of many frames (frames concatenated), one of a single frame."""
    tmp = tmp_path_factory.mktemp("mixed")
    text = b"".join(open(f, "rb").read() + b"\n\n" for f in files[:4])
    frames = tmp / "frames.pgn.zst"
    with open(frames, "wb") as out:
        for k in range(0, len(text), 50000):
            out.write(subprocess.run(["zstd", "-q", "-c"], input=text[k:k + 50000], capture_output=True,
                                     check=True, timeout=60).stdout)
    single = tmp / "single.pgn.zst"
    with open(single, "wb") as out:
        subprocess.run(["zstd", "-q", "-c", *files[-3:]], stdout=out, check=True, timeout=60)
    return [files[0], str(frames), *files[1:3], str(single), os.path.join(ROOT, "tests", "data", "pgn",
                                                                          "features.pgn.zst")]


@pytest.fixture(scope="module")
def big(files, tmp_path_factory):
    """Enough games for a run to be under way when something is killed."""
    path = tmp_path_factory.mktemp("big") / "big.pgn"
    with open(path, "wb") as out:
        rounds = 0
        while rounds < 2 or out.tell() < 8 << 20:
            for f in files:
                out.write(open(f, "rb").read() + b"\n\n")
            rounds += 1
    return str(path)


def test_same_output_as_cli_for_several_task_sizes(cli, cluster, mixed, tmp_path):
    rc, want, _ = run_cli(cli, "audit", "--format", "jsonl", "-q", *mixed)
    assert rc == 0 and want
    for size in ("1024", "65536", "100000000"):
        rc, got, err = audit(["--scheduler", cluster.address, "--task-bytes", size, *mixed])
        assert rc == 0, err
        assert got == want, size
    # The parts in a directory, and --output.
    out, report = tmp_path / "out", tmp_path / "report.jsonl"
    rc, got, err = audit(["--scheduler", cluster.address, "--task-bytes", "20000", "--output-dir", str(out),
                          "--output", str(report), "--progress", *mixed])
    assert rc == 0 and got == b"", err
    assert parts(out) == want and report.read_bytes() == want
    m = manifest(out)
    n = len(m["tasks"])
    # --progress off a terminal: a line as parts land, the last one complete.
    lines = [line for line in err.splitlines() if " tasks, " in line]
    assert len(lines) >= 2
    games = want.count(b"\n")
    assert lines[-1].startswith(f"arbiter.distributed: {n}/{n} tasks, {games:,} games, ")
    assert "games/s" in lines[-1]
    assert "100 % of the input" in lines[-1] and "left" in "".join(lines[:-1])
    assert m["state"] == "complete" and [i["name"] for i in m["inputs"]] == mixed
    assert {i["kind"] for i in m["inputs"]} == {"range", "frames", "whole"}
    assert sum(t["games"] for t in m["tasks"]) == want.count(b"\n")
    assert [t["task"] for t in m["tasks"]] == list(range(len(m["tasks"])))
    assert sorted(os.listdir(out)) == ["manifest.json"] + [f"part-{k:05d}.jsonl" for k in range(len(m["tasks"]))]
    # --output alone: its parts beside it until the end, then gone.
    report2 = tmp_path / "report2.jsonl"
    rc, got, err = audit(["--scheduler", cluster.address, "--task-bytes", "300000", "--output", str(report2), *mixed])
    assert rc == 0 and report2.read_bytes() == want and not os.path.exists(str(report2) + ".parts"), err


def test_only_select_and_summary(cli, cluster, files):
    args = ["--only", "claimable,missed_automatic_draw", "--select", "Result=1/2-1/2"]
    rc, want, _ = run_cli(cli, "audit", "-q", *args, *files)
    rc, got, err = audit(["--scheduler", cluster.address, "--task-bytes", "50000", *args, *files])
    assert rc == 0 and got == want and want, err
    for extra in ([], args):
        rc, want, _ = run_cli(cli, "audit", "-q", "--format", "summary", "--json", *extra, *files)
        rc, got, err = audit(["--scheduler", cluster.address, "--task-bytes", "100000", "--summary", "--json",
                              *extra, *files])
        assert rc == 0, err
        want, got = json.loads(want), json.loads(got)
        for timing in ("seconds", "games_per_second"):
            del want[timing], got[timing]
        assert got == want and got["games"] > 0
    rc, out, err = audit(["--scheduler", cluster.address, "--only", "nonsense", *files])
    assert rc == 2 and out == b"" and "unknown finding type or kind 'nonsense'" in err


def test_one_local_worker(cli, tmp_path):
    f = [os.path.join(ROOT, "tests", "data", "audit", "findings.pgn"), os.path.join(ROOT, "tests", "data", "pgn",
                                                                                   "features.pgn")]
    rc, want, _ = run_cli(cli, "audit", "-q", *f)
    rc, got, err = audit(["--scheduler", "local:1", "--task-bytes", "2000", "--output-dir", str(tmp_path / "o"), *f],
                         timeout=180)
    assert rc == 0 and got == b"" and parts(tmp_path / "o") == want, err


def test_client_registers_with_dask_versions_without_importing_pandas():
    """The client's registration gives the scheduler the report Dask's own get_versions gives,
    read without importing the optional packages (pandas alone is 0.2 s of start-up)."""
    code = ("import sys, arbiter.distributed as d\n"
            "report = d._versions_from_metadata()()\n"
            "assert 'pandas' not in sys.modules, 'pandas imported'\n"
            "from distributed import versions\n"
            "assert versions.get_versions() == report, (versions.get_versions(), report)\n")
    r = subprocess.run([PYTHON, "-c", code], env=env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_errors_exit_2(cli, cluster, files, tmp_path):
    # A refused port answers at once, well before the 60 s of --connect-timeout (the run is given 30).
    x = tmp_path / "x.pgn"
    x.write_bytes(open(files[0], "rb").read())
    port = free_port()
    rc, out, err = audit(["--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", "60", str(x)], timeout=30)
    assert rc == 2 and out == b"" and f"tcp://127.0.0.1:{port}: connection refused" in err
    # An input no worker can open: named, the others audited (as the CLI).
    rc, want, _ = run_cli(cli, "audit", "-q", str(x))
    rc, out, err = audit(["--scheduler", cluster.address, str(tmp_path / "missing.pgn"), str(x)])
    assert rc == 2 and out == want and "missing.pgn: cannot open" in err
    rc, out, err = audit(["--scheduler", cluster.address, "--rules", "fide-1850", str(x)])
    assert rc == 2 and "unknown rule set" in err
    rc, out, err = audit(["--scheduler", cluster.address, "-"], input=b"")
    assert rc == 2 and "'-' (standard input)" in err
    rc, out, err = audit(["--scheduler", "nowhere", str(x)])
    assert rc == 2 and "tcp://HOST:PORT" in err
    # Malformed addresses: exit 2 at once, naming the value and what is wrong with it.
    for value, why in [("tcp://127.0.0.1", "no port"), ("http://127.0.0.1:8786", "not tcp"),
                       ("127.0.0.1:x", "expected tcp://HOST:PORT"), ("tcp://127.0.0.1:x", "'x' is not a number"),
                       ("tcp://127.0.0.1:0", "'0' is not a number"), ("tcp://:8786", "no host"),
                       ("tcp://127.0.0.1:8786/x", "no path")]:
        rc, out, err = audit(["--scheduler", value, "--connect-timeout", "60", str(x)], timeout=30)
        assert rc == 2 and out == b"" and value in err and why in err, (value, err)
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    rc, out, err = audit(["--scheduler", cluster.address, str(empty)])
    assert rc == 2 and "no games" in err


def test_output_dir_of_another_run_is_refused(cluster, files, tmp_path):
    x = tmp_path / "x.pgn"
    x.write_bytes(open(files[0], "rb").read())
    other = tmp_path / "other"
    rc, _, err = audit(["--scheduler", cluster.address, "--output-dir", str(other), files[1]])
    assert rc == 0, err
    before = {n: (other / n).read_bytes() for n in os.listdir(other)}
    rc, out, err = audit(["--scheduler", cluster.address, "--output-dir", str(other), str(x)])
    assert rc == 2 and "holds the parts of another run" in err and files[1] in err
    assert {n: (other / n).read_bytes() for n in os.listdir(other)} == before
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    rc, out, err = audit(["--scheduler", cluster.address, "--output-dir", str(foreign), str(x)])
    assert rc == 2 and "not an arbiter.distributed audit's" in err and os.listdir(foreign) == ["notes.txt"]


def test_rerun_redoes_only_missing_or_stale_parts(cli, cluster, files, tmp_path):
    # Three files and a fourth from the corpus, or the project's two fixtures without it.
    head, last = (files[:3], files[3]) if len(files) > 3 else (files[:-1], files[-1])
    x = tmp_path / "x.pgn"
    x.write_bytes(b"".join(open(f, "rb").read() + b"\n\n" for f in head))
    y = tmp_path / "y.pgn"
    y.write_bytes(open(last, "rb").read())
    out = tmp_path / "out"
    task_bytes = str(min(40000, x.stat().st_size // 3))  # x in three tasks at least
    args = ["--scheduler", cluster.address, "--task-bytes", task_bytes, "--output-dir", str(out), str(x), str(y)]
    rc, _, err = audit(args)
    assert rc == 0, err
    tasks = len(manifest(out)["tasks"])
    # Two parts lost: only they run again.
    os.unlink(out / "part-00001.jsonl")
    os.unlink(out / f"part-{tasks - 1:05d}.jsonl")
    rc, _, err = audit(args)
    assert rc == 0 and f"{tasks - 2} of {tasks} parts are done already" in err, err
    m = manifest(out)
    assert m["run"] == 2 and [t["task"] for t in m["tasks"] if t["run"] == 2] == [1, tasks - 1]
    rc, want, _ = run_cli(cli, "audit", "-q", str(x), str(y))
    assert parts(out) == want
    # Another option: every part is stale.
    rc, _, err = audit(args[:-2] + ["--rules", "fide-2009", str(x), str(y)])
    assert rc == 0, err
    assert {t["run"] for t in manifest(out)["tasks"]} == {3}
    rc, want, _ = run_cli(cli, "audit", "-q", "--rules", "fide-2009", str(x), str(y))
    assert parts(out) == want
    # The first input changed (one game fewer): its parts and the numbers of all after it change.
    x.write_bytes(b"[Event " + x.read_bytes().split(b"\n[Event ", 1)[1])
    rc, _, err = audit(args[:-2] + ["--rules", "fide-2009", str(x), str(y)])
    assert rc == 0, err
    rc, want, _ = run_cli(cli, "audit", "-q", "--rules", "fide-2009", str(x), str(y))
    assert parts(out) == want


def wait_for_parts(d, n, proc, timeout=120):
    """Until the journal of a run in `d` names n parts (or the run ended)."""
    end = time.monotonic() + timeout
    journal = os.path.join(str(d), "journal.jsonl")
    while time.monotonic() < end and proc.poll() is None:
        if os.path.exists(journal) and open(journal, "rb").read().count(b"\n") >= n:
            return True
        time.sleep(0.02)
    return False


def start_audit(args):
    return subprocess.Popen([PYTHON, "-m", "arbiter.distributed", "audit", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env(), start_new_session=True)


def test_client_killed_then_rerun(cli, cluster, big, tmp_path):
    rc, want, _ = run_cli(cli, "audit", "-q", big)
    out = tmp_path / "out"
    args = ["--scheduler", cluster.address, "--task-bytes", "131072", "--in-flight", "2", "--output-dir", str(out),
            big]
    proc = start_audit(args)
    try:
        assert wait_for_parts(out, 3, proc), "the run ended before the client could be killed"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        stop(proc)
    journal = [json.loads(line) for line in open(out / "journal.jsonl", "rb") if line.endswith(b"\n")]
    rc, got, err = audit(args)
    assert rc == 0 and got == b"", err
    assert parts(out) == want
    m = manifest(out)
    first = sorted(t["task"] for t in m["tasks"] if t["run"] == 1)
    assert len(first) >= 3 and first == sorted(e["task"] for e in journal)
    assert len(first) < len(m["tasks"]) and f"{len(first)} of {len(m['tasks'])} parts are done already" in err
    assert not [n for n in os.listdir(out) if n.startswith(".") or n.endswith(".tmp")]


def test_worker_killed_mid_run_output_identical(cli, cluster, big, tmp_path):
    """Kills one of the module's two workers, and starts another."""
    rc, want, _ = run_cli(cli, "audit", "-q", big)
    out = tmp_path / "out"
    proc = start_audit(["--scheduler", cluster.address, "--task-bytes", "131072", "--in-flight", "4",
                        "--output-dir", str(out), big])
    try:
        assert wait_for_parts(out, 2, proc), "the run ended before a worker could be killed"
        victim = cluster.workers.pop(0)
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=30)
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
        assert parts(out) == want
    finally:
        stop(proc)
        cluster.add_worker()
        cluster.wait_for(2)


def test_every_worker_gone_then_rerun(cli, cluster, big, tmp_path):
    """Runs last: kills every worker; the client stops within --worker-timeout, keeping its parts."""
    rc, want, _ = run_cli(cli, "audit", "-q", big)
    out = tmp_path / "out"
    args = ["--scheduler", cluster.address, "--task-bytes", "131072", "--in-flight", "2", "--worker-timeout", "4",
            "--output-dir", str(out), big]
    proc = start_audit(args)
    try:
        assert wait_for_parts(out, 2, proc), "the run ended before the workers could be killed"
        for w in cluster.workers:
            os.kill(w.pid, signal.SIGKILL)
        for w in cluster.workers:
            w.wait(timeout=30)
        cluster.workers.clear()
        killed = time.monotonic()
        _, err = proc.communicate(timeout=120)
        took = time.monotonic() - killed
        err = err.decode()
        assert proc.returncode == 2 and "no worker for 4 s" in err and "run the same command again" in err, err
        assert took < 60, took
    finally:
        stop(proc)
    # The parts journaled are kept (a part written whose answer died with its worker is done again).
    kept = sum(1 for line in open(out / "journal.jsonl", "rb") if line.endswith(b"\n"))
    assert kept >= 2 and len(glob.glob(str(out / "part-*.jsonl"))) >= kept
    cluster.add_worker()
    cluster.add_worker()
    cluster.wait_for(2)
    rc, got, err = audit(args)
    assert rc == 0 and f"{kept} of" in err, err
    assert parts(out) == want
