// Perft over the shared corpora in ../shared/data/perft (ctest label `corpus`, one ctest test
// per file). Every position runs, at every published depth whose count fits a node budget:
// by default every fourth position with 50 million nodes (depth 5 for most positions) and the
// others with 5 million (depth 4 for most), which keeps the label near two minutes in a release
// build here (docs/performance.md); a billion for every position with ARBITER_CORPUS_FULL=1
// (`make corpus`: depth 6 for most), or ARBITER_CORPUS_NODES for every position.
// Skips cleanly when the shared data directory is absent.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "arbiter/arbiter.hpp"
#include "perft_data.hpp"

using namespace arbiter;

namespace {

const char* const corpus_files[] = {
    "ethereal_fischer960.epd", "ethereal_standard.epd", "pychess_chess960.perft",
    "pychess_random.perft",    "pychess_tricky.perft",  "sunfish_perftsuite.epd",
};

/// The node budget of the i-th position of a file.
std::uint64_t node_budget(std::size_t i) {
    const bool full = test::env_number("ARBITER_CORPUS_FULL", 0) != 0;
    if (full || std::getenv("ARBITER_CORPUS_NODES"))
        return test::env_number("ARBITER_CORPUS_NODES", full ? 1'000'000'000 : 50'000'000);
    return i % 4 == 0 ? 50'000'000 : 5'000'000;
}

std::string stem(const std::string& file) { return std::filesystem::path(file).stem().string(); }

}  // namespace

class CorpusPerft : public ::testing::TestWithParam<const char*> {};

TEST_P(CorpusPerft, EveryPosition) {
    const std::filesystem::path dir = std::filesystem::path(ARBITER_SHARED_DATA) / "perft";
    const std::filesystem::path path = dir / GetParam();
    if (!std::filesystem::exists(dir)) GTEST_SKIP() << "shared data not found: " << dir.string();
    ASSERT_TRUE(std::filesystem::exists(path)) << "missing corpus file " << path.string();

    std::string error;
    const auto suite = test::read_perft_file(path.string(), error);
    ASSERT_TRUE(error.empty()) << error;
    ASSERT_FALSE(suite.empty());

    FenReadOptions options;
    options.tolerant = true;  // EPD lines carry four fields
    std::uint64_t nodes = 0;
    int failures = 0;
    for (std::size_t i = 0; i < suite.size(); ++i) {
        const auto& e = suite[i];
        auto pos = position_from_fen(e.fen, options);
        if (!pos) {
            ADD_FAILURE() << e.id << ": " << e.fen << ": " << pos.error().describe();
            if (++failures > 20) break;
            continue;
        }
        for (auto [depth, expected] : test::within_budget(e, node_budget(i))) {
            const std::uint64_t got = perft(*pos, depth);
            nodes += got;
            if (got != expected) {
                ADD_FAILURE() << e.id << " depth " << depth << ": " << got << " nodes, published " << expected << "\n  "
                              << e.fen;
                if (++failures > 20) break;
            }
        }
    }
    RecordProperty("positions", static_cast<int>(suite.size()));
    std::cout << "[ corpus   ] " << GetParam() << ": " << suite.size() << " positions, " << nodes << " nodes (budget "
              << node_budget(0) << " for every fourth position, " << node_budget(1) << " for the others)\n";
}

INSTANTIATE_TEST_SUITE_P(Shared, CorpusPerft, ::testing::ValuesIn(corpus_files),
                         [](const auto& info) { return stem(info.param); });
