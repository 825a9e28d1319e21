// Dead positions that a short forced line ends (issue 21, Article 5.2.2): a queen or rook
// sacrificed with the capture forced, a forced stalemate, a forced line of two plies; and closed
// positions where a pawn move locks a rook in for good. Each
// composed position is checked in the rules layer (GameRecord, as `status` and `claim` use it),
// in a session and in the audit (missed_automatic_draw at the ply where it arose, since each
// game goes on), and against can_checkmate for both sides.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "arbiter/arbiter.hpp"
#include "arbiter/input.hpp"
#include "arbiter/pgn_game.hpp"
#include "session_test_util.hpp"

using namespace arbiter;

namespace {

struct ForcedCase {
    const char* name;
    const char* fen;
    const char* move;          ///< the move after which the position is dead
    const char* continuation;  ///< moves the game goes on with (the forced line)
    std::uint32_t game_ply;    ///< the game ply where the dead position arose
};

const ForcedCase cases[] = {
    {"RookNothingLeftWhite", "8/8/8/8/7K/8/2R5/k7 w - - 0 1", "Rb2", "Kxb2 Kg4", 1},
    {"RookBishopLeftWhite", "8/8/8/8/7K/8/2R5/k6B w - - 0 1", "Rb2", "Kxb2 Kg4", 1},
    {"RookKnightLeftWhite", "7N/8/8/8/7K/8/2R5/k7 w - - 0 1", "Rb2", "Kxb2 Ng6", 1},
    {"RookNothingLeftBlack", "K7/2r5/8/7k/8/8/8/8 b - - 0 1", "Rb7", "Kxb7 Kg5", 2},
    {"RookBishopLeftBlack", "K7/2r5/8/7k/8/8/7b/8 b - - 0 1", "Rb7", "Kxb7 Kg5", 2},
    {"QueenBishopLeftWhite", "8/8/8/8/7K/8/3Q4/k6B w - - 0 1", "Qb2+", "Kxb2 Kg4", 1},
    {"QueenKnightLeftBlack", "K7/3q4/8/7k/8/8/8/n7 b - - 0 1", "Qb7+", "Kxb7 Kg5", 2},
    // The side to move has one legal move, and it stalemates the opponent.
    {"StalemateAfterSingleMoveWhite", "6k1/6P1/7K/8/8/3q4/8/8 b - - 0 1", "Qg6+", "Kxg6", 2},
    {"StalemateAfterSingleMoveBlack", "8/8/3Q4/8/8/7k/6p1/6K1 w - - 0 1", "Qg3+", "Kxg3", 1},
    // Two plies: b5+ is White's only move, and each of Black's replies stalemates White.
    {"TwoPliesIntoStalemate", "K7/8/k7/8/1P6/4q3/8/8 b - - 0 1", "Qb6", "b5+ Kxb5", 2},
    // Locked units (HelpmateAnalyzer::has_locked_units): the push that rams the last pawn locks
    // White's rook, knight and bishop behind their own pawns for good, and the kings on either
    // side of the wall; then the colours swapped.
    {"LockedRookBehindPawnsWhite", "6k1/8/8/8/1pp2p1p/1P2pP1P/2P1P2P/2K2BNR b - - 0 1", "c3", "Kd1 Kg7", 2},
    {"LockedRookBehindPawnsBlack", "2k2bnr/2p1p2p/1p2Pp1p/1PP2P1P/8/8/8/6K1 w - - 0 1", "c6", "Kd8 Kg2", 1},
};

class ForcedDead : public ::testing::TestWithParam<ForcedCase> {};

Position start_of(const ForcedCase& c) {
    auto p = position_from_fen(c.fen);
    EXPECT_TRUE(p) << c.fen;
    return p ? *p : Position();
}

}  // namespace

TEST_P(ForcedDead, NeitherSideCanMateOnceTheMoveIsPlayed) {
    const ForcedCase& c = GetParam();
    const Position before = start_of(c);
    const auto m = parse_move(before, c.move);
    ASSERT_TRUE(m) << c.move;
    const Position after = before.after(*m);
    const HelpmateAnalyzer analyzer;
    for (Color side : {Color::white, Color::black}) {
        EXPECT_EQ(analyzer.can_checkmate(after, side).answer, MateAbility::cannot_checkmate) << c.name;
        EXPECT_EQ(default_unwinnability().ability(after, side), MateAbility::cannot_checkmate) << c.name;
    }
    // Before the move the game was alive: the side that sacrifices could still mate.
    EXPECT_EQ(analyzer.can_checkmate(before, before.turn()).answer, MateAbility::can_checkmate) << c.name;
}

TEST_P(ForcedDead, TheRulesLayerEndsTheGameAtThatPly) {
    const ForcedCase& c = GetParam();
    GameRecord rec(start_of(c), rule_set(RuleSetId::fide_2023));
    EXPECT_FALSE(rec.termination());
    ASSERT_FALSE(rec.play(std::string_view(c.move)));
    const auto& t = rec.termination();
    ASSERT_TRUE(t) << c.name;
    EXPECT_EQ(t->kind, TerminationKind::dead_position);
    EXPECT_EQ(t->index, 1u);
    EXPECT_EQ(t->article, "5.2.2");
    EXPECT_EQ(rec.game_ply(t->index), c.game_ply);
}

TEST_P(ForcedDead, TheSessionEndsTheGameAtThatPly) {
    const ForcedCase& c = GetParam();
    arbiter::testing::Game g(arbiter::testing::Game::config(RuleSetId::fide_2023, c.fen));
    g.play(c.move);
    ASSERT_TRUE(g.s.ended()) << c.name;
    EXPECT_EQ(g.s.end()->kind, EndKind::dead_position);
    EXPECT_EQ(g.s.end()->ply, 1u);
    EXPECT_EQ(g.s.end()->result, "1/2-1/2");
}

TEST_P(ForcedDead, TheAuditFindsTheMissedDrawAtThatPly) {
    const ForcedCase& c = GetParam();
    const std::string path = ::testing::TempDir() + "/forced_dead_" + c.name + ".pgn";
    {
        std::ofstream out(path);
        const bool black = std::string(c.fen).find(" b ") != std::string::npos;
        out << "[Event \"" << c.name << "\"]\n[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"" << c.fen << "\"]\n\n"
            << (black ? "1... " : "1. ") << c.move << ' ' << c.continuation << " *\n";
    }
    auto src = open_input(path);
    ASSERT_TRUE(src);
    pgn::GameReader reader(**src);
    pgn::ParsedGame game;
    ASSERT_TRUE(reader.next(game));
    ASSERT_TRUE(game.errors.empty()) << c.name << ": " << game.errors.front().message;
    GameRecord rec;
    const auto a = audit::audit_game(game, {}, rec);
    bool found = false;
    for (const auto& f : a.findings)
        found |=
            f.type == audit::FindingType::missed_automatic_draw && f.kind == "dead_position" && f.ply == c.game_ply;
    EXPECT_TRUE(found) << c.name;
    std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(Composed, ForcedDead, ::testing::ValuesIn(cases),
                         [](const ::testing::TestParamInfo<ForcedCase>& i) { return std::string(i.param.name); });

TEST(LockedUnits, FoundInClosedPositionsOnly) {
    const auto locked = [](const char* fen) {
        const auto p = position_from_fen(fen);
        EXPECT_TRUE(p) << fen;
        return p && HelpmateAnalyzer::has_locked_units(*p);
    };
    // White's rook, knight and bishop behind their own pawns; then the colours swapped.
    EXPECT_TRUE(locked("6k1/8/8/8/1p3p1p/1Pp1pP1P/2P1P2P/2K2BNR w - - 0 1"));
    EXPECT_TRUE(locked("2k2bnr/2p1p2p/1pP1Pp1p/1P3P1P/8/8/8/6K1 b - - 0 1"));
    // A king that can never move: every square next to it is its own pawn or attacked for ever.
    EXPECT_TRUE(locked("7k/6pP/6P1/8/8/8/K7/8 w - - 0 1"));
    // Before 1...c3 the c4 pawn can still be taken (b3xc4): nothing is locked.
    EXPECT_FALSE(locked("6k1/8/8/8/1pp2p1p/1P2pP1P/2P1P2P/2K2BNR b - - 0 1"));
    // A rook that may still castle, the start position, a closed French with pieces on.
    EXPECT_FALSE(locked("6k1/8/8/8/1p3p1p/1Pp1pP1P/2P1P2P/4K2R w K - 0 1"));
    EXPECT_FALSE(locked("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    EXPECT_FALSE(locked("r1bqk2r/pp2bppp/2n1p3/2ppPn2/3P4/2PB1N2/PP1N1PPP/R1BQK2R w KQkq - 0 1"));
}

TEST(LockedUnits, StayLockedToTheEndOfTheGame) {
    // Every move from a locked position leaves it locked (what lets the audit look at the final
    // position only): two plies deep from each position above that has locked units.
    for (const char* fen : {"6k1/8/8/8/1p3p1p/1Pp1pP1P/2P1P2P/2K2BNR w - - 0 1", "7k/6pP/6P1/8/8/8/K7/8 w - - 0 1"}) {
        const auto start = position_from_fen(fen);
        ASSERT_TRUE(start);
        for (Move a : legal_moves(*start)) {
            const Position p = start->after(a);
            EXPECT_TRUE(HelpmateAnalyzer::has_locked_units(p)) << fen << " " << to_uci(*start, a);
            for (Move b : legal_moves(p)) EXPECT_TRUE(HelpmateAnalyzer::has_locked_units(p.after(b))) << fen;
        }
    }
}
