// The slider tables (magic or PEXT) and the line/between tables against a square-by-square walk:
// every square, every subset of a slider's relevant squares and random full boards.
#include <gtest/gtest.h>

#include "arbiter/attacks.hpp"

namespace arbiter {
namespace {

std::uint64_t walk(int sq, std::uint64_t occupied, bool rook) {
    static constexpr int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static constexpr int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    std::uint64_t r = 0;
    for (const auto& d : rook ? rook_dirs : bishop_dirs) {
        for (int f = (sq & 7) + d[0], rk = (sq >> 3) + d[1]; f >= 0 && f < 8 && rk >= 0 && rk < 8;
             f += d[0], rk += d[1]) {
            const std::uint64_t b = std::uint64_t{1} << (rk * 8 + f);
            r |= b;
            if (occupied & b) break;
        }
    }
    return r;
}

TEST(AttackTables, SlidersMatchAWalkOnEveryOccupancyOfTheirSquares) {
    for (int sq = 0; sq < 64; ++sq) {
        const Square s = square_at(sq);
        for (bool rook : {true, false}) {
            // Every subset of the squares it reaches on an empty board (at most 2^14).
            const std::uint64_t mask = walk(sq, 0, rook);
            std::uint64_t subset = 0;
            do {
                const Bitboard got = rook ? rook_attacks(s, Bitboard(subset)) : bishop_attacks(s, Bitboard(subset));
                ASSERT_EQ(got.bits, walk(sq, subset, rook)) << sq << (rook ? " rook " : " bishop ") << subset;
                subset = (subset - mask) & mask;
            } while (subset);
        }
    }
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 20'000; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const int sq = static_cast<int>(x % 64);
        const std::uint64_t occ = x * 0x2545F4914F6CDD1DULL;
        ASSERT_EQ(rook_attacks(square_at(sq), Bitboard(occ)).bits, walk(sq, occ, true));
        ASSERT_EQ(bishop_attacks(square_at(sq), Bitboard(occ)).bits, walk(sq, occ, false));
    }
}

TEST(AttackTables, BetweenAndLineFollowTheWalk) {
    for (int a = 0; a < 64; ++a)
        for (int b = 0; b < 64; ++b) {
            if (a == b) continue;
            const std::uint64_t bb = std::uint64_t{1} << b, ab = std::uint64_t{1} << a;
            std::uint64_t want_between = 0, want_line = 0;
            for (bool rook : {true, false})
                if (walk(a, 0, rook) & bb) {
                    want_between = walk(a, bb, rook) & walk(b, ab, rook);
                    want_line = (walk(a, 0, rook) & walk(b, 0, rook)) | ab | bb;
                }
            EXPECT_EQ(between(square_at(a), square_at(b)).bits, want_between) << a << ' ' << b;
            EXPECT_EQ(line(square_at(a), square_at(b)).bits, want_line) << a << ' ' << b;
        }
}

}  // namespace
}  // namespace arbiter
