"""Helpers shared by the watch tests (tests/watch/*.py)."""
import subprocess


def stop(proc, seconds=10):
    """Ends a process the test started: SIGTERM, then SIGKILL after `seconds`."""
    proc.terminate()
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
