"""Python's audit runs the face core's pipeline (issue 61): the records are the CLI's at any
number of threads, from paths, bytes and streams; closing or dropping a run stops the pipeline's
C++ threads; an exception of a Python source reaches the caller after the records before it; a
consumer that does not take its records holds the pipeline back (its counters say so)."""

import gc
import io
import json
import os
import time

import pytest

import arbiter
from conftest import run_cli

GAME = (b'[Event "x"]\n[Result "1/2-1/2"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 '
        b'5. Nf3 Nf6 6. Ng1 Ng8 1/2-1/2\n\n')


def tasks():
    """The threads of this process, C++ ones included."""
    return len(os.listdir("/proc/self/task"))


def settle(before, timeout=10.0):
    """The thread count once it is back to `before` (threads end a moment after join returns to
    the kernel's count), or what it is after `timeout`."""
    end = time.monotonic() + timeout
    while tasks() != before and time.monotonic() < end:
        time.sleep(0.01)
    return tasks()


@pytest.fixture(scope="module")
def corpus(fixtures, shared):
    files = [os.path.join(shared, "pgn", "real", f) for f in ("shakmaty_lichess_db_1000k.pgn", "scoutfish_chessdoctor.pgn")]
    if not all(os.path.exists(f) for f in files):
        pytest.skip("the real games of the shared corpora are absent")
    return files + [os.path.join(fixtures, "audit", "findings.pgn"), os.path.join(fixtures, "pgn", "features.pgn.zst")]


@pytest.mark.parametrize("threads", [1, 4])
def test_records_are_the_clis(cli, corpus, threads):
    rc, want, _ = run_cli(cli, "audit", "--format", "jsonl", "-q", "-j", str(threads), *corpus)
    assert rc == 0 and want.count(b"\n") > 100
    for chunk in (None, 1, 13):
        got = b"".join(arbiter.audit_lines(corpus, threads=threads, chunk_games=chunk))
        assert got == want, (threads, chunk)
    assert list(arbiter.audit(corpus, threads=threads)) == [json.loads(l) for l in want.splitlines()]
    # The same text as bytes and as streams (named "-", as standard input is).
    text = open(corpus[0], "rb").read()
    rc, want, _ = run_cli(cli, "audit", "-q", "-j", str(threads), "-", input=text)
    assert rc == 0
    sources = [text, io.BytesIO(text), io.StringIO(text.decode("utf-8", "surrogateescape"))]
    one = b"".join(arbiter.audit_lines(text, threads=threads))
    assert one == want
    got = b"".join(arbiter.audit_lines(sources, threads=threads, chunk_games=5))
    n = one.count(b"\n")
    lines = got.splitlines(keepends=True)
    assert len(lines) == 3 * n
    for k in range(3):
        part = [json.loads(l) for l in lines[k * n:(k + 1) * n]]
        assert [r["game"] for r in part] == list(range(k * n + 1, (k + 1) * n + 1))
        for r, w in zip(part, (json.loads(l) for l in one.splitlines())):
            assert {**r, "game": w["game"]} == w


def big(n=3000):
    return GAME * n


@pytest.mark.parametrize("how", ["close", "drop", "break"])
def test_an_early_end_stops_the_threads(how):
    before = tasks()
    run = arbiter.audit(big(), threads=4, chunk_games=1)
    first = next(run)
    assert first["game"] == 1
    assert tasks() >= before + 5  # the pipeline's thread and its 4 workers
    assert run._pipeline.run.stats()["running"]
    if how == "close":
        run.close()
        with pytest.raises(StopIteration):
            next(run)
    elif how == "drop":
        del run
        gc.collect()
    else:
        for record in run:
            if record["game"] == 10:
                break
        run.close()
    assert settle(before) == before


def test_close_stops_a_pipeline_waiting_for_a_stream(tmp_path):
    """A run closed while its stream is being read: the read finishes (the GIL is let go), the
    pipeline stops, its threads end, nothing deadlocks."""
    class Slow(io.RawIOBase):
        def __init__(self):
            self.n = 0

        def readable(self):
            return True

        def read(self, size=-1):
            self.n += 1
            time.sleep(0.01)
            return GAME * 20

    before = tasks()
    source = Slow()
    run = arbiter.audit_lines(source, threads=2)
    for _ in range(50):
        next(run)
    run.close()
    assert settle(before) == before
    reads = source.n
    time.sleep(0.1)
    assert source.n == reads  # no more reads once closed


class Fails(io.RawIOBase):
    """A stream that gives `good` games, then raises OSError."""

    def __init__(self, good):
        self.left = [GAME] * good

    def readable(self):
        return True

    def read(self, size=-1):
        if not self.left:
            raise OSError(28, "the disk is on fire")
        return self.left.pop()


@pytest.mark.parametrize("threads", [1, 3])
def test_an_exception_of_a_source_reaches_the_caller(threads):
    before = tasks()
    got = []
    with pytest.raises(OSError, match="the disk is on fire") as e:
        for record in arbiter.audit([GAME * 2, Fails(5), GAME], threads=threads, chunk_games=1):
            got.append(record["game"])
    assert e.value.errno == 28
    # The records of the inputs before it come first; a piece cut at a game boundary is whole.
    assert got[:2] == [1, 2] and set(got) <= set(range(1, 8))
    assert settle(before) == before

    def sources():
        yield GAME
        yield GAME
        raise ValueError("no third source")

    with pytest.raises(ValueError, match="no third source"):
        assert [r["game"] for r in arbiter.audit(sources(), threads=threads)] == [1, 2]
    got = []
    with pytest.raises(ValueError):
        for record in arbiter.audit(sources(), threads=threads):
            got.append(record["game"])
    assert got == [1, 2]
    # An item that is no input, in an iterable checked as it is read: TypeError naming source.
    got = []
    with pytest.raises(TypeError, match="^source: item 2 is a float"):
        for record in arbiter.audit(iter([GAME, 2.5]), threads=threads):
            got.append(record["game"])
    assert got == [1]
    assert settle(before) == before


def test_a_slow_consumer_keeps_the_pipeline_bounded():
    threads = 2
    run = arbiter.audit_lines(big(20000), threads=threads, chunk_games=1)
    next(run)
    stats = run._pipeline.run.stats
    # Wait (the counter, not a duration) until the pipeline has waited for this consumer.
    end = time.monotonic() + 60
    while stats()["consumer_waits"] == 0 and time.monotonic() < end:
        time.sleep(0.01)
    s = stats()
    assert s["consumer_waits"] >= 1
    assert s["records_waiting_peak"] <= s["records_limit"]
    assert s["batches_in_flight_peak"] <= s["batches_in_flight_limit"] == 3 * threads + 2
    # Read ahead of the consumer by a bounded amount: the queue's records and the batches in
    # flight, not the input.
    assert s["bytes_read"] < len(big(20000)) // 2
    taken = 1 + sum(1 for _ in run)
    assert taken == 20000
    s = stats()
    assert s["batches_in_flight_peak"] <= s["batches_in_flight_limit"]
    assert s["records_waiting_peak"] <= s["records_limit"] and not s["running"]


def test_read_errors_keep_their_place_and_policy(tmp_path):
    zip_ = tmp_path / "a.zip.pgn"
    zip_.write_bytes(b"PK\x03\x04" + bytes(60))
    inputs = [GAME * 3, str(zip_), str(tmp_path / "missing.pgn"), GAME]
    run = arbiter.audit(inputs, errors="collect", threads=3, chunk_games=1)
    assert [r["game"] for r in run] == [1, 2, 3, 4]
    assert [e.code for e in run.errors] == ["not_text", "cannot_open"]
    got = []
    with pytest.raises(arbiter.ReadError) as e:
        for r in arbiter.audit(inputs, threads=3, chunk_games=1):
            got.append(r["game"])
    assert got == [1, 2, 3] and e.value.code == "not_text" and e.value.field == str(zip_)
