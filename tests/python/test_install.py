"""`pip install .` (issue 33.1): a clean copy of the tree (the files git knows, as they are in the
work tree) installed into a fresh virtual environment made with --system-site-packages, offline
and without build isolation, then imported from outside the tree and called.

The extension is taken from the build tree ctest runs in (ARBITER_BUILD_DIR: setup.py brings the
target arbiter_python up to date there instead of configuring a new tree), which keeps the test
short; docs/python.md gives the commands of the full build from scratch."""

import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli


def clean_copy(dest):
    """The files of the tree that git tracks or would (untracked, not ignored): no build output."""
    if not os.path.isdir(os.path.join(ROOT, ".git")) and not os.path.isfile(os.path.join(ROOT, ".git")):
        pytest.skip("not a git checkout: no list of the tree's files")
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True).stdout
    for rel in filter(None, listed.decode().split("\0")):
        src = os.path.join(ROOT, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))


def test_pip_install_from_a_clean_copy_into_a_venv(cli, tmp_path):
    build = os.environ.get("ARBITER_BUILD_DIR")
    if not build:
        pytest.skip("ARBITER_BUILD_DIR (the build tree to take the extension from) is not set")
    tree = tmp_path / "arbiter"
    clean_copy(str(tree))
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_PRELOAD")}
    env["ARBITER_BUILD_DIR"] = build
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", "-q", "."],
                         cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    code = ("import arbiter, os; g = arbiter.Game(moves='1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8'); "
            "print(arbiter.__version__, g.can_claim_threefold_repetition(), os.path.dirname(arbiter.__file__)); "
            "d = os.path.dirname(arbiter.__file__); "
            "print(sorted(f for f in os.listdir(d) if f.endswith(('.pyi', '.typed'))))")
    run = subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    first, files = run.stdout.splitlines()
    version, claim, where = first.split(" ", 2)
    rc, out, _ = run_cli(cli, "--version")
    assert version in out.decode() and claim == "True"
    assert where.startswith(str(venv)), where
    assert files == "['__init__.pyi', '_arbiter.pyi', 'py.typed']"
    # The metadata pip show prints (issue 47): the licence as its name, not the licence's text.
    show = subprocess.run([str(venv / "bin" / "pip"), "show", "arbiter"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    fields = dict(line.split(": ", 1) for line in show.stdout.splitlines() if ": " in line)
    assert fields.get("License") == "MIT" and fields.get("Summary", "").startswith("The draw rules"), show.stdout


def test_make_install_puts_the_package_under_the_prefix(cli, tmp_path):
    """The install rules of `make install` (cmake --install) for the package, run on their own
    (python/cmake_install.cmake) with another prefix: the package imports from there."""
    build = os.environ.get("ARBITER_BUILD_DIR")
    if not build:
        pytest.skip("ARBITER_BUILD_DIR (the build tree) is not set")
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", f"-DCMAKE_INSTALL_PREFIX={prefix}", "-P",
                    os.path.join(build, "python", "cmake_install.cmake")], check=True, capture_output=True)
    site = [os.path.join(root) for root, dirs, _ in os.walk(prefix) if "arbiter" in dirs]
    assert len(site) == 1 and site[0].endswith(("dist-packages", "site-packages")), site
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD",)}
    env["PYTHONPATH"] = site[0]
    run = subprocess.run(["/usr/bin/python3", "-c", "import arbiter; print(arbiter.__version__, arbiter.__file__)"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    version, where = run.stdout.split()
    assert where.startswith(site[0]) and version in run_cli(cli, "--version")[1].decode()
