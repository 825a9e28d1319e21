#!/usr/bin/env bash
# The README's quick start is the code that package.quickstart builds and runs: the ```cpp and
# ```cmake blocks under "Quick start (C++)" are tests/quickstart/main.cpp and CMakeLists.txt.
ROOT=$1
block() {  # block LANG: the first fenced block of LANG after the quick-start heading
  awk -v lang="$1" '/^## Quick start \(C\+\+\)/ { on = 1 } on && $0 == "```" lang { inside = 1; next }
       inside && $0 == "```" { exit } inside { print }' "$ROOT/README.md"
}
status=0
diff <(block cpp) "$ROOT/tests/quickstart/main.cpp" || { echo "README quick start (cpp) differs"; status=1; }
diff <(block cmake) "$ROOT/tests/quickstart/CMakeLists.txt" || { echo "README quick start (cmake) differs"; status=1; }
[ $status -eq 0 ] && echo "README quick start: ok"
exit $status
