"""`python3 -m arbiter.distributed audit` against a real dask-scheduler and two dask-worker
processes on 127.0.0.1: the output is byte-identical to `arbiter audit --format jsonl` for several
piece sizes, on a .pgn.zst too, with --summary, after one worker is killed with SIGKILL mid-run,
and an absent scheduler is a clear error with exit status 2. Every process started here is
stopped at the end, whatever happens (bounded waits only)."""

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


def test_same_output_as_cli_for_several_chunk_sizes(cli, cluster, files):
    rc, want, _ = run_cli(cli, "audit", "--format", "jsonl", "-q", *files)
    assert rc == 0 and want
    for chunk in ("3", "50", "1000"):
        rc, got, err = audit(["--scheduler", cluster.address, "--chunk-games", chunk, *files])
        assert rc == 0, err
        assert got == want, chunk


def test_pieces_by_size_only_and_select(cli, cluster, files):
    """Pieces cut by size (the default) from 1 byte up; --only and --select as the CLI's."""
    rc, want, _ = run_cli(cli, "audit", "--format", "jsonl", "-q", *files)
    for chunk in ("1", "20000"):
        rc, got, err = audit(["--scheduler", cluster.address, "--chunk-bytes", chunk, *files])
        assert rc == 0 and got == want, (chunk, err)
    args = ["--only", "claimable,missed_automatic_draw", "--select", "Result=1/2-1/2"]
    rc, want, _ = run_cli(cli, "audit", "-q", *args, *files)
    rc, got, err = audit(["--scheduler", cluster.address, "--chunk-bytes", "50000", *args, *files])
    assert rc == 0 and got == want and want, err
    rc, want, _ = run_cli(cli, "audit", "-q", "--format", "summary", "--json", *args, *files)
    rc, got, err = audit(["--scheduler", cluster.address, "--summary", "--json", *args, *files])
    assert rc == 0, err
    want, got = json.loads(want), json.loads(got)
    for timing in ("seconds", "games_per_second"):
        del want[timing], got[timing]
    assert got == want
    rc, out, err = audit(["--scheduler", cluster.address, "--only", "nonsense", *files])
    assert rc == 2 and out == b"" and "unknown finding type or kind 'nonsense'" in err


def test_zst_input_and_output_file(cli, cluster, files, tmp_path):
    zst = tmp_path / "games.pgn.zst"
    with open(zst, "wb") as out:
        subprocess.run(["zstd", "-q", "-c", *files[:3]], stdout=out, check=True, timeout=60)
    mixed = [str(zst), os.path.join(ROOT, "tests", "data", "pgn", "features.pgn.zst")]
    rc, want, _ = run_cli(cli, "audit", "-q", *mixed)
    assert rc == 0
    report = tmp_path / "report.jsonl"
    rc, got, err = audit(["--scheduler", cluster.address, "--chunk-games", "40", "--output", str(report), *mixed])
    assert rc == 0 and got == b"", err
    assert report.read_bytes() == want
    rc, want, _ = run_cli(cli, "audit", "-q", "--rules", "fide-2009", *mixed)
    rc, got, err = audit(["--scheduler", cluster.address, "--rules", "fide-2009", *mixed])
    assert rc == 0 and got == want, err


def test_summary_reduced_on_workers(cli, cluster, files):
    rc, want, _ = run_cli(cli, "audit", "-q", "--format", "summary", "--json", *files)
    rc2, got, err = audit(["--scheduler", cluster.address, "--chunk-games", "25", "--summary", "--json", *files])
    assert rc == rc2 == 0, err
    want, got = json.loads(want), json.loads(got)
    for timing in ("seconds", "games_per_second"):
        del want[timing], got[timing]
    assert got == want and got["games"] > 0


def test_errors_exit_2(cluster, tmp_path):
    # A refused port answers at once, well before the 60 s of --connect-timeout (the run is given 30).
    port = free_port()
    rc, out, err = audit(["--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", "60",
                          str(tmp_path / "x.pgn")], timeout=30)
    assert rc == 2 and out == b"" and f"tcp://127.0.0.1:{port}: connection refused" in err
    rc, out, err = audit(["--scheduler", cluster.address, str(tmp_path / "missing.pgn")])
    assert rc == 2 and "cannot open" in err
    rc, out, err = audit(["--scheduler", cluster.address, "--rules", "fide-1850", str(tmp_path / "x.pgn")])
    assert rc == 2 and "unknown rule set" in err
    rc, out, err = audit(["--scheduler", "nowhere", str(tmp_path / "x.pgn")])
    assert rc == 2 and "tcp://HOST:PORT" in err
    # Malformed addresses: exit 2 at once, naming the value and what is wrong with it.
    for value, why in [("tcp://127.0.0.1", "no port"), ("http://127.0.0.1:8786", "not tcp"),
                       ("127.0.0.1:x", "expected tcp://HOST:PORT"), ("tcp://127.0.0.1:x", "'x' is not a number"),
                       ("tcp://127.0.0.1:0", "'0' is not a number"), ("tcp://:8786", "no host"), ("tcp://127.0.0.1:8786/x", "no path")]:
        rc, out, err = audit(["--scheduler", value, "--connect-timeout", "60", str(tmp_path / "x.pgn")], timeout=30)
        assert rc == 2 and out == b"" and value in err and why in err, (value, err)
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    rc, out, err = audit(["--scheduler", cluster.address, str(empty)])
    assert rc == 2 and "no games" in err


def test_local_cluster(cli):
    f = [os.path.join(ROOT, "tests", "data", "audit", "findings.pgn")]
    rc, want, _ = run_cli(cli, "audit", "-q", *f)
    rc, got, err = audit(["--scheduler", "local:2", "--chunk-games", "2", *f], timeout=180)
    assert rc == 0 and got == want, err


def test_worker_killed_mid_run_output_identical(cli, cluster, files, tmp_path):
    """Runs last: it kills one of the module's two workers."""
    big = tmp_path / "big.pgn"
    with open(big, "wb") as out:
        # Enough games for many pieces to be in flight when the worker dies (the real corpus three
        # times, or the fixtures as often as it takes without it).
        rounds = 0
        while rounds < 3 or out.tell() < 8 << 20:
            for f in files:
                out.write(open(f, "rb").read() + b"\n\n")
            rounds += 1
    rc, want, _ = run_cli(cli, "audit", "-q", str(big))
    assert rc == 0
    proc = subprocess.Popen([PYTHON, "-m", "arbiter.distributed", "audit", "--scheduler", cluster.address,
                             "--chunk-games", "10", "--in-flight", "16", str(big)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env(), start_new_session=True, bufsize=0)
    try:
        first = proc.stdout.read(4096)  # the run is under way: records are coming back (unbuffered:
        # communicate() below reads the pipe itself, so nothing may wait in a Python buffer)
        assert first
        victim = cluster.workers[0]
        assert proc.poll() is None, "the run ended before a worker could be killed (the input is too small)"
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=30)
        rest, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
        assert first + rest == want
    finally:
        stop(proc)
