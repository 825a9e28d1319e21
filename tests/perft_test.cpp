// Perft on well-known positions whose node counts are published (chessprogramming.org).
#include <gtest/gtest.h>

#include "arbiter/arbiter.hpp"

using namespace arbiter;

namespace {
struct PerftCase {
    const char* name;
    const char* fen;
    int depth;
    std::uint64_t nodes;
};

const PerftCase cases[] = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4, 197281},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862},
    {"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624},
    {"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333},
    {"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379},
    {"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890},
};
}  // namespace

class Perft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(Perft, NodeCount) {
    const auto& c = GetParam();
    auto pos = position_from_fen(c.fen);
    ASSERT_TRUE(pos) << pos.error().describe();
    EXPECT_EQ(perft(*pos, c.depth), c.nodes);
}

INSTANTIATE_TEST_SUITE_P(Published, Perft, ::testing::ValuesIn(cases),
                         [](const auto& info) { return std::string(info.param.name); });
