// PGN throughput over the real-game corpus (../shared/data/pgn/real/*.pgn, concatenated with a
// blank line between files, held in memory so that the disk does not count):
//   BM_PgnTokenize  — the streaming reader with a visitor that ignores every token;
//   BM_PgnReplay    — GameReader: tags, legal SAN resolution and replay of every mainline move.
// Reported as bytes/s and games/s. bench/pgn_vs_pgn_extract.sh compares with pgn-extract.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "arbiter/pgn.hpp"
#include "arbiter/pgn_game.hpp"

namespace {

const std::string& corpus() {
    static const std::string text = [] {
        namespace fs = std::filesystem;
        std::string out;
        const char* env = std::getenv("ARBITER_PGN_BENCH_FILE");
        if (env) {
            std::ifstream in(env, std::ios::binary);
            return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        }
        const fs::path dir = ARBITER_SHARED_DATA "/pgn/real";
        if (!fs::is_directory(dir)) return out;
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".pgn") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            std::ifstream in(f, std::ios::binary);
            out.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
            out += "\n\n";
        }
        return out;
    }();
    return text;
}

struct Ignore : arbiter::pgn::Visitor {};

void BM_PgnTokenize(benchmark::State& state) {
    const std::string& text = corpus();
    if (text.empty()) {
        state.SkipWithError("no corpus: ../shared/data/pgn/real is missing");
        return;
    }
    std::uint64_t games = 0;
    for (auto _ : state) {
        auto src = arbiter::memory_input(text);
        arbiter::pgn::Reader reader(*src);
        Ignore v;
        games += reader.read_all(v);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
    state.counters["games/s"] = benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PgnTokenize)->Unit(benchmark::kMillisecond);

void BM_PgnReplay(benchmark::State& state) {
    const std::string& text = corpus();
    if (text.empty()) {
        state.SkipWithError("no corpus: ../shared/data/pgn/real is missing");
        return;
    }
    std::uint64_t games = 0, plies = 0;
    arbiter::pgn::ParsedGame game;
    for (auto _ : state) {
        auto src = arbiter::memory_input(text);
        arbiter::pgn::GameReader reader(*src);
        while (reader.next(game)) {
            ++games;
            plies += game.plies.size();
        }
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
    state.counters["games/s"] = benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
    state.counters["plies/s"] = benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PgnReplay)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
