"""The distributed audit's client reaching its Dask cluster (arbiter.distributed): a scheduler's
address checked, a local cluster started, and Dask's version report made without importing the
optional packages. Also the two errors of the client."""

from __future__ import annotations

import os
import socket
import sys


class UsageError(Exception):
    """Bad usage or input: the client exits 2 with the message."""


class TaskFailed(Exception):
    """A task failed on a worker: the client exits 2 naming its input and bytes."""


def versions_from_metadata():
    """Dask's client registers with the scheduler giving the versions of its packages, and to
    learn those of the optional ones (numpy, pandas, lz4) it imports each: pandas alone takes
    0.2 s, a twentieth of a run on a small cluster, for a version string. This gives the same
    report, reading the version of an optional package not imported yet from its installed
    metadata instead (None when it is not installed, as Dask reports it)."""
    import importlib.metadata
    from itertools import chain

    from distributed import versions

    def get_versions(packages=None):
        optional = [name for name, _ in versions.optional_packages]
        loaded = [p for p in versions.optional_packages if p[0] in sys.modules]
        report = {"host": versions.get_system_info(),
                  "packages": versions.get_package_info(chain(versions.required_packages, loaded, packages or []))}
        for name in optional:
            if name not in report["packages"]:
                try:
                    report["packages"][name] = importlib.metadata.version(name)
                except importlib.metadata.PackageNotFoundError:
                    report["packages"][name] = None
        return report

    return get_versions


def connect(scheduler: str, timeout: float):
    """(client, cluster): a client of the scheduler at tcp://HOST:PORT (cluster None), or of a
    local cluster of N worker processes for local[:N]. UsageError when it cannot be reached."""
    from distributed import Client, LocalCluster
    from distributed import versions

    # Only in the client's process (the workers import this module too, and keep Dask's own).
    versions.get_versions = versions_from_metadata()

    if scheduler == "local" or scheduler.startswith("local:"):
        n = scheduler.partition(":")[2] or str(os.cpu_count() or 1)
        if not n.isdigit() or int(n) < 1:
            raise UsageError(f"--scheduler {scheduler}: expected local or local:N with N >= 1 workers")
        import dask

        # As docs/distributed.md recommends for a cluster: the event loop's tick every second
        # (20 ms by default, most of an idle process's CPU) and no statistical profiler.
        with dask.config.set({"distributed.admin.tick.interval": "1s", "distributed.worker.profile.enabled": False}):
            cluster = LocalCluster(n_workers=int(n), threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=None)
        return Client(cluster, direct_to_workers=True), cluster
    host, port = scheduler_address(scheduler)
    # A refused connection answers at once: Dask's client would retry until its timeout.
    try:
        socket.create_connection((host, port), timeout=min(timeout, 5.0)).close()
    except ConnectionRefusedError:
        raise UsageError(f"--scheduler {scheduler}: connection refused (is dask-scheduler running there?)") from None
    except OSError:
        pass  # unreachable or slow: Dask's client tries for the whole timeout and says why
    try:
        # Answers come straight from the workers, not through the scheduler.
        return Client(scheduler, timeout=timeout, direct_to_workers=True), None
    except (OSError, TimeoutError) as e:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s: {e}") from None


def scheduler_address(scheduler: str):
    """(host, port) of a tcp://HOST:PORT address, or UsageError naming what is wrong with it."""
    expected = "expected tcp://HOST:PORT (a dask-scheduler's address) or local[:N]"
    scheme, sep, rest = scheduler.partition("://")
    if not sep:
        raise UsageError(f"--scheduler {scheduler!r}: {expected}")
    if scheme != "tcp":
        raise UsageError(f"--scheduler {scheduler!r}: the scheme is {scheme!r}, not tcp: {expected}")
    host, colon, port = rest.rpartition(":")
    if "/" in rest:
        raise UsageError(f"--scheduler {scheduler!r}: an address takes no path: {expected}")
    if not colon:
        raise UsageError(f"--scheduler {scheduler!r}: no port: {expected}")
    if not host:
        raise UsageError(f"--scheduler {scheduler!r}: no host: {expected}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UsageError(f"--scheduler {scheduler!r}: the port {port!r} is not a number from 1 to 65535")
    return host.strip("[]"), int(port)
