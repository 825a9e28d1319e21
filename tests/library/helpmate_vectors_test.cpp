// A fast subset of the unwinnability test vectors that runs in every build, the sanitizer build
// included (it reads ../shared/data and skips without it): every 12th position, both sides,
// with a small node limit. No answer may be wrong and every certificate must replay.
#include <gtest/gtest.h>

#include <filesystem>

#include "helpmate_corpus.hpp"

using namespace arbiter;
using namespace arbiter::testing;

TEST(UnwinnabilityVectors, FastSubset) {
    const std::string path = unwinnable_dir() + "d3_test-vector.txt";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "corpus file not found: " << path;
    std::vector<Query> subset;
    const auto all = load_vectors(path);
    for (std::size_t i = 0; i < all.size(); i += 24) {
        subset.push_back(all[i]);
        subset.push_back(all[i + 1]);
    }
    HelpmateOptions options;
    options.node_limit = 100'000;
    const Tally t = run_queries(subset, HelpmateAnalyzer(options));
    t.print("test vector subset, node limit 100000");
    EXPECT_EQ(t.wrong, 0u);
    EXPECT_EQ(t.bad_certificates, 0u);
    EXPECT_GE(t.can + t.cannot, subset.size() * 8 / 10);
}
