// Unwinnability benchmarks (docs/performance.md, "Unwinnability"): positions per second of the
// default analyzer in quick and full mode over the real timeout positions of
// ../shared/data/unwinnable (one thread), and the cost of single typical positions.
//
//   build/bench/arbiter_bench_unwinnability [--benchmark_filter=Timeouts]
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/arbiter.hpp"

using namespace arbiter;

namespace {

struct Query {
    Position pos;
    Color side;
};

/// "FEN gameid" lines; the side asked is the one that just moved.
std::vector<Query> load(const std::string& file) {
    std::vector<Query> out;
    std::ifstream in(std::string(ARBITER_SHARED_DATA) + "/unwinnable/" + file);
    std::string line;
    FenReadOptions options;
    options.tolerant = true;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string f[6];
        for (auto& x : f) fields >> x;
        auto pos = position_from_fen(f[0] + ' ' + f[1] + ' ' + f[2] + ' ' + f[3] + ' ' + f[4] + ' ' + f[5], options);
        if (pos) out.push_back({*pos, f[1] == "w" ? Color::black : Color::white});
    }
    return out;
}

void timeouts(benchmark::State& state, const char* file, HelpmateOptions::Mode mode) {
    static std::vector<Query> lichess = load("d3_lichess-30K-games.txt");
    static std::vector<Query> unfair = load("d3_unfair_2022-05.txt");
    const auto& queries = std::string(file) == "lichess" ? lichess : unfair;
    if (queries.empty()) {
        state.SkipWithError("corpus not found under ../shared/data/unwinnable");
        return;
    }
    HelpmateOptions options;
    options.mode = mode;
    const HelpmateAnalyzer analyzer(options);
    std::int64_t decided = 0;
    for (auto _ : state)
        for (const Query& q : queries) {
            const MateVerdict v = analyzer.can_checkmate(q.pos, q.side);
            decided += v.answer != MateAbility::unknown;
            benchmark::DoNotOptimize(v);
        }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(queries.size()));
    state.counters["decided"] =
        benchmark::Counter(static_cast<double>(decided) / static_cast<double>(state.iterations()));
}

void single(benchmark::State& state, const char* fen, Color side, HelpmateOptions::Mode mode) {
    FenReadOptions fo;
    fo.tolerant = true;
    const Position pos = *position_from_fen(fen, fo);
    HelpmateOptions options;
    options.mode = mode;
    const HelpmateAnalyzer analyzer(options);
    for (auto _ : state) benchmark::DoNotOptimize(analyzer.can_checkmate(pos, side));
    state.SetItemsProcessed(state.iterations());
}

constexpr auto quick = HelpmateOptions::Mode::quick;
constexpr auto full = HelpmateOptions::Mode::full;

}  // namespace

BENCHMARK_CAPTURE(timeouts, lichess_quick, "lichess", quick)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(timeouts, lichess_full, "lichess", full)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(timeouts, unfair_quick, "unfair", quick)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(timeouts, unfair_full, "unfair", full)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(single, middlegame_quick, "r1bqk2r/2p1bppp/p1pp1n2/4p3/4P3/3PBN1P/PPPN1PP1/R2QK2R b KQkq - 4 8",
                  Color::white, quick);
BENCHMARK_CAPTURE(single, rook_ending_full, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Color::white, full);
BENCHMARK_CAPTURE(single, blocked_wall_full, "8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1", Color::white, full);
BENCHMARK_CAPTURE(single, bare_king_full, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Color::black, full);

BENCHMARK_MAIN();
