"""Fixtures of the Python tests: the CLI to compare with (ARBITER_CLI), the shared corpora
(ARBITER_SHARED_DATA; the tests that need them skip when they are absent)."""

import json
import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("ARBITER_CLI", os.path.join(ROOT, "build", "arbiter"))
    if not os.path.exists(path):
        pytest.skip(f"the arbiter CLI is not at {path} (set ARBITER_CLI)")
    return path


@pytest.fixture(scope="session")
def shared():
    path = os.environ.get("ARBITER_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
    if not os.path.isdir(path):
        pytest.skip(f"the shared corpora are absent ({path})")
    return path


@pytest.fixture(scope="session")
def fixtures():
    return os.path.join(ROOT, "tests", "data")


def run_cli(cli, *args, input=None):
    """(exit status, stdout bytes, stderr text) of one CLI run."""
    r = subprocess.run([cli, *args], input=input, capture_output=True, timeout=300)
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def cli_json(cli, *args):
    rc, out, err = run_cli(cli, *args)
    assert rc == 0, (args, err)
    return json.loads(out)
