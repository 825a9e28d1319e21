// Perft on the positions of tests/data/perft.txt, whose published node counts are written down
// there, plus the Chess960 start arrays and perft's edge cases.
#include <gtest/gtest.h>

#include <cctype>

#include "arbiter/arbiter.hpp"
#include "perft_data.hpp"

using namespace arbiter;

namespace {

// Every depth up to this many nodes runs; the suite stays well under a second in a release
// build and a few seconds under ASan.
constexpr std::uint64_t unit_budget = 4'000'000;

const std::vector<test::PerftEntry>& unit_suite() {
    static const auto suite = [] {
        std::string error;
        auto s = test::read_perft_file(ARBITER_TEST_DATA "/perft.txt", error);
        if (!error.empty()) ADD_FAILURE() << error;
        return s;
    }();
    return suite;
}

std::string test_name(const ::testing::TestParamInfo<test::PerftEntry>& info) {
    std::string n;
    for (char c : info.param.id) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return n;
}

Position read(const std::string& fen) {
    FenReadOptions options;
    options.tolerant = true;
    auto pos = position_from_fen(fen, options);
    EXPECT_TRUE(pos) << fen << ": " << pos.error().describe();
    return pos ? *pos : Position();
}

}  // namespace

TEST(PerftSuite, HasAtLeastThirtyPositions) {
    EXPECT_GE(unit_suite().size(), 30u);
    for (const auto& e : unit_suite()) EXPECT_FALSE(e.counts.empty()) << e.id;
}

class Perft : public ::testing::TestWithParam<test::PerftEntry> {};

TEST_P(Perft, PublishedCounts) {
    const auto& e = GetParam();
    const Position pos = read(e.fen);
    for (auto [depth, nodes] : test::within_budget(e, unit_budget))
        EXPECT_EQ(perft(pos, depth), nodes) << e.id << " depth " << depth << ": " << e.fen;
}

INSTANTIATE_TEST_SUITE_P(Published, Perft, ::testing::ValuesIn(unit_suite()), test_name);

TEST(Perft, DepthZeroIsOneNode) {
    EXPECT_EQ(perft(Position(), 0), 1u);
    EXPECT_EQ(perft(Position(), -3), 1u);
    EXPECT_TRUE(perft_divide(Position(), 0).empty());
}

TEST(Perft, DivideSumsToPerft) {
    const Position kiwipete = read("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const auto divide = perft_divide(kiwipete, 3);
    EXPECT_EQ(divide.size(), 48u);
    std::uint64_t total = 0;
    for (const auto& [move, nodes] : divide) {
        EXPECT_TRUE(kiwipete.is_legal(move));
        EXPECT_EQ(nodes, perft(kiwipete.after(move), 2));
        total += nodes;
    }
    EXPECT_EQ(total, 97862u);
}

TEST(Perft, Chess960StartArrays) {
    // Scharnagl numbering: 0 is BBQNNRKR, 518 the standard array, 959 RKRNNQBB.
    const struct {
        int number;
        const char* fen;
    } starts[] = {
        {0, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"},
        {518, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        {959, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1"},
    };
    for (const auto& s : starts) {
        const arbiter::Setup setup = arbiter::Setup::chess960_start(s.number);
        EXPECT_EQ(to_fen(setup, {.shredder = s.number != 518}), s.fen) << s.number;
        EXPECT_EQ(setup.chess960, s.number != 518);
        auto pos = Position::from_setup(setup);
        ASSERT_TRUE(pos) << s.number;
        EXPECT_EQ(perft(*pos, 3), perft(read(s.fen), 3));
    }
    // Every start array is legal, symmetric and has 4 castling rights.
    for (int n = 0; n < 960; ++n) {
        auto pos = Position::from_setup(arbiter::Setup::chess960_start(n));
        ASSERT_TRUE(pos) << n;
        EXPECT_EQ(pos->castling_rooks().count(), 4) << n;
        EXPECT_GE(count_legal_moves(*pos), 18u) << n;
    }
}
