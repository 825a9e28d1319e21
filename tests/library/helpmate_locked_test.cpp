// helpmate_locked_test.cpp — locked boards (issue 65): pawn walls and chains that lock most of
// the board, bishops (often several of one colour) shut in on either side of them, kings in
// pockets, now and then a knight, rook or queen sealed in with them. A seeded generator of its
// own (the shape of bench/locked_unwinnable.py, written apart), both sides asked, the board
// turned at random; every answer must be decided at the default limit, every mating line is
// replayed, and every `cannot` whose reachable set is small is checked by a plain breadth-first
// search written here (a set of position keys and the move generator, nothing of the analysis).
// The projected game (docs/unwinnability.md) is tested on its own positions besides.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "helpmate/impl.hpp"
#include "helpmate_check.hpp"

namespace arbiter {
namespace {

using arbiter::testing::certificate_problem;
using arbiter::testing::colour_mirror_fen;
using arbiter::testing::composed;
using arbiter::testing::file_mirror_fen;

/// splitmix64: the same numbers on every platform (the standard distributions are not).
class Rng {
public:
    explicit Rng(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    bool chance(int percent) { return below(100) < percent; }

private:
    std::uint64_t s_;
};

/// A board of characters, [file][rank], '.' for empty.
using Board = std::array<std::array<char, 8>, 8>;

bool dark(int f, int r) { return (f + r) % 2 == 0; }

std::string fen_of(const Board& b, char turn) {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            if (b[f][r] == '.') {
                ++empty;
                continue;
            }
            if (empty) out += static_cast<char>('0' + empty);
            empty = 0;
            out += b[f][r];
        }
        if (empty) out += static_cast<char>('0' + empty);
        if (r) out += '/';
    }
    return out + ' ' + turn + " - -";
}

/// One locked board, or nullopt where the draw made none. Pawn pairs blocked head-on on every
/// file (neighbouring files one or two ranks apart, so that no pawn can take; now and then a
/// level pair, a lever, or an open file); each king on the edge of its side, mostly in a corner,
/// sometimes shut in further by doubled pawns of its own; one to three bishops a side, of one
/// colour, behind their own wall or in front of the enemy's; sometimes a sealed knight, rook or
/// queen. At most `pieces` pieces besides kings and pawns.
std::optional<std::string> locked_board(Rng& rng, int pieces) {
    Board b{};
    for (auto& file : b) file.fill('.');
    std::array<int, 8> r{};
    r[0] = 1 + rng.below(4);
    for (int f = 1; f < 8; ++f) {
        static constexpr std::array<int, 6> steps{-1, 1, -1, 1, -2, 2};
        const int step = steps[static_cast<std::size_t>(rng.below(6))];
        int next = r[f - 1] + step;
        if (next < 1 || next > 5) next = r[f - 1] - step;
        if (next < 1 || next > 5) next = r[f - 1] + (r[f - 1] < 3 ? 1 : -1);
        r[f] = next;
    }
    if (rng.chance(15)) {
        const int f = rng.below(7);
        r[f + 1] = r[f];
    }
    std::array<bool, 8> open{};
    if (rng.chance(20)) open[rng.below(8)] = true;
    for (int f = 0; f < 8; ++f)
        if (!open[f]) b[f][r[f]] = 'P', b[f][r[f] + 1] = 'p';
    auto side_of = [&](int f, int k, bool white) { return white ? k < r[f] : k > r[f] + 1; };
    auto free_squares = [&](bool white, int colour) {  // colour: -1 any, 0 light, 1 dark
        std::vector<std::pair<int, int>> out;
        for (int f = 0; f < 8; ++f)
            for (int k = 0; k < 8; ++k)
                if (b[f][k] == '.' && side_of(f, k, white) && (colour < 0 || dark(f, k) == (colour == 1)))
                    out.emplace_back(f, k);
        return out;
    };
    for (bool white : {true, false}) {
        const auto squares = free_squares(white, -1);
        if (squares.empty()) return std::nullopt;
        std::vector<std::pair<int, int>> corner, edge;
        const int back = white ? 0 : 7;
        for (auto [f, k] : squares) {
            if (k == back || f == 0 || f == 7) edge.emplace_back(f, k);
            if (k == back && (f == 0 || f == 7)) corner.emplace_back(f, k);
        }
        const auto& pool = !corner.empty() && rng.chance(60) ? corner : !edge.empty() ? edge : squares;
        const auto [kf, kr] = pool[static_cast<std::size_t>(rng.below(static_cast<int>(pool.size())))];
        b[kf][kr] = white ? 'K' : 'k';
        if (rng.chance(40))  // doubled pawns behind the wall close the pocket
            for (int f = std::max(0, kf - 2); f <= std::min(7, kf + 2); ++f) {
                const int k = white ? r[f] - 1 : r[f] + 2;
                if (f != kf && !open[f] && k >= 1 && k <= 6 && b[f][k] == '.' && rng.chance(60))
                    b[f][k] = white ? 'P' : 'p';
            }
    }
    int budget = pieces;
    for (bool white : {true, false}) {
        // Mostly the colour of the side's own wall pawn on the a-file (in a chain, of all its
        // wall pawns): such bishops can never take an enemy pawn of the chain.
        const int own_pawn = open[0] ? rng.below(2) : dark(0, white ? r[0] : r[0] + 1) ? 1 : 0;
        const int colour = rng.chance(60) ? own_pawn : rng.below(2);
        const int count = 1 + rng.below(4);
        for (int i = 0; i < count && budget > 0; ++i) {
            const bool own = rng.chance(65);
            const auto squares = free_squares(own ? white : !white, colour);
            if (squares.empty()) continue;
            const auto [f, k] = squares[static_cast<std::size_t>(rng.below(static_cast<int>(squares.size())))];
            b[f][k] = white ? 'B' : 'b';
            --budget;
        }
    }
    if (budget > 0 && rng.chance(45)) {
        const bool white = rng.chance(50);
        static constexpr std::array<char, 4> kinds{'N', 'N', 'R', 'Q'};
        const char piece = kinds[static_cast<std::size_t>(rng.below(4))];
        const auto squares = free_squares(white, -1);
        if (!squares.empty()) {
            const auto [f, k] = squares[static_cast<std::size_t>(rng.below(static_cast<int>(squares.size())))];
            b[f][k] = white ? piece : static_cast<char>(piece - 'A' + 'a');
        }
    }
    if (rng.chance(50)) {  // the colours exchanged
        Board t{};
        for (int f = 0; f < 8; ++f)
            for (int k = 0; k < 8; ++k) {
                const char c = b[f][7 - k];
                t[f][k] = c == '.' ? c : static_cast<char>(std::isupper(c) ? std::tolower(c) : std::toupper(c));
            }
        b = t;
    }
    if (rng.chance(50)) {  // the files mirrored
        Board t{};
        for (int f = 0; f < 8; ++f) t[f] = b[7 - f];
        b = t;
    }
    return fen_of(b, rng.chance(50) ? 'w' : 'b');
}

/// Legal positions only (a king left in check is drawn again).
std::vector<std::string> locked_boards(std::uint64_t seed, int count, int pieces) {
    Rng rng(seed);
    std::vector<std::string> out;
    while (static_cast<int>(out.size()) < count) {
        const auto fen = locked_board(rng, pieces);
        if (fen && composed_position_from_fen(*fen).has_value()) out.push_back(*fen);
    }
    return out;
}

/// The plain check of a `cannot`: every position reachable from `start`, breadth first, each
/// once (a set of keys), with no mate by `side` on the way. 1 when it holds, 0 when a mate was
/// met, -1 when more than `cap` positions are reachable (not checked).
int plain_search_finds_no_mate(const Position& start, Color side, std::size_t cap) {
    std::unordered_set<std::uint64_t> seen{start.key()};
    std::vector<Position> queue{start};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const Position pos = queue[i];
        const MoveList moves = legal_moves(pos);
        if (moves.empty()) {
            if (pos.in_check() && pos.turn() == ~side) return 0;
            continue;
        }
        for (Move m : moves) {
            Position child = pos;
            child.play_unchecked(m);
            if (!seen.insert(child.key()).second) continue;
            if (seen.size() > cap) return -1;
            queue.push_back(child);
        }
    }
    return 1;
}

struct Tally {
    int can = 0, cannot = 0, checked = 0, unchecked = 0, projected = 0;
};

void expect_decided(const std::string& fen, Color side, Tally& t, std::size_t cap = 60'000) {
    const Position pos = composed(fen);
    const auto start = std::chrono::steady_clock::now();
    const MateVerdict v = HelpmateAnalyzer().can_checkmate(pos, side);
    const char* who = side == Color::white ? " white" : " black";
    if (std::getenv("ARBITER_LOCKED_VERBOSE"))  // the boards, answers and times, one a line
        std::cout << fen << who << ' ' << mate_ability_name(v.answer) << ' ' << v.nodes << ' '
                  << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count()
                  << " ms" << std::endl;
    ASSERT_NE(v.answer, MateAbility::unknown) << fen << who << ": unknown after " << v.nodes << " positions";
    if (v.reason.find("projected game") != std::string::npos) ++t.projected;
    if (v.answer == MateAbility::can_checkmate) {
        ++t.can;
        EXPECT_EQ(certificate_problem(pos, side, v), "") << fen << who;
        return;
    }
    ++t.cannot;
    const int plain = plain_search_finds_no_mate(pos, side, cap);
    EXPECT_NE(plain, 0) << fen << who << ": the plain search finds a mate (" << v.reason << ")";
    ++(plain == 1 ? t.checked : t.unchecked);
}

// Every generated board, both sides, decided at the default limit; every line replayed; the
// `cannot` answers checked by the plain search where their reachable set is small.
TEST(HelpmateLocked, GeneratedBoardsAreDecidedAndChecked) {
    Tally t;
    // (ARBITER_LOCKED_SEED and ARBITER_LOCKED_COUNT draw other boards, for exploring.)
    const char* seed = std::getenv("ARBITER_LOCKED_SEED");
    const char* count = std::getenv("ARBITER_LOCKED_COUNT");
    for (const std::string& fen :
         locked_boards(seed ? std::strtoull(seed, nullptr, 10) : 65, count ? std::atoi(count) : 500, 6))
        for (Color side : {Color::white, Color::black}) {
            expect_decided(fen, side, t);
            if (::testing::Test::HasFatalFailure()) return;
        }
    std::cout << "locked boards: " << t.can << " can, " << t.cannot << " cannot (" << t.checked
              << " checked by the plain search, " << t.unchecked << " beyond its cap; " << t.projected
              << " decided by the projected game)\n";
    EXPECT_GT(t.can, 0);
    EXPECT_GT(t.cannot, 0);
}

// The same with few units and the plain search's cap raised: every `cannot` is checked.
TEST(HelpmateLocked, SmallBoardsEveryCannotChecked) {
    Tally t;
    for (const std::string& fen : locked_boards(6502, 200, 2))
        for (Color side : {Color::white, Color::black}) {
            expect_decided(fen, side, t, 400'000);
            if (::testing::Test::HasFatalFailure()) return;
        }
    std::cout << "small locked boards: " << t.can << " can, " << t.cannot << " cannot (" << t.checked << " checked, "
              << t.unchecked << " beyond the cap)\n";
    EXPECT_GT(t.cannot, 0);
}

struct Projected {
    const char* fen;
    Color side;
};

// Locked boards where the loser's king's game is small and the units outside it (the winner's
// king among them) are many: the projected game proves them in a few thousand positions of its
// own, where the searches of the whole board ran to the limit (both were `unknown` before issue
// 65). Each asked in its three mirrors too, with the same answer.
TEST(HelpmateLocked, ProjectedGameProves) {
    const std::vector<Projected> cases{
        // Black's light bishops against White's king in its pocket h1-g1-h2-f1-...-a1: g1 and h2
        // are dark and only the king goes there, so Bg2 (defended by f3) is never mate.
        {"k5b1/B7/1B6/1p5p/pPp1pBpP/P1PpPpP1/1B1PbP2/1bB4K b - -", Color::black},
        // The same wall with a knight shut in on h1, which a black bishop may take (so it is a
        // unit of the game, not a wall), and Black's king at a6.
        {"4b1b1/B7/k7/1p5p/pPp1p1pP/P1PpPpPb/1B1PbP2/K1Bb2BN b - -", Color::black},
    };
    for (const Projected& c : cases) {
        const std::string colours = colour_mirror_fen(c.fen);
        const std::vector<std::pair<std::string, Color>> views{{c.fen, c.side},
                                                               {colours, ~c.side},
                                                               {*file_mirror_fen(c.fen), c.side},
                                                               {*file_mirror_fen(colours), ~c.side}};
        for (const auto& [fen, side] : views) {
            const Position pos = composed(fen);
            const MateVerdict v = HelpmateAnalyzer().can_checkmate(pos, side);
            EXPECT_EQ(v.answer, MateAbility::cannot_checkmate) << fen << ": " << v.reason;
            EXPECT_EQ(v.proof, MateProof::exhaustive_search) << fen;
            EXPECT_NE(v.reason.find("projected game"), std::string::npos) << fen << ": " << v.reason;
            EXPECT_LT(v.nodes, 500'000u) << fen;
        }
        // The projection alone.
        const Position pos = composed(c.fen);
        const detail::Separation sep = detail::separate(pos, c.side, false);
        ASSERT_TRUE(sep.projects) << c.fen;
        detail::ProjectedGame game(pos, c.side, sep);
        std::uint64_t nodes = 0;
        EXPECT_EQ(game.run(1'000'000, nodes), detail::ProjectedGame::Result::proved) << c.fen;
        EXPECT_GT(game.units_outside(), 0) << c.fen;
    }
}

// Where a mate exists in the loser's king's game, the projected game finds it with the units
// outside off the board, and its line lifts: each pass becomes a move outside the game. The
// lifted line is a real mate (replayed here), and so is the whole analysis's.
TEST(HelpmateLocked, ProjectedGameLiftsItsMates) {
    const std::vector<Projected> cases{
        {"4b2k/8/p2Bb1b1/PpBpBp1p/1P1P1PpP/6P1/8/K7 b - -", Color::white},
        {"7k/1p1b4/pPp3b1/P1Pp3b/3Pp1pB/2B1PpP1/5P2/K7 w - -", Color::white},
    };
    for (const Projected& c : cases) {
        const Position pos = composed(c.fen);
        const detail::Separation sep = detail::separate(pos, c.side, false);
        ASSERT_TRUE(sep.projects) << c.fen;
        detail::ProjectedGame game(pos, c.side, sep);
        std::uint64_t nodes = 0;
        ASSERT_EQ(game.run(4'500'000, nodes), detail::ProjectedGame::Result::mate) << c.fen;
        MateVerdict v;
        v.answer = MateAbility::can_checkmate;
        v.line = game.take_line();
        EXPECT_EQ(certificate_problem(pos, c.side, v), "") << c.fen;
        const MateVerdict full = HelpmateAnalyzer().can_checkmate(pos, c.side);
        EXPECT_EQ(full.answer, MateAbility::can_checkmate) << c.fen;
        EXPECT_EQ(certificate_problem(pos, c.side, full), "") << c.fen;
    }
}

// The projected game on its own over generated boards: wherever it proves, the plain search
// (every reachable position of the real board) finds no mate; wherever it finds a mate, the
// lifted line is one.
// (ARBITER_LOCKED_FILE names a file of `FEN side` lines to sweep instead, such as
// bench/locked_unwinnable.py writes, and ARBITER_LOCKED_CAP the plain search's cap.)
TEST(HelpmateLocked, ProjectedGameAgreesWithThePlainSearch) {
    int proved = 0, confirmed = 0, mates = 0;
    std::vector<std::pair<std::string, Color>> questions;
    if (const char* file = std::getenv("ARBITER_LOCKED_FILE")) {
        std::ifstream in(file);
        for (std::string line; std::getline(in, line);) {
            const auto space = line.rfind(' ');
            if (space == std::string::npos) continue;
            const std::string fen = line.substr(0, space);
            if (composed_position_from_fen(fen).has_value())
                questions.emplace_back(fen, line.substr(space + 1) == "white" ? Color::white : Color::black);
        }
    } else {
        for (const std::string& fen : locked_boards(6503, 300, 3))
            for (Color side : {Color::white, Color::black}) questions.emplace_back(fen, side);
    }
    const char* cap_text = std::getenv("ARBITER_LOCKED_CAP");
    const std::size_t cap = cap_text ? std::strtoull(cap_text, nullptr, 10) : 150'000;
    for (const auto& [fen, side] : questions) {
        const Position pos = composed(fen);
        const detail::Separation sep = detail::separate(pos, side, false);
        if (!sep.projects) continue;
        detail::ProjectedGame game(pos, side, sep);
        std::uint64_t nodes = 0;
        const auto r = game.run(200'000, nodes);
        if (r == detail::ProjectedGame::Result::mate) {
            ++mates;
            MateVerdict v;
            v.answer = MateAbility::can_checkmate;
            v.line = game.take_line();
            EXPECT_EQ(certificate_problem(pos, side, v), "") << fen;
        } else if (r == detail::ProjectedGame::Result::proved) {
            ++proved;
            const int plain = plain_search_finds_no_mate(pos, side, cap);
            EXPECT_NE(plain, 0) << fen << (side == Color::white ? " white" : " black");
            confirmed += plain == 1;
        }
    }
    std::cout << "projected game: " << proved << " proved (" << confirmed << " confirmed by the plain search), "
              << mates << " mates lifted\n";
    EXPECT_GT(proved + mates, 0);
}

}  // namespace
}  // namespace arbiter
