"""Builds the extension arbiter._arbiter with the project's CMake (the target arbiter_python)
for `pip install --no-build-isolation .` (pyproject.toml holds the metadata).

The CMake tree is build-python/cmake under the source tree, or the tree named by the environment
variable ARBITER_BUILD_DIR (an existing `make build` tree, configured with -DARBITER_PYTHON=ON:
only arbiter_python is brought up to date there). ARBITER_JOBS sets the build's parallel jobs."""

import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version() -> str:
    """The version written once, in CMakeLists.txt's project() (arbiter --version prints it)."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(arbiter\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("CMakeLists.txt: no project(arbiter VERSION x.y.z)")
    return m.group(1)


def run(cmd):
    print("setup.py:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


class CMakeBuild(build_ext):
    """build_ext for one extension built by CMake: configure (unless ARBITER_BUILD_DIR is an
    existing tree), build arbiter_python, copy the module where setuptools packs it."""

    def build_extension(self, ext):
        if shutil.which("cmake") is None:
            raise RuntimeError("building arbiter needs cmake (Debian: apt-get install cmake ninja-build g++)")
        tree = os.environ.get("ARBITER_BUILD_DIR")
        if tree:
            tree = os.path.abspath(tree)
            if not os.path.isfile(os.path.join(tree, "CMakeCache.txt")):
                raise RuntimeError(f"ARBITER_BUILD_DIR={tree} is not a configured CMake tree")
        else:
            tree = os.path.join(ROOT, "build-python", "cmake")
            configure = ["cmake", "-S", ROOT, "-B", tree, "-DCMAKE_BUILD_TYPE=Release", "-DARBITER_PYTHON=ON",
                         f"-DARBITER_PYTHON_EXECUTABLE={sys.executable}", "-DARBITER_BUILD_TESTS=OFF",
                         "-DARBITER_BUILD_BENCH=OFF", "-DARBITER_INSTALL=OFF"]
            if shutil.which("ninja") and not os.path.exists(os.path.join(tree, "CMakeCache.txt")):
                configure += ["-G", "Ninja"]
            run(configure)
        jobs = os.environ.get("ARBITER_JOBS") or str(os.cpu_count() or 1)
        run(["cmake", "--build", tree, "--target", "arbiter_python", "-j", jobs])
        built = os.path.join(tree, "python", "arbiter")
        modules = [f for f in os.listdir(built) if f.startswith("_arbiter") and f.endswith(".so")]
        if len(modules) != 1:
            raise RuntimeError(f"expected one _arbiter*.so in {built}, found {modules}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, modules[0]), target)


setup(
    version=project_version(),
    ext_modules=[Extension("arbiter._arbiter", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": os.path.join("build-python", "setuptools")}},
)
