// The C++ side of the Python binding's per-call overhead (docs/performance.md, issue 14): a
// 40-ply game played move by move from SAN text, with the draw status as `status --json` builds
// it (DrawStatus and its JSON) after every move — what `Game.push(san)` + `Game.status()` do in
// Python, without the interpreter. bench/python_overhead.py times the same loop in Python.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "json/rules_json.hpp"

namespace {

const std::vector<std::string> game = {"e4",  "e5", "Nf3",  "Nc6",  "Bb5",  "a6",   "Ba4", "Nf6", "O-O", "Be7",
                                       "Re1", "b5", "Bb3",  "d6",   "c3",   "O-O",  "h3",  "Nb8", "d4",  "Nbd7",
                                       "c4",  "c6", "cxb5", "axb5", "Nc3",  "Bb7",  "Bg5", "b4",  "Nb1", "h6",
                                       "Bh4", "c5", "dxe5", "Nxe5", "Nxe5", "dxe5", "Nd2", "Qd4", "Qc2", "Rfd8"};

void BM_PushAndStatusJson(benchmark::State& state) {
    for (auto _ : state) {
        arbiter::GameRecord record;
        for (const auto& san : game) {
            if (record.play(std::string_view(san))) state.SkipWithError("illegal move");
            auto j = arbiter::face::to_json(arbiter::draw_status(record), record);
            benchmark::DoNotOptimize(j);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(game.size()));
}
BENCHMARK(BM_PushAndStatusJson)->Unit(benchmark::kMicrosecond);

void BM_PushOnly(benchmark::State& state) {
    for (auto _ : state) {
        arbiter::GameRecord record;
        for (const auto& san : game)
            if (record.play(std::string_view(san))) state.SkipWithError("illegal move");
        benchmark::DoNotOptimize(record);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(game.size()));
}
BENCHMARK(BM_PushOnly)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
