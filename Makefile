# Top-level entry points. `make demo` and `make test` do all the set-up on a fresh Debian 12
# machine (as root, or with sudo): they install the Debian packages they need when missing,
# configure, build and run.
SHELL := /bin/bash
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

# Debian packages: toolchain, test and benchmark frameworks, libraries.
PACKAGES := g++ cmake ninja-build libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev \
            nlohmann-json3-dev pkgconf libzstd-dev zlib1g-dev libbz2-dev libsqlite3-dev zstd python3 \
            pybind11-dev python3-dev python3-pytest python3-distributed libcpp-httplib-dev curl \
            python3-venv python3-pip python3-setuptools python3-wheel python3-pandas git \
            libssl-dev openssl ca-certificates libcurl4-openssl-dev gettext
BENCH_PACKAGES := stockfish pgn-extract hyperfine

.PHONY: all deps release bench-audit bench-python bench-deps browser-deps wasm-deps wasm test-wasm bench-wasm bench-serve bench-watch bench-distributed build python install build-asan test test-release test-asan demo corpus bench bench-pgn bench-unwinnable fuzz-deps fuzz-build \
        fuzz fuzz-pgn format format-check clean po

all: build

deps:
	@bash scripts/ensure-packages.sh $(PACKAGES)

bench-deps: deps
	@bash scripts/ensure-packages.sh $(BENCH_PACKAGES)

# Every build has the Python package (build/python/arbiter, docs/python.md); a tree configured
# before it existed gets it turned on here.
PYTHON_ON = grep -q '^ARBITER_PYTHON:BOOL=ON' $(1)/CMakeCache.txt || cmake -S . -B $(1) -DARBITER_PYTHON=ON >/dev/null

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DARBITER_PYTHON=ON $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	@$(call PYTHON_ON,$(BUILD))
	cmake --build $(BUILD) -j $(JOBS)

# The Python package alone: afterwards `PYTHONPATH=$(BUILD)/python /usr/bin/python3 -c 'import arbiter'`.
python: deps $(BUILD)/build.ninja
	@$(call PYTHON_ON,$(BUILD))
	cmake --build $(BUILD) -j $(JOBS) --target arbiter_python arbiter_cli

# The tool, the library (headers, CMake package), the bash completion and the Python package
# (lib/python3.X/dist-packages/arbiter: on Debian's sys.path for /usr/local) under PREFIX (DESTDIR too).
# In a virtual environment, `pip install --no-build-isolation .` instead (docs/python.md).
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The profile-guided release build (scripts/pgo-build.sh, docs/performance.md): the tool and the
# Python package, compiled with the profile of an audit of made-up games (tools/pgo_games.cpp);
# about 10 % faster than $(BUILD) on the audit. Install it with `cmake --install $(RELEASE_BUILD)`.
RELEASE_BUILD ?= build-release
release: deps
	bash scripts/pgo-build.sh $(RELEASE_BUILD) -DARBITER_BUILD_TESTS=OFF -DARBITER_BUILD_BENCH=OFF \
	  -DARBITER_PYTHON=ON $(CMAKE_FLAGS)

# The message catalogs (docs/i18n.md): po/arbiter.pot extracted from the message table
# (src/messages.cpp) and merged into each po/LANG.po of po/LINGUAS; new messages arrive
# untranslated, and `make test` fails (i18n.catalogs) until they are translated.
po: deps
	bash scripts/update-po.sh

# -O1 -g1: line tables are all a sanitizer report needs, and the build takes about 40 % less
# time than with -O2 -g (README, Tests and benchmarks).
$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
	  -DARBITER_SANITIZE=address,undefined -DARBITER_BUILD_BENCH=OFF -DARBITER_PYTHON=ON $(CMAKE_FLAGS)

build-asan: deps $(ASAN_BUILD)/build.ninja
	@$(call PYTHON_ON,$(ASAN_BUILD))
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# The whole suite in the release build (corpus label included; it skips cleanly without
# ../shared/data), then everything but the corpus label under ASan + UBSan (and but the
# add_subdirectory consumer, which builds the library again with its own flags, not the
# sanitizers': the same test as in the release pass).
test: test-release test-asan test-wasm

test-release: build browser-deps
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The browser test of the console (tests/browser/): Debian chromium, Node.js and npm (unless a
# node is already there), and playwright-core from npm in $(BUILD)/browser-deps.
PLAYWRIGHT_VERSION := 1.65.1
browser-deps:
	@bash scripts/ensure-packages.sh chromium
	@command -v npm >/dev/null || bash scripts/ensure-packages.sh nodejs npm
	@test -f $(BUILD)/browser-deps/node_modules/playwright-core/package.json || \
	  npm install --prefix $(BUILD)/browser-deps --no-audit --no-fund --silent playwright-core@$(PLAYWRIGHT_VERSION)

test-asan: build-asan
	@$(MAKE) --no-print-directory browser-deps BUILD=$(ASAN_BUILD)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -LE corpus -E '^package\.add_subdirectory$$'

# The WebAssembly build of the library and the JavaScript package (wasm/CMakeLists.txt,
# docs/javascript.md): Debian's Emscripten 3.1.6, configured with emcmake, into $(WASM_BUILD)/js
# and $(WASM_BUILD)/claim-checker.html. Its tests run under Node.js (wasm.smoke, wasm.js: the same
# JSON as the native CLI of $(BUILD)) and in headless Chromium (wasm.browser).
WASM_BUILD ?= build-wasm
wasm-deps:
	@bash scripts/ensure-packages.sh emscripten

$(WASM_BUILD)/build.ninja:
	emcmake cmake -S wasm -B $(WASM_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DARBITER_CLI=$(abspath $(BUILD))/arbiter -DARBITER_BROWSER_DEPS=$(abspath $(BUILD))/browser-deps

wasm: wasm-deps
	@$(MAKE) --no-print-directory $(WASM_BUILD)/build.ninja
	cmake --build $(WASM_BUILD) -j $(JOBS)

test-wasm: wasm build browser-deps
	cd $(WASM_BUILD) && ctest --output-on-failure

# The JavaScript package against chess.js (from npm, into $(WASM_BUILD)/bench-deps) in one Node.js
# process, and against the native CLI on the same work (bench/wasm/wasm_bench.mjs; the figures in
# docs/performance.md); then arbiter-chess/compat against chess.js in a chess.js-style loop
# (wasm/bench/compat_bench.mjs, docs/javascript.md), and the live-game pool past its size and one
# game of a large PGN (wasm/bench/pool_bench.mjs). Needs the shared corpora (../shared/data).
CHESSJS_VERSION := 1.4.0
bench-wasm: wasm build
	@test -d ../shared/data/pgn/real || { echo "bench-wasm: ../shared/data/pgn/real is absent" >&2; exit 1; }
	@test -f $(WASM_BUILD)/bench-deps/node_modules/chess.js/package.json || \
	  npm install --prefix $(WASM_BUILD)/bench-deps --no-audit --no-fund --silent chess.js@$(CHESSJS_VERSION)
	node bench/wasm/wasm_bench.mjs $(WASM_BUILD)/js $(WASM_BUILD)/bench-deps $(BUILD)/arbiter ../shared/data 3
	node wasm/bench/compat_bench.mjs $(WASM_BUILD)/js $(WASM_BUILD)/bench-deps ../shared/data 5
	node wasm/bench/pool_bench.mjs $(WASM_BUILD)/js ../shared/data 5

# The Python package against python-chess (../shared/peers/python-chess) in one process: push +
# status against push_san + outcome(claim_draw=True), and a database scan (bench/python_vs_python_chess.py;
# the figures in docs/performance.md); then a python-chess-style loop (push + can_claim_threefold_repetition
# + is_game_over) on arbiter.compat.Board against chess.Board (bench/python_chess_loop.py; issue 63, goal ≥ 3×).
# Needs the shared corpora and the peer.
bench-python: build
	@test -d ../shared/data/pgn/real || { echo "bench-python: ../shared/data/pgn/real is absent" >&2; exit 1; }
	@test -d ../shared/peers/python-chess/chess || { echo "bench-python: ../shared/peers/python-chess is absent" >&2; exit 1; }
	PYTHONPATH=$(BUILD)/python:../shared/peers/python-chess /usr/bin/python3 bench/python_vs_python_chess.py ../shared/data/pgn/real 600 2
	PYTHONPATH=$(BUILD)/python:../shared/peers/python-chess /usr/bin/python3 bench/python_chess_loop.py ../shared/data/pgn/real 600 3

# `arbiter watch` on 1,000 boards rewritten every second (bench/watch_bench.py), then over one
# streaming connection and over 1,000 polled https URLs on loopback (bench/watch_net_bench.py):
# CPU share, alert latency p50/p99 (docs/performance.md).
# The distributed audit against arbiter audit (issue 30): 500 MB in 5 files, plain and as pzstd frames.
bench-distributed: build
	BENCH_ZSTD=1 bash bench/distributed_vs_cli.sh $(BUILD)

bench-watch: build
	/usr/bin/python3 bench/watch_bench.py $(BUILD)/arbiter ../shared/data 60 500 50
	/usr/bin/python3 bench/watch_bench.py $(BUILD)/arbiter ../shared/data 60 500 1000
	/usr/bin/python3 bench/watch_net_bench.py $(BUILD)/arbiter ../shared/data stream 60 500 50
	/usr/bin/python3 bench/watch_net_bench.py $(BUILD)/arbiter ../shared/data https 60 1000 50
	/usr/bin/python3 bench/watch_net_bench.py $(BUILD)/arbiter ../shared/data https 60 500 50

# `arbiter serve` under wrk on loopback: 500 sessions, 500 connections posting events and reading
# states, then 500 SSE listeners held; journaled events/s, latency, RSS (docs/performance.md).
bench-serve: build
	@bash scripts/ensure-packages.sh wrk curl python3
	bash bench/serve_bench.sh $(BUILD)/arbiter

# Exhaustive corpus runs (deeper perft, every vector): longer than make test allows.
corpus: build
	cd $(BUILD) && ARBITER_CORPUS_FULL=1 ctest --output-on-failure -L corpus

demo: build
	@bash scripts/demo.sh $(BUILD)/arbiter

bench: bench-deps build
	bash bench/perft_vs_stockfish.sh $(BUILD)/arbiter

# PGN reading throughput against pgn-extract on the real-game corpus (docs/pgn.md).
bench-pgn: bench-deps build
	bash bench/pgn_vs_pgn_extract.sh $(BUILD)

# The audit against its peers (bench/audit_vs_peers.sh; issue 48): --threads 1 against
# chess-library's bare replay, --threads 2 against pgn-extract and against --threads 1, alternating,
# the median and the best of AUDIT_ROUNDS rounds, their ratios, peak RSS; skips when ../shared is
# absent.
AUDIT_ROUNDS ?= 5
bench-audit: bench-deps release
	bash bench/audit_vs_peers.sh $(RELEASE_BUILD)/arbiter $(AUDIT_ROUNDS)

# Unwinnability against chasolver 3.0 (built offline from ../shared/peers/chasolver): both full
# searches and both fast checks on the Lichess sets, the D3 vectors, the real sample (every 10th
# ply of the real PGN corpora), `held` (the plies halfway between, tuned on by nothing) and the
# generated composed sets (boxed, walls, chains, walled, rows, door: bench/composed_unwinnable.py;
# locked, locked-free: bench/locked_unwinnable.py),
# same core, same run, alternating; ratios, unknowns, worst question, peak RSS, answers the two
# disagree on (docs/performance.md). Skips with a message when ../shared is absent.
# UNWINNABLE_ROUNDS, UNWINNABLE_CORE, UNWINNABLE_SETS narrow it.
UNWINNABLE_ROUNDS ?= 3
UNWINNABLE_CORE ?= 1
UNWINNABLE_SETS ?= lichess,unfair,vectors,sample,held,boxed,walls,chains,walled,rows,door,locked,locked-free
bench-unwinnable: build
	@if [ ! -d ../shared/peers/chasolver ] || [ ! -d ../shared/data/unwinnable ]; then \
	  echo "bench-unwinnable: ../shared (chasolver and the unwinnability data) is absent; skipped"; exit 0; fi; \
	[ -x $(BUILD)/chasolver/chasbench ] || bash ../shared/peers/chasolver/build.sh $(abspath $(BUILD))/chasolver || exit 1; \
	/usr/bin/python3 bench/unwinnability_vs_chasolver.py $(BUILD)/arbiter $(BUILD)/chasolver/chasbench \
	  --rounds $(UNWINNABLE_ROUNDS) --core $(UNWINNABLE_CORE) --sets $(UNWINNABLE_SETS)

# libFuzzer (clang, ASan + UBSan; docs/robustness.md): builds build-fuzz/ and runs each of
# FUZZ_TARGETS for FUZZ_SECONDS on a copy of its seed corpus; fails when any target finds a crash,
# a sanitizer report or a broken invariant (the input is kept in build-fuzz/artifacts/).
FUZZ_PACKAGES := clang libclang-rt-dev
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= fen san pgn session journal

fuzz-deps: deps
	@bash scripts/ensure-packages.sh $(FUZZ_PACKAGES)

$(FUZZ_BUILD)/build.ninja:
	CXX=clang++ CC=clang cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARBITER_FUZZ=ON \
	  -DARBITER_SANITIZE=address,undefined -DARBITER_BUILD_TESTS=OFF -DARBITER_BUILD_BENCH=OFF \
	  -DARBITER_BUILD_TOOLS=OFF -DARBITER_INSTALL=OFF

fuzz-build: fuzz-deps $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS)

fuzz: fuzz-build
	bash scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The PGN target alone (kept from before `make fuzz` covered every target).
fuzz-pgn:
	$(MAKE) fuzz FUZZ_TARGETS=pgn

# clang-format (Debian clang-format) with the checked-in .clang-format; format-check fails on any difference.
format:
	@bash scripts/ensure-packages.sh clang-format
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

format-check:
	@bash scripts/ensure-packages.sh clang-format
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
