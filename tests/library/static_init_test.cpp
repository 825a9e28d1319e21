// Positions built during static initialisation, before main: the attack tables and Zobrist keys
// must already be usable then (regression test: this used to crash, because the library's
// tables were filled by an ordinary static initialiser that ran after the program's own).
#include <gtest/gtest.h>

#include "arbiter/arbiter.hpp"

namespace {
const arbiter::Position early_start;
const std::uint64_t early_moves = arbiter::count_legal_moves(early_start);
const auto early_kiwipete =
    arbiter::position_from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
}  // namespace

TEST(StaticInitialisation, PositionsBuiltBeforeMainWork) {
    EXPECT_EQ(early_moves, 20u);
    EXPECT_EQ(early_start.key(), early_start.compute_key());
    EXPECT_EQ(early_start.key(), arbiter::Position().key());
    ASSERT_TRUE(early_kiwipete);
    EXPECT_EQ(arbiter::perft(*early_kiwipete, 2), 2039u);
}
