"""The audit through the binding, without Dask: an input cut into pieces (arbiter.pieces) and each
piece audited with _arbiter.audit_piece in this one process, as a Dask worker does; prints the CPU
time of the audit against `arbiter audit --threads 1` on the same input (docs/performance.md).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_piece_audit.py build/arbiter INPUT.pgn [PIECE_BYTES]
"""
import os
import resource
import subprocess
import sys
import time

import arbiter
from arbiter import _arbiter


def main():
    cli, path = sys.argv[1], sys.argv[2]
    piece_bytes = int(sys.argv[3]) if len(sys.argv) > 3 else 4 << 20
    _arbiter.reuse_memory()
    t = time.process_time()
    pieces = [p for _, p, _ in arbiter.pieces([path], None, piece_bytes)]
    cut = time.process_time() - t
    t = time.process_time()
    games = 0
    for p in pieces:
        text, n, _ = _arbiter.audit_piece(p.text, p.file, p.first_line, p.first_offset, p.ends_at_boundary, "auto",
                                          None, False, None, [], [])
        games += n
    audit = time.process_time() - t
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.devnull, "wb") as null:
        subprocess.run([cli, "audit", "-q", "--threads", "1", path], stdout=null, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cli_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"{os.path.getsize(path)} bytes, {len(pieces)} pieces of {piece_bytes} bytes, {games} games: "
          f"cutting {cut:.2f} s, the binding's audit {audit:.2f} s of CPU; arbiter audit --threads 1 {cli_cpu:.2f} s")


if __name__ == "__main__":
    main()
