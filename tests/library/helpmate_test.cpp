// HelpmateAnalyzer on hand-made cases: the RULES.md vectors (TV-DEAD-1, TV-FLAG-*), material,
// blocked pawn walls with and without a free piece, promotions, positions already over, and
// the option contract (quick mode, node limit). Every can_checkmate line is replayed.
#include <gtest/gtest.h>

#include <array>
#include <initializer_list>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arbiter/arbiter.hpp"
#include "helpmate/impl.hpp"
#include "helpmate_check.hpp"

using namespace arbiter;
using arbiter::testing::certificate_problem;
using arbiter::testing::colour_mirror_fen;
using arbiter::testing::composed;
using arbiter::testing::file_mirror_fen;
using arbiter::testing::mirrored_questions;

namespace {

struct Case {
    const char* name;
    const char* fen;
    MateAbility white;
    MateAbility black;
};

constexpr auto can = MateAbility::can_checkmate;
constexpr auto cannot = MateAbility::cannot_checkmate;

const Case cases[] = {
    // RULES.md test vectors.
    {"TV_DEAD_1_blocked_wall", "8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1", cannot, cannot},
    {"TV_FLAG_1_lone_bishop_helpmates", "6K1/7P/5k2/8/8/8/1b6/8 w - - 0 1", can, can},
    {"TV_FLAG_2_knight_against_rook", "8/8/8/8/4n3/8/7R/5k1K b - - 0 1", can, can},
    {"TV_FLAG_3_bare_king", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", can, cannot},
    // Material.
    {"bare_kings", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", cannot, cannot},
    {"knight_against_bare_king", "8/8/4k3/8/8/3K4/8/5N2 w - - 0 1", cannot, cannot},
    {"bishop_against_bare_king", "8/8/4k3/8/8/3K4/8/5B2 b - - 0 1", cannot, cannot},
    {"two_knights_helpmate", "8/8/4k3/8/8/3K4/8/4NN2 w - - 0 1", can, cannot},
    {"bishops_on_one_colour", "8/3b4/4k3/8/8/3K4/8/5B2 w - - 0 1", cannot, cannot},
    {"bishops_on_both_colours", "8/4b3/4k3/8/8/3K4/8/5B2 w - - 0 1", can, can},
    {"knight_against_queen", "8/8/4k3/8/3q4/3K4/8/5N2 w - - 0 1", cannot, can},
    {"knight_against_rook", "8/8/4k3/8/3r4/3K4/8/5N2 w - - 0 1", can, can},
    {"bishop_against_rook", "8/8/4k3/8/3r4/3K4/8/5B2 w - - 0 1", cannot, can},
    {"bishop_against_knight", "8/8/4k3/8/3n4/3K4/8/5B2 w - - 0 1", can, can},
    {"bishop_against_pawn_needs_a_blocker", "8/8/4k3/4p3/8/3K4/8/5B2 w - - 0 1", can, can},
    {"bishop_and_knight", "8/8/4k3/8/8/3K4/8/4NB2 w - - 0 1", can, cannot},
    // Blocked walls.
    {"wall_with_bishops_that_cannot_pass", "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1", cannot, cannot},
    {"wall_with_a_free_knight", "8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/6N1 w - - 0 1", can, can},
    {"wall_with_a_rook_behind_it", "2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1", cannot, cannot},
    // The stalemate trap: a unit that only the enemy king can take, and only into a stalemate.
    {"trap_bishop_taken_only_into_stalemate", "k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1", cannot, cannot},
    {"trap_pawns_taken_only_into_stalemate", "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1", cannot, cannot},
    {"trap_pawn_wall_on_the_kingside", "8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1", cannot, cannot},
    // ... but not when the king has a square left after the capture (no pawn on b6).
    {"no_trap_when_the_king_has_a_flight", "k1b5/1p1p4/3P4/B7/8/2B5/8/K7 w - - 0 1", can, can},
    // The last-move rule: the white king only shuffles between h3 and h4, so the square it came
    // from must be covered by something other than the black king, and no dark bishop can.
    {"last_move_rule_king_shuffle", "8/8/1b5p/5p1P/5p1K/5Pp1/6P1/7k b - - 0 1", cannot, cannot},
    // ... but a mate on the very next move has no loser's move before it.
    {"last_move_rule_mate_in_one", "8/8/1b5p/5p1P/5p1K/5Pp1/6Pk/8 b - - 0 1", cannot, can},
    // Castling rights whose path a frozen unit blocks do not free the king; an open path does.
    {"castling_path_blocked_for_ever", "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K - 0 1", cannot, cannot},
    {"castling_path_open", "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BK1NR w K - 0 1", can, can},
    // A king walled in by pawns: a pawn race that the exhaustive search settles early (here the
    // side to be mated runs out of pawn moves first, a stalemate).
    {"walled_king_race_lost_by_both", "8/1p1p1p1p/1P6/KP6/PP6/1P1P4/5P1P/k7 w - - 0 1", cannot, cannot},
    {"walled_king_race_one_side", "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1", can, cannot},
    // Fortress-like but winnable: the bishop can leave its cage after a pawn advance.
    {"fortress_with_a_way_out", "Bb2kb2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 b - - 0 1", can, cannot},
    // Only a promotion brings mating material.
    {"promotion_needed", "8/8/8/8/8/k7/6P1/K7 w - - 0 1", can, cannot},
    {"underpromotion_line", "8/4K2k/4P2p/8/3b1q2/8/8/8 b - - 0 1", can, can},
    // Positions already over.
    {"fools_mate_done", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", cannot, can},
    {"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", cannot, cannot},
    // Rich positions.
    {"initial_position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", can, can},
    {"mate_in_one_available", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", can, can},
};

/// Asks `c` for both sides (and, with `mirrors`, in its three mirrors: colours swapped, files
/// mirrored, both), expecting its answers, a mating line that replays for each can_checkmate and
/// a proof for each cannot_checkmate.
void expect_decides(const Case& c, bool mirrors) {
    const HelpmateAnalyzer analyzer;
    for (Color side : {Color::white, Color::black}) {
        const MateAbility want = side == Color::white ? c.white : c.black;
        std::vector<std::pair<std::string, Color>> questions{{c.fen, side}};
        if (mirrors)
            for (auto& q : mirrored_questions(c.fen, side)) questions.push_back(q);
        for (const auto& [fen, asked] : questions) {
            const Position pos = composed(fen);
            const MateVerdict v = analyzer.can_checkmate(pos, asked);
            EXPECT_EQ(v.answer, want) << fen << " " << name(asked) << ": " << v.reason;
            if (v.answer == MateAbility::can_checkmate) {
                EXPECT_EQ(certificate_problem(pos, asked, v), "") << fen << " " << name(asked);
                EXPECT_TRUE(v.proof == MateProof::mating_line || v.proof == MateProof::already_mated);
            }
            if (v.answer == MateAbility::cannot_checkmate) {
                EXPECT_TRUE(v.line.empty());
                EXPECT_NE(v.proof, MateProof::none);
            }
            EXPECT_FALSE(v.reason.empty());
        }
    }
}

class Helpmate : public ::testing::TestWithParam<Case> {};

TEST_P(Helpmate, DecidesBothSides) { expect_decides(GetParam(), false); }

INSTANTIATE_TEST_SUITE_P(Cases, Helpmate, ::testing::ValuesIn(cases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(HelpmateProofs, NamesTheReason) {
    const HelpmateAnalyzer analyzer;
    EXPECT_EQ(analyzer.can_checkmate(composed("8/8/4k3/8/8/3K4/8/8 w - -"), Color::white).proof, MateProof::material);
    EXPECT_EQ(analyzer.can_checkmate(composed("8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - -"), Color::white).proof,
              MateProof::blockade);
    // A rook check that can only be answered by taking the rook leaves bare kings.
    EXPECT_EQ(analyzer.can_checkmate(composed("8/6P1/5k1K/7r/8/8/8/8 w - - 0 54"), Color::black).proof,
              MateProof::exhaustive_search);
    EXPECT_EQ(analyzer.can_checkmate(composed("7k/5Q2/6K1/8/8/8/8/8 b - -"), Color::white).proof, MateProof::game_over);
    const auto done =
        analyzer.can_checkmate(composed("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq -"), Color::black);
    EXPECT_EQ(done.proof, MateProof::already_mated);
    EXPECT_TRUE(done.line.empty());
}

// The stalemate trap, the last-move rule and blocked castling decide these statically.
TEST(HelpmateProofs, BlockadeRulesDecideWithoutSearch) {
    const HelpmateAnalyzer analyzer;
    for (const char* fen :
         {"k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1", "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1",
          "8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1", "8/8/1b5p/5p1P/5p1K/5Pp1/6P1/7k b - - 0 1",
          "2k5/8/8/3B4/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K - 0 1"})
        for (Color side : {Color::white, Color::black})
            EXPECT_EQ(analyzer.can_checkmate(composed(fen), side).proof, MateProof::blockade)
                << fen << " " << name(side);
    const MateVerdict v = analyzer.can_checkmate(composed("8/8/1b5p/5p1P/5p1K/5Pp1/6Pk/8 b - - 0 1"), Color::black);
    ASSERT_EQ(v.answer, MateAbility::can_checkmate);
    EXPECT_EQ(v.line.size(), 1u);
}

// The same race won in time: black's king takes the d-pawn and black queens before white runs
// out of pawn moves (found by the exhaustive search, which a walled-in king schedules first).
TEST(HelpmateProofs, WalledKingRaceWonInTime) {
    const HelpmateAnalyzer analyzer;
    const Position pos = composed("8/1p1p1p1p/1P6/BP6/KP6/PP6/3P1P1P/k7 w - - 0 1");
    const MateVerdict v = analyzer.can_checkmate(pos, Color::black);
    ASSERT_EQ(v.answer, MateAbility::can_checkmate);
    EXPECT_EQ(certificate_problem(pos, Color::black, v), "");
}

TEST(HelpmateProofs, MateInOneIsFoundAsOne) {
    const HelpmateAnalyzer analyzer;
    const Position pos = composed("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - -");
    const MateVerdict v = analyzer.can_checkmate(pos, Color::white);
    ASSERT_EQ(v.answer, MateAbility::can_checkmate);
    EXPECT_EQ(v.line.size(), 1u);
    EXPECT_EQ(to_san(pos, v.line[0]), "Rd8#");
}

TEST(HelpmateOptions, UnknownOnlyWhenTheLimitIsHit) {
    HelpmateOptions options;
    options.node_limit = 50;
    options.quick_node_limit = 10;
    const HelpmateAnalyzer tight(options);
    // A helpmate that needs a long walk: no search of 50 positions finds it.
    const Position pos = composed("8/8/4k3/8/8/3K4/8/4NB2 w - -");
    const MateVerdict v = tight.can_checkmate(pos, Color::white);
    EXPECT_EQ(v.answer, MateAbility::unknown);
    EXPECT_EQ(v.proof, MateProof::none);
    EXPECT_LE(v.nodes, 80u);
    // Static proofs need no search at all.
    EXPECT_EQ(tight.can_checkmate(pos, Color::black).answer, MateAbility::cannot_checkmate);
}

// Real game positions from the audit: a pawn ending where the side's only pawn is blocked head
// on, and its king must first take the blocker (or the blockers) so that the pawn can promote.
// The eager clearing plan finds these in a few hundred positions (they took up to 162,083).
TEST(HelpmateSearch, BlockedPawnEndingsAreCheap) {
    const HelpmateAnalyzer analyzer;
    for (const char* fen : {"8/7p/7P/6p1/K4pP1/2k2P2/8/8 b - - 0 42", "8/8/8/2K3p1/6P1/1Bk1n3/8/8 b - - 0 63",
                            "8/8/8/1p4K1/1P1k4/8/8/8 b - - 0 51", "8/8/2n5/3k4/7p/7P/4K3/8 w - - 0 66"}) {
        const Position pos = composed(fen);
        const MateVerdict v = analyzer.can_checkmate(pos, Color::white);
        ASSERT_EQ(v.answer, MateAbility::can_checkmate) << fen;
        EXPECT_EQ(certificate_problem(pos, Color::white, v), "") << fen;
        EXPECT_LE(v.nodes, 2000u) << fen;
    }
}

// A side with nothing but its king and blocked pawns against a loser with pieces (a real time
// forfeit of the audit's bench file: Black's h-pawn stands blocked by h3 and mates only once White
// gives a piece on g3 for it to take). The gift plan finds the mate in under 2,000 positions (the
// guided plans and the rounds once took 6,610), so it comes before the rounds; since session 29
// the guided search, whose loser pieces leave the squares the winner attacks around their king,
// finds it first (Ng3 hxg3#, 285 positions).
TEST(HelpmateSearch, GiftPlanFirstForABlockedPawnAgainstPieces) {
    const HelpmateAnalyzer analyzer;
    const Position pos = composed("8/2R5/3P4/3k4/2N3Pp/1P5P/2Q5/6K1 w - - 7 62");
    const MateVerdict v = analyzer.can_checkmate(pos, Color::black);
    ASSERT_EQ(v.answer, MateAbility::can_checkmate);
    EXPECT_EQ(certificate_problem(pos, Color::black, v), "");
    EXPECT_LE(v.nodes, 2000u);
    ASSERT_TRUE(detail::gift_plan(pos, Color::black));
    const detail::SearchOutcome gift = detail::search_rewarded(pos, Color::black, 2000, true);
    ASSERT_EQ(gift.kind, detail::SearchOutcome::Kind::mate) << gift.nodes;
    Position p = pos;
    for (Move m : gift.line) p.play_unchecked(m);
    EXPECT_TRUE(p.in_check() && !has_legal_move(p) && p.turn() == Color::white);
    // Where the loser has nothing to give but pawns (a pawn ending), the rule does not apply:
    // a dead pawn ending of the unfair timeouts is proven without a gift plan before the rounds.
    const Position ending = composed("8/8/p3k3/P1p2p1p/2P1KP1P/8/8/8 w - - 0 1");
    const MateVerdict d = analyzer.can_checkmate(ending, Color::black);
    EXPECT_EQ(d.answer, MateAbility::cannot_checkmate);
    EXPECT_LT(d.nodes, 15000u);  // 14,161; the gift plan first would add its 1,200
}

// A lone bishop mates in its corner with the loser's own units beside it (a real timeout:
// Black's king to a1, its knight to b1, the a2 pawn stays; White's bishop checks down the long
// diagonal). The guided search leads the loser's units next to the corner: a pawn there does not
// promote on the corner itself, where the king is to stand (it did, and the mate took 29,407
// positions of the guided search instead of some 10,600).
TEST(HelpmateSearch, LoserPawnBesideTheCornerDoesNotPromoteOnIt) {
    const Position pos = composed("5K2/8/8/4B3/8/1k6/p1n5/8 b - - 0 70");
    const detail::Orientation o = detail::canonical_orientation(pos, Color::white);
    const Position seen = o.identity() ? pos : *detail::oriented(pos, o);
    const Color winner = o.colours ? Color::black : Color::white;
    const detail::SearchOutcome out = detail::search_helpmate(seen, winner, 15000, 0);
    ASSERT_EQ(out.kind, detail::SearchOutcome::Kind::mate) << out.nodes;
    Position p = seen;
    for (Move m : out.line) p.play_unchecked(m);
    EXPECT_TRUE(p.in_check() && !has_legal_move(p));
}

// A real timeout (d3_unfair_2022-05) in a closed position: no mate, proven by the exhaustive
// search, which needs more positions than its first round's budget and resumes in the second.
TEST(HelpmateSearch, ClosedPositionIsProvenByTheResumedExhaustiveSearch) {
    const HelpmateAnalyzer analyzer;
    const Position pos = composed("8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - - 0 54");
    const MateVerdict v = analyzer.can_checkmate(pos, Color::white);
    EXPECT_EQ(v.answer, MateAbility::cannot_checkmate);
    EXPECT_EQ(v.proof, MateProof::exhaustive_search);
    EXPECT_GT(v.nodes, 200'000u);    // more than the first round
    EXPECT_LT(v.nodes, 1'200'000u);  // the second round goes on from the first
}

struct FoundMate {
    const char* fen;
    Color side;
};

// The composed kinds of issue 49 (bench/composed_unwinnable.py; each verdict agrees with
// chasolver's), the slowest of each answer pair in the generated sets. Each is asked for both
// sides and in its three mirrors (colours swapped, files mirrored, both), which must agree.
const Case composed_kinds[] = {
    // chains: a locked chain across the board, kings in the corners, bishops and rooks behind.
    {"chains_bishops_that_cannot_open_it", "k7/8/5b1p/p5pP/Pp1p1pP1/1PpPpP2/2P1P1B1/7K w - - 0 1", cannot, cannot},
    {"chains_lever_no_unit_reaches", "k7/7b/6p1/1p3pPp/pPp1pP1P/P1PpP3/3P4/K1B5 b - - 0 1", cannot, cannot},
    {"chains_rook_opens_it", "7k/2b4r/1p1p4/pPpPp3/P1P1Pp1p/5PpP/4B1P1/K7 b - - 0 1", can, can},
    {"chains_rook_and_bishop_open_it", "7k/1p1b4/pPp3p1/P1Pp1pPp/3PpP1P/4P3/1B1R4/K7 b - - 0 1", can, can},
    // walled: a king walled in on the edge by its own units against a lone queen or rook.
    {"walled_knights_and_pawns", "2R2Nr1/2R1k3/8/4B3/1p1p4/pPpP4/PNPN4/KNNN4 b - - 0 1", can, cannot},
    {"walled_against_a_queen", "8/1P3R2/2RkN3/5R2/1N6/6p1/4qBPQ/5NNK b - - 0 1", can, cannot},
    {"walled_bishops_and_pawns", "k1nb4/bppp4/pPPP4/P7/4Q3/3p1n2/1r2nb2/1r1K4 w - - 0 1", cannot, can},
    {"walled_against_a_rook", "knnb4/nbqp4/3P2b1/5b2/5p1K/8/5nn1/3R4 w - - 0 1", cannot, can},
    {"walled_both_mate", "5nnk/5bnr/1Q6/8/8/8/2n1n3/3nK1r1 w - - 0 1", can, can},
    // rows: rows of same-coloured bishops in front of and behind a locked row.
    {"rows_dead", "k7/8/2B5/bB4p1/Bp1pBpPp/bP1P1P1P/1b1b4/7K b - - 0 1", cannot, cannot},
    {"rows_dead_promoted_bishops", "7k/8/2B3B1/p1p2Bb1/P1PpBp1p/3P1P1P/1b1b3b/K7 w - - 0 1", cannot, cannot},
    {"rows_white_only", "3b3k/4b2B/1p1p3p/pP1Pp1pP/P3PpP1/5P1B/8/K7 w - - 0 1", can, cannot},
    {"rows_black_only", "7k/8/p1p3b1/PpPp4/bP1Pp1pB/2B1PbP1/8/K3B3 b - - 0 1", cannot, can},
    {"rows_both", "k7/8/2pBpBp1/1pPpP1Pp/pP1P3P/P5b1/8/b6K w - - 0 1", can, can},
    // door: the loser's king walks through the one door in the wall to be mated.
    {"door_closed", "8/1p1p3p/pP1Pp1pP/P3PpPk/5P2/7B/5B1K/8 b - - 0 1", cannot, cannot},
    {"door_white_walks_through", "5K2/8/2k5/6p1/3p1pPp/p1pPpP1P/P1PbP3/8 w - - 0 1", can, can},
    {"door_black_king_led_through", "8/1p1p2Bp/pPpPp1pP/P1P1P1P1/7B/8/8/1k1K4 b - - 0 1", can, can},
    {"door_one_side", "2B5/4b3/K7/8/kp3pbp/pPp1pPpP/P1P1P1P1/8 b - - 0 1", can, cannot},
};

class HelpmateKinds : public ::testing::TestWithParam<Case> {};

TEST_P(HelpmateKinds, DecideBothSidesInEveryMirror) { expect_decides(GetParam(), true); }

INSTANTIATE_TEST_SUITE_P(Kinds, HelpmateKinds, ::testing::ValuesIn(composed_kinds),
                         [](const auto& info) { return std::string(info.param.name); });

/// Each position is a can_checkmate, with a mating line that replays, found by `engine`.
void expect_mates_found(std::initializer_list<FoundMate> found, const char* engine = "") {
    const HelpmateAnalyzer analyzer;
    for (const auto& q : found) {
        const Position pos = composed(q.fen);
        const MateVerdict v = analyzer.can_checkmate(pos, q.side);
        ASSERT_EQ(v.answer, MateAbility::can_checkmate) << q.fen;
        EXPECT_NE(v.reason.find(engine), std::string::npos) << q.fen << ": " << v.reason;
        EXPECT_EQ(certificate_problem(pos, q.side, v), "") << q.fen;
    }
}

/// The plans of the search schedule (src/helpmate.cpp), each run on its own.
enum class Plan { gift, targeted_gift, release, bishop_corner, separated, lever };

/// The plan's own search finds a mating line that replays, within the share of the schedule's
/// third round (b = 345,600) that the plan gets: b/4 for the gift plans (a targeted gift b/4 for
/// each of its files) and the better bishop corner, b for the release plan, 8b for the search
/// of the separated game, 2b/5 for the lever plan (guided variant 9, one of five). The whole analysis
/// finds a mate too (by whichever search comes first: the exhaustive search now finds many of
/// these before the plans run).
void expect_plan_finds(std::initializer_list<FoundMate> found, Plan plan) {
    constexpr std::uint64_t b = 345'600;
    for (const auto& q : found) {
        const Position pos = composed(q.fen);
        detail::SearchOutcome out;
        switch (plan) {
            case Plan::gift:
                ASSERT_TRUE(detail::gift_plan(pos, q.side)) << q.fen;
                out = detail::search_rewarded(pos, q.side, b / 4, true);
                break;
            case Plan::targeted_gift: {
                const std::uint8_t files = detail::gift_files(pos, q.side);
                ASSERT_NE(files, 0) << q.fen;
                for (int file = 0; file < 8 && out.kind != detail::SearchOutcome::Kind::mate; ++file)
                    if (files >> file & 1) out = detail::search_rewarded(pos, q.side, b / 4, true, file);
                break;
            }
            case Plan::release:
                ASSERT_TRUE(detail::jailers(pos, q.side).any()) << q.fen;
                out = detail::search_release(pos, q.side, b);
                break;
            case Plan::separated: {
                const std::array<Bitboard, 2> area = detail::separated_area(pos, q.side);
                ASSERT_TRUE(area[0] | area[1]) << q.fen;
                out = detail::ExhaustiveSearch(pos, q.side, area).run(8 * b);
                break;
            }
            case Plan::lever:
                ASSERT_NE(detail::guided_plan(pos, q.side, 9), detail::guided_plan(pos, q.side, 1)) << q.fen;
                out = detail::search_helpmate(pos, q.side, 2 * b / 5, 9);
                break;
            case Plan::bishop_corner:
                ASSERT_TRUE(detail::bishop_corner_plan(pos, q.side)) << q.fen;
                out = detail::search_bishop_corner(pos, q.side, b / 4, 0);
                if (out.kind != detail::SearchOutcome::Kind::mate)
                    out = detail::search_bishop_corner(pos, q.side, b / 16, 1);
                break;
        }
        ASSERT_EQ(out.kind, detail::SearchOutcome::Kind::mate) << q.fen << " (" << out.nodes << " positions)";
        MateVerdict v;
        v.answer = MateAbility::can_checkmate;
        v.proof = MateProof::mating_line;
        v.line = out.line;
        EXPECT_EQ(certificate_problem(pos, q.side, v), "") << q.fen;
    }
    expect_mates_found(found);
}

// Test vectors (d3_test-vector.txt) that need a long tempo manoeuvre with the loser's help; the
// search schedule gives the guided variants and the exhaustive search the budget they need
// within the default limit. (They were unknown before; the corpus test covers the rest.)
TEST(HelpmateSearch, TempoManoeuvresWithinTheDefaultLimit) {
    expect_mates_found({
        {"8/8/7p/1k3p2/3p1P2/1p1P1PpP/1P4P1/K7 b - -", Color::white},  // guided search
        {"1k6/1P1p3p/BP3p2/1P5p/8/3P4/5P1P/6Kq w - -", Color::black},  // exhaustive search
    });
}

// Test vectors where the winner's king is locked in (or its pawns are all blocked) and the only
// mate goes through a gift: the loser's king takes one chosen pawn of the winner, its own pawn on
// that file runs, promotes and is taken by a winner's pawn, which then promotes and mates. Every
// tempo counts; the targeted gift plan finds them (they were unknown before).
TEST(HelpmateSearch, TargetedGiftPlanCountsTempi) {
    expect_plan_finds(
        {
            {"5k2/p1p1p3/8/8/8/6p1/P1P1P1Pp/7K w - -", Color::white},  // the e-pawn is the gift
            {"8/p1p1p3/8/4k3/8/6p1/P1P1P1Pp/7K w - -", Color::white},
            {"k7/p1p1p3/8/8/8/6p1/P1P1P1Pp/7K w - -", Color::white},  // e5-e6 with the king on d5
            {"k7/Pp1p1p1p/1P6/8/8/8/3P1P1P/7K w - -", Color::black},  // the d-pawn is the gift
            {"k7/p1p1p3/8/8/8/P5p1/2P1P1Pp/7K w - -", Color::white},  // in the third round
            {"1k6/1P1p1p1p/BP6/1P6/1p6/8/1P1P1PKP/8 w - -", Color::black},
            {"2b5/1p6/pPp3k1/2Pp3p/P2PpBpP/4P1P1/5K2/8 w - -", Color::black},
        },
        Plan::targeted_gift);
}

// Issue 15: every question is searched in one canonical orientation, so that a position, its
// colour mirror (ranks reversed, White and Black exchanged, the other side asked) and its file
// mirror (files a and h exchanged) get the same answer and proof from the same number of
// positions, and the mating line is turned back into a legal line of the position asked about.
// Composed positions of every kind of proof, none from the test vectors.
TEST(HelpmateOrientation, MirrorsGetTheSameVerdictFromTheSameWork) {
    const HelpmateAnalyzer analyzer;
    const std::pair<const char*, Color> questions[] = {
        {"8/8/8/3k4/8/8/2R5/4K3 w - - 0 1", Color::white},                // a mating line
        {"8/8/8/3k4/8/8/2R5/4K3 w - - 0 1", Color::black},                // material
        {"6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", Color::white},          // back-rank mate
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", Color::white},              // a legal en passant capture
        {"r3k2r/pp4pp/8/8/8/8/PP4PP/R3K2R w KQkq - 0 1", Color::black},   // castling: colours only
        {"3bk3/8/8/p1p1p1p1/P1P1P1P1/8/8/3BK3 w - - 0 1", Color::white},  // blockade
        {"k7/2K5/1P6/8/8/8/8/8 b - - 0 1", Color::white},                 // stalemate
        {"2k5/8/8/1p1p4/1P1P4/8/8/4K3 w - - 0 1", Color::white},          // a pawn ending
        {"8/8/8/8/p7/P7/k1K5/8 w - - 0 1", Color::white},                 // a king walk
    };
    for (const auto& [fen, side] : questions) {
        const Position pos = composed(fen);
        const MateVerdict v = analyzer.can_checkmate(pos, side);
        for (const auto& [mfen, mside] : mirrored_questions(fen, side)) {
            const Position m = composed(mfen);
            const MateVerdict w = analyzer.can_checkmate(m, mside);
            EXPECT_EQ(w.answer, v.answer) << mfen << " mirrors " << fen;
            EXPECT_EQ(w.proof, v.proof) << mfen;
            EXPECT_EQ(w.nodes, v.nodes) << mfen;
            EXPECT_EQ(w.reason, v.reason) << mfen;
            if (w.answer == MateAbility::can_checkmate) EXPECT_EQ(certificate_problem(m, mside, w), "") << mfen;
        }
        if (v.answer == MateAbility::can_checkmate) EXPECT_EQ(certificate_problem(pos, side, v), "") << fen;
    }
    // Castling rights tie the files: only the colour mirror applies.
    EXPECT_FALSE(file_mirror_fen("r3k2r/pp4pp/8/8/8/8/PP4PP/R3K2R w KQkq - 0 1"));
}

// The position seen in another orientation is built directly from the original's bitboards
// (not through a Setup and its validation): it must equal the mirrored FEN read and validated,
// key, castling rights and en passant square included, and turn back into the original.
TEST(HelpmateOrientation, OrientedPositionEqualsTheValidatedMirror) {
    const char* fens[] = {
        "r3k2r/pp4pp/8/8/8/8/PP4PP/R3K2R w KQkq - 0 1",   "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        "3bk3/8/8/p1p1p1p1/P1P1P1P1/8/8/3BK3 b - - 7 40", "k1b5/8/8/BpBpBpBp/1PbPbPpP/6P1/6P1/K1B5 w - - 0 1",
        "8/8/2bk4/8/1PBK1N2/4P1P1/5P2/8 w - - 3 60",
    };
    for (const char* fen : fens) {
        const Position pos = composed(fen);
        detail::Orientation colours;
        colours.colours = true;
        const std::optional<Position> m = detail::oriented(pos, colours);
        ASSERT_TRUE(m) << fen;
        EXPECT_EQ(*m, composed(colour_mirror_fen(fen))) << fen;
        EXPECT_EQ(m->key(), m->compute_key()) << fen;
        EXPECT_EQ(*detail::oriented(*m, colours), pos) << fen;
        if (const auto ffen = file_mirror_fen(fen)) {
            detail::Orientation files;
            files.files = true;
            EXPECT_EQ(*detail::oriented(pos, files), composed(*ffen)) << fen;
        }
    }
}

// The issue's example: the colour mirror of a test vector (Black to mate through a wall of its
// pawns and White's bishops) came back unknown at the default limit, where the vector itself
// took 1.3 million positions. Searched as the canonical orientation, both take the same work, well
// within half the limit.
TEST(HelpmateOrientation, ColourMirrorOfAWallOfPawnsAndBishops) {
    const HelpmateAnalyzer analyzer;
    const char* mirror = "K1k5/8/8/8/8/p1p1p1p1/PbPbPbP1/2b1b1b1 b - - 0 1";
    const MateVerdict v = analyzer.can_checkmate(composed(mirror), Color::black);
    ASSERT_EQ(v.answer, MateAbility::can_checkmate) << v.reason;
    EXPECT_EQ(certificate_problem(composed(mirror), Color::black, v), "");
    EXPECT_LE(v.nodes, HelpmateOptions{}.node_limit / 2);
    const MateVerdict w = analyzer.can_checkmate(composed(colour_mirror_fen(mirror)), Color::white);
    EXPECT_EQ(w.nodes, v.nodes);
}

// Test vectors where the winner's only mobile material is bishops of one colour (its pawns
// blocked head-on, its knight shut in by its own pawns, its king walled in): the loser's king
// walks to a corner of the bishops' colour, its own bishops of the other colour block the two
// squares next to it, and a bishop checks along the long diagonal. The bishop corner search finds them in a few
// thousand positions (they were unknown before: the guided search needed 9.75 million, or more than 40 million).
// The lever plan: a pawn of the winner blocked head-on gets free by taking a loser's pawn that
// has taken a piece given on the square diagonally in front of it (the first is the example of
// issue 35: Black gives a bishop on f3, g2xf3 g4xf3, and the f-pawn runs; the others are the same
// kind composed with the lever on other files, or the kings elsewhere).
TEST(HelpmateSearch, LeverPlan) {
    expect_plan_finds(
        {
            {"k1b5/8/8/BpBpBpBp/1PbPbPpP/6P1/6P1/K1B5 w - -", Color::black},
            {"k1b5/8/8/BpBpBpBp/1PpPbPbP/2P5/2P5/K1B5 w - -", Color::black},
            {"k1b5/8/8/BpBpBpBp/1PbPpPbP/4P3/4P3/K1B5 w - -", Color::black},
            {"k1b5/8/8/1pBpBpBp/1PbPbPpP/6P1/6P1/K1B5 w - -", Color::black},
            {"k1b5/8/8/BpBpBpBp/1PbPbPpP/6P1/6P1/1KB5 w - -", Color::black},
        },
        Plan::lever);
    // Without a blocked pawn that a loser's pawn could let through, the plan is variant 1's.
    const Position none = composed("4k3/8/8/3p4/3P4/8/8/4K2B w - -");
    EXPECT_EQ(detail::guided_plan(none, Color::white, 9), detail::guided_plan(none, Color::white, 1));
}

TEST(HelpmateSearch, BishopCornerPlan) {
    expect_plan_finds(
        {
            {"4B3/1k3B1B/7b/4bB2/1p1p1pBp/bPpP1P1P/2Pb2K1/N1b1b3 b - -", Color::white},
            {"k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -", Color::white},
        },
        Plan::bishop_corner);
}

// A test vector where the gift (the a6 pawn) is defended by bishops caged behind the winner's
// pawns: they must make room, stepping away from it one after the other, until neither b7 nor c8
// holds a bishop; then the loser's king takes a6, the a-pawn promotes, the queen is taken on b7
// and the new pawn promotes and mates. The gift plan counts those steps as progress (before,
// only the guided search found it, with 38 million positions; two more vectors like it need 2.5
// million positions in the schedule).
TEST(HelpmateSearch, GiftPlanMakesRoomAroundADefendedGift) {
    expect_plan_finds({{"2B1B1B1/pBpBpBp1/P1P1P1P1/8/8/8/8/k1K5 w - -", Color::white}}, Plan::gift);
}

// The gift is guarded: a knight of the winner on a1 covers the c2 pawn the loser's king must take,
// and the way to it runs round the pawn wall. The gift plan walks the king by the shortest way
// round the pawns (not the straight line) and counts taking a guard of the gift as progress; it
// finds these in the second round (before, the first was found by the guided search at 1.8M
// positions and the second not within the default limit).
TEST(HelpmateSearch, GiftPlanTakesTheGuardsOfTheGift) {
    expect_plan_finds(
        {
            {"8/8/1p6/bP6/Bp1k4/1Pp5/2P5/NK6 w - -", Color::white},
            {"k7/8/1p6/bP6/Bp6/1Pp5/2P5/NK6 b - -", Color::white},
        },
        Plan::gift);
}

// The loser's king must meet the gift (the e-pawn, walking up) on its file with no step to
// spare, since every white move is a counted tempo: of the king's steps towards the gift, those
// nearer its own pawn behind the gift come first (b2-c3-d4 rather than b1-c1-d2). Unknown before.
TEST(HelpmateSearch, TargetedGiftKingMeetsTheGiftUpTheFile) {
    expect_plan_finds({{"8/p1p1p3/8/8/8/6p1/PkP1P1Pp/7K w - -", Color::white}}, Plan::targeted_gift);
}

// A rook boxed in by its own units (g1, behind the king, a bishop and pawns) is no mating force:
// the position counts as closed and the exhaustive search goes first, which finds the 96-ply
// mate (the black king walks round to free the white king) within the default limit. Unknown
// before: the exhaustive search needs 2.7 million positions of its own.
TEST(HelpmateSearch, BoxedInRookLeavesThePositionClosed) {
    expect_mates_found({{"8/8/5p2/2p1pPp1/2PbPk1b/2pBp1pB/2P1P1P1/5BRK b - -", Color::white}}, "exhaustive search");
}

// The gift must not step where the loser's king can no longer reach it: here ...a6-a5 too early
// would leave the pawn out of the white king's reach (b4 and b5 attacked by black pawns), so the
// targeted gift plan keeps the step for the moment the king stands on b4 (...a5+, Kxa5). With
// black to move this test vector was unknown even at 40 million positions.
TEST(HelpmateSearch, TargetedGiftWaitsForTheLoserKing) {
    expect_plan_finds({{"2b5/1p6/pPp3k1/2Pp3p/P2PpBpP/4P1P1/5K2/8 b - -", Color::black}}, Plan::targeted_gift);
}

// The release plan: black's king is shut in on a8 and b8 (a7 and c7 attacked by white pawns) by
// its own bishop c8, which its pawns b7 and d7 hem in. Only white's king can open the door, by
// walking to the bishop and taking it while black's king stands out of the way; then black's
// king comes out and mates. (Test vectors; before the release plan the first needed 1.3 million
// positions, the second 1.2 million. `k1b5/1p1p4/1P1Pb3/B7/8/8/8/K7 w`, of the same family, is
// now found first by the gift plan, which counts taking a guard of the gift as progress.)
TEST(HelpmateSearch, ReleasePlanOpensTheDoor) {
    expect_plan_finds(
        {
            {"1kb5/1p1p2p1/1P1P4/6p1/6Pb/6p1/6P1/7K w - -", Color::black},
            {"k1b5/1p1pK3/1P1P4/8/8/8/bB6/8 b - -", Color::black},
        },
        Plan::release);
}

// Issue 15: each plan aimed at test vectors also finds the same idea in positions composed for
// these tests (other squares, a unit more or fewer, the kings elsewhere), none of them in the
// vector file. docs/unwinnability.md ("Plans and the ideas they capture") names the idea.
TEST(HelpmatePlansGeneralise, BishopCorner) {
    expect_plan_finds(
        {
            {"k6B/1b4B1/2b2B2/4B3/3B4/1pB5/pP1B4/K7 w - -", Color::white},  // a bishop fewer
            {"k6B/1b6/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -", Color::white},
            {"4B3/k4B1B/7b/4bB2/1p1p1pBp/bPpP1P1P/2Pb2K1/N1b1b3 b - -", Color::white},  // the king on a7
            {"4B3/1k3B1B/7b/4bB2/1p1p1pBp/bPpP1P1P/2Pb2K1/N1b5 b - -", Color::white},
        },
        Plan::bishop_corner);
}

TEST(HelpmatePlansGeneralise, GiftPlan) {
    expect_plan_finds(
        {
            {"2B1B3/pBpBp3/P1P1P3/8/8/8/8/k1K5 w - -", Color::white},  // a narrower wall of bishops
            {"8/8/1p6/bP6/Bp6/1Pp2k2/2P5/NK6 w - -", Color::white},    // the guarded gift, the king elsewhere
            {"8/8/1p6/bP6/Bp6/1Pp5/2P5/NK4k1 w - -", Color::white},
            {"1kb5/1p1p3p/1P1P4/7p/7P/8/8/5K2 w - -", Color::black},  // the door bishop is the guard
        },
        Plan::gift);
}

TEST(HelpmatePlansGeneralise, TargetedGiftPlan) {
    expect_plan_finds(
        {
            {"1kb5/1p1p1p2/1P1P4/5p2/5Pb1/5p2/5P2/6K1 w - -", Color::black},  // the wall a file over
            {"k1b5/1p1p2p1/1P1P4/6p1/6Pb/6p1/6P1/7K w - -", Color::black},
        },
        Plan::targeted_gift);
}

TEST(HelpmatePlansGeneralise, ReleasePlan) {
    expect_plan_finds({{"1kb5/1p1p2p1/1P1P4/6p1/6Pb/6p1/6P1/5K2 w - -", Color::black}}, Plan::release);
}

// A rook boxed in by its own king, bishop and pawns counts as no mating force, so the closed
// position goes to the exhaustive search first, which proves at once that no mate exists (with
// the rook counted as free, the other searches would spend their first round's budget first).
TEST(HelpmatePlansGeneralise, BoxedInRookLeavesThePositionClosed) {
    const HelpmateAnalyzer analyzer;
    const MateVerdict v =
        analyzer.can_checkmate(composed("8/8/5p2/2p1pPp1/2PbPk2/2pBp1pB/2P1P1P1/5BRK b - -"), Color::white);
    EXPECT_EQ(v.answer, MateAbility::cannot_checkmate);
    EXPECT_EQ(v.proof, MateProof::exhaustive_search);
    EXPECT_LT(v.nodes, 5'000u);
}

// Kings boxed in by their own pawns, with bishops of both sides that can only shuffle behind the
// pawns, away from the kings: the exhaustive search would visit every placement of those
// bishops; the search of the separated game leaves them out of its key (they still give tempo
// moves) and finds the mate at the top. The first is issue 35's example, from a public labelled
// set; the other three were composed for this test (other bishops below the wall, other side
// to move) and were unknown at the default limit before the plan.
TEST(HelpmateSearch, SeparatedGameOfBoxedKings) {
    expect_plan_finds(
        {
            {"BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - -", Color::white},
            {"BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/2B4b/1B4b1/4B3/8 w - -", Color::white},
            {"BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/B1Bb4/7B/8/8 w - -", Color::white},
            {"BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/5b2/2b2B2 w - -", Color::white},
        },
        Plan::separated);
}

// What separated_area leaves out: the bishops below the wall of boxed kings (White's light ones
// can never cross the light squares the pawns hold, Black's dark one the dark ones), and
// nothing where no pawns stand head-on or castling rights remain.
TEST(HelpmateSearch, SeparatedAreaIsTheRegionsOfTheUnitsAway) {
    const Position boxed = composed("BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/8/8/8/1B2b2B b - -");
    const std::array<Bitboard, 2> area = detail::separated_area(boxed, Color::white);
    const Bitboard white = area[index(Color::white)], black = area[index(Color::black)];
    EXPECT_TRUE(white.contains(Square::b1) && white.contains(Square::h1) && white.contains(Square::d5));
    EXPECT_FALSE(white.contains(Square::a8) || white.contains(Square::c8) || white.contains(Square::b7));
    EXPECT_TRUE(black.contains(Square::e1) && black.contains(Square::d6));
    EXPECT_FALSE(black.contains(Square::e8) || black.contains(Square::f8) || black.contains(Square::b8));
    EXPECT_EQ((white & Bitboard::dark_squares()), Bitboard());
    EXPECT_EQ((black & Bitboard::light_squares()), Bitboard());
    const std::array<Bitboard, 2> open = detail::separated_area(composed("4k3/8/8/8/8/8/1B6/4K2b w - -"), Color::white);
    EXPECT_EQ(open[0] | open[1], Bitboard());
    const std::array<Bitboard, 2> castling =
        detail::separated_area(composed("r3k3/1p6/1P6/8/8/8/8/4K2B w q -"), Color::white);
    EXPECT_EQ(castling[0] | castling[1], Bitboard());
}

// The dead positions of the same kind: the search of the separated game proves them, because
// no unit outside the game (the bishops below the wall) can take a wall, be taken by a pawn of
// the walls or guard a wall that a unit in the game could take, and no move in the game touches
// the walls (the bishops b8 and a7, which shut each other in, and f8 count as walls). The plain
// exhaustive search visits every placement of the bishops below and stops at the limit; chasolver
// 3.0 says unwinnable too. The first was generated for issue 35's composed set, the second
// composed for this test.
TEST(HelpmateSearch, SeparatedGameProvesDeadBoxedKings) {
    const HelpmateAnalyzer analyzer;
    for (const auto& [fen, side] : std::initializer_list<std::pair<const char*, Color>>{
             {"BbK1kb2/b1p1p1p1/1pP1P1P1/1P6/6B1/1Bb5/8/6b1 b - -", Color::black},
             {"1bK1kb2/b1p1p1p1/1pP1P1P1/1P6/B1B5/4b3/BbBb4/8 w - -", Color::white},
             {"1bK1kb2/b1p1p1p1/1pP1P1P1/1P6/B1B5/4b3/BbBb4/8 w - -", Color::black},
         }) {
        const MateVerdict v = analyzer.can_checkmate(composed(fen), side);
        EXPECT_EQ(v.answer, MateAbility::cannot_checkmate) << fen;
        EXPECT_EQ(v.reason, "exhaustive search of the separated game: no reachable position is a mate") << fen;
        EXPECT_LT(v.nodes, 20'000u) << fen;
    }
}

// No proof where a unit outside the game guards a wall that the game could take: here the
// bishop a3 (below the wall) could guard e7, which White's king takes on the way to the mate
// (Kd8, Kxe7, e7, e8=Q): the first version of the proof missed that and called the position
// dead.
TEST(HelpmateSearch, SeparatedGameIsNoProofWhereAWallMayFall) {
    const Position pos = composed("BbK1k3/b1p1p1p1/1pP1P1P1/1P6/4B1B1/b7/8/3B4 w - -");
    const MateVerdict v = HelpmateAnalyzer().can_checkmate(pos, Color::white);
    EXPECT_EQ(certificate_problem(pos, Color::white, v), "");
    // The colour mirror, as the analyzer searches it: the proof is refused.
    const Position mirrored = composed(colour_mirror_fen("BbK1k3/b1p1p1p1/1pP1P1P1/1P6/4B1B1/b7/8/3B4 w - -"));
    const std::array<Bitboard, 2> area = detail::separated_area(mirrored, Color::black, true);
    EXPECT_EQ(area[0] | area[1], Bitboard());
}

// Property: wherever the search of the separated game proves that no mate is reachable, the plain
// exhaustive search finds none either. Over positions generated like issue 35's composed set:
// kings boxed in above a wall of pawns with bishops that shut each other in (four tops), one to
// six bishops of either side on any squares below the wall, either side to move, the board
// turned at random, both sides asked.
TEST(HelpmateSearch, SeparatedProofsAgreeWithThePlainSearch) {
    std::mt19937 rng(35);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const std::array<const char*, 4> tops{"BbK1kb2/b1p1p1p1/1pP1P1P1/1P6", "1bK1kb2/b1p1p1p1/1pP1P1P1/1P6",
                                          "BbK1k3/b1p1p1p1/1pP1P1P1/1P6", "1bK1k3/b1p1p1p1/1pP1P1P1/1P6"};
    int proofs = 0, checked = 0;
    for (int i = 0; i < 1000; ++i) {
        std::array<std::string, 4> below;  // ranks 4, 3, 2, 1, files a to h
        below.fill(std::string(8, '.'));
        for (int n = 1 + pick(6); n > 0; --n)
            below[static_cast<std::size_t>(pick(4))][static_cast<std::size_t>(pick(8))] = "Bb"[pick(2)];
        std::string fen = tops[static_cast<std::size_t>(pick(4))];
        for (const std::string& rank : below) fen += "/" + arbiter::testing::packed_rank(rank);
        fen += pick(2) ? " w - -" : " b - -";
        if (pick(2)) fen = colour_mirror_fen(fen);
        if (pick(2)) fen = file_mirror_fen(fen).value_or(fen);
        const auto pos = composed_position_from_fen(fen);
        if (!pos) continue;  // a king in check on the side not to move
        for (Color side : {Color::white, Color::black}) {
            const std::array<Bitboard, 2> area = detail::separated_area(*pos, side, true);
            if (!(area[0] | area[1])) continue;
            detail::ExhaustiveSearch separated(*pos, side, area, detail::separation_walls(*pos));
            const detail::SearchOutcome proof = separated.run(200'000);
            if (proof.kind != detail::SearchOutcome::Kind::exhausted) continue;
            ++proofs;
            const detail::SearchOutcome plain = detail::exhaust_helpmate(*pos, side, 1'000'000);
            EXPECT_NE(plain.kind, detail::SearchOutcome::Kind::mate)
                << fen << " " << (side == Color::white ? "white" : "black");
            checked += plain.kind == detail::SearchOutcome::Kind::exhausted;
        }
    }
    EXPECT_GE(proofs, 100);
    EXPECT_GE(checked, 50);
    std::cout << "separated proofs " << proofs << ", confirmed by the plain search " << checked << "\n";
}

// A composed position may hold more than 32 units (surplus pieces are accepted): the blockade
// proof and the separation plan, which keep units in arrays of 32, decline it instead of
// writing past them (the blockade proof used to, and the analysis never came back).
// Composed positions may hold more than a game's 32 units; the proofs keep up to 64, all a board
// holds. Fifty units, both sides can mate; thirty-four (eight light bishops and eight pawns a
// side, which no game reaches), a dead position the blockade proof settles for both sides.
TEST(HelpmateSearch, MoreThanThirtyTwoUnitsAreAnalysed) {
    const char* rich = "BBBBBBBB/bbbbbbbb/BBBBBBBB/pppppppp/PPPPPPPP/bbbbbbbb/K7/7k w - -";
    const char* dead = "7k/1B3B1B/BpB1BpBp/pPpBpPpP/PbPpPbPb/b1bPb1b1/3b4/K7 w - -";
    ASSERT_EQ(composed(rich).occupied().count(), 50);
    ASSERT_EQ(composed(dead).occupied().count(), 34);
    for (Color side : {Color::white, Color::black}) {
        const Position pos = composed(rich);
        EXPECT_FALSE(detail::blockade_proof(pos, side));
        const MateVerdict v = HelpmateAnalyzer().can_checkmate(pos, side);
        EXPECT_EQ(v.answer, MateAbility::can_checkmate) << rich;
        EXPECT_EQ(certificate_problem(pos, side, v), "") << rich;
        EXPECT_NE(FastUnwinnability().ability(pos, side), MateAbility::cannot_checkmate);
        const Position closed = composed(dead);
        EXPECT_TRUE(detail::blockade_proof(closed, side)) << dead;
        EXPECT_EQ(HelpmateAnalyzer().can_checkmate(closed, side).proof, MateProof::blockade) << dead;
    }
}

TEST(HelpmateOptions, QuickModeAnswersRichPositions) {
    HelpmateOptions options;
    options.mode = HelpmateOptions::Mode::quick;
    const HelpmateAnalyzer quick(options);
    const Position pos = composed("r1bqk2r/2p1bppp/p1pp1n2/4p3/4P3/3PBN1P/PPPN1PP1/R2QK2R b KQkq - 4 8");
    for (Color side : {Color::white, Color::black}) {
        const MateVerdict v = quick.can_checkmate(pos, side);
        EXPECT_EQ(v.answer, MateAbility::can_checkmate) << name(side);
        EXPECT_EQ(certificate_problem(pos, side, v), "");
        EXPECT_LE(v.nodes, options.quick_node_limit + 100);
    }
}

TEST(HelpmateDefault, IsTheHelpmateAnalyzer) {
    const Unwinnability& u = default_unwinnability();
    EXPECT_NE(dynamic_cast<const HelpmateAnalyzer*>(&u), nullptr);
    const Position pos = composed("8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - -");
    EXPECT_EQ(u.can_checkmate(pos, Color::white).answer, MateAbility::cannot_checkmate);
}

TEST(HelpmateNames, AreStable) {
    EXPECT_STREQ(mate_proof_name(MateProof::none), "none");
    EXPECT_STREQ(mate_proof_name(MateProof::already_mated), "already_mated");
    EXPECT_STREQ(mate_proof_name(MateProof::mating_line), "mating_line");
    EXPECT_STREQ(mate_proof_name(MateProof::game_over), "game_over");
    EXPECT_STREQ(mate_proof_name(MateProof::material), "material");
    EXPECT_STREQ(mate_proof_name(MateProof::blockade), "blockade");
    EXPECT_STREQ(mate_proof_name(MateProof::exhaustive_search), "exhaustive_search");
}

}  // namespace

namespace {

// The automatic check never contradicts the full analysis: it answers the same, or unknown.
TEST(HelpmateAbility, AgreesWithTheFullAnalysis) {
    const HelpmateAnalyzer analyzer;
    for (const Case& c : cases) {
        const Position pos = composed(c.fen);
        for (Color side : {Color::white, Color::black}) {
            const MateAbility quick = analyzer.ability(pos, side);
            if (quick != MateAbility::unknown)
                EXPECT_EQ(quick, analyzer.can_checkmate(pos, side).answer) << c.fen << " " << name(side);
        }
    }
    // Dead positions are found; a position with free mating material is proven alive by the
    // analysis (HelpmateOptions::exact, the default) and, without exact (the audit's replay), is
    // answered unknown without a search.
    EXPECT_EQ(analyzer.ability(composed("8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - -"), Color::white),
              MateAbility::cannot_checkmate);
    EXPECT_EQ(analyzer.ability(composed(std::string(start_fen)), Color::white), MateAbility::can_checkmate);
    EXPECT_EQ(unwinnability_without_locked_check().ability(composed(std::string(start_fen)), Color::white),
              MateAbility::unknown);
}

// Along a game, the answer carried over from the previous ply (no mate stays no mate; a mate
// from a position that can be reached again stays reachable) matches a fresh analysis.
TEST(HelpmateAbility, CarriesOverAlongAGame) {
    const HelpmateAnalyzer analyzer;
    const HelpmateAnalyzer fresh;  // same thread, but asked through can_checkmate only
    // A knight against a bishop, no pawns: no side has free mating material, both can mate.
    Position pos = composed("8/8/4k3/8/3b4/3K4/8/5N2 w - - 0 1");
    const char* walk[] = {"Ke2", "Ke5", "Kf3", "Bc5", "Ng3", "Kd5", "Ke2", "Ke5", "Nf1", "Bd4", "Kd3"};
    for (const char* san : walk) {
        for (Color side : {Color::white, Color::black}) {
            const MateAbility a = analyzer.ability(pos, side);
            EXPECT_EQ(a, fresh.can_checkmate(pos, side).answer) << to_fen(pos) << " " << name(side);
        }
        auto m = parse_san(pos, san);
        ASSERT_TRUE(m.has_value()) << san;
        pos.play_unchecked(*m);
    }
    // A blockade stays a blockade whatever the kings do.
    pos = composed("8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1");
    for (const char* san : {"Kd3", "Kd6", "Ke3", "Ke6", "Kf3", "Kf6"}) {
        EXPECT_EQ(analyzer.ability(pos, Color::white), MateAbility::cannot_checkmate);
        EXPECT_EQ(analyzer.ability(pos, Color::black), MateAbility::cannot_checkmate);
        pos.play_unchecked(*parse_san(pos, san));
    }
}

// The rules layer ends a game in a dead position through the default analyzer (5.2.2).
TEST(HelpmateAbility, GameRecordEndsInADeadPosition) {
    GameRecord rec(composed("8/8/2k5/p1p1p1p1/P1P1P1P1/3K4/8/8 b - - 0 1"));
    ASSERT_FALSE(rec.play(std::string_view("Kd6")).has_value());
    ASSERT_TRUE(rec.ended());
    EXPECT_EQ(rec.termination()->kind, TerminationKind::dead_position);
    EXPECT_EQ(rec.termination()->result, "1/2-1/2");
}

}  // namespace

// The analysis's per-thread tables (analysis_thread_memory): none on a thread that asked only
// what needs no search, set up once on the first search and not again, whatever follows.
TEST(HelpmateThreadTables, SetUpOnceAndOnlyBySearching) {
    std::size_t before = 1, after_first = 0, after_more = 0;
    std::thread([&] {
        const HelpmateAnalyzer analyzer;
        // Material that cannot mate, and a game over: answered without a search.
        (void)analyzer.can_checkmate(composed("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"), Color::white);
        (void)analyzer.can_checkmate(composed("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), Color::white);
        before = analysis_thread_memory();
        (void)analyzer.can_checkmate(composed("4k3/8/8/8/8/8/8/2B1K1N1 w - - 0 1"), Color::white);
        after_first = analysis_thread_memory();
        for (const char* fen :
             {"4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", "8/8/8/4k3/8/8/2P5/4K3 w - - 0 1", "r3k3/8/8/8/8/8/8/4K2R w - - 0 1"})
            for (Color side : {Color::white, Color::black}) (void)analyzer.can_checkmate(composed(fen), side);
        after_more = analysis_thread_memory();
    }).join();
    EXPECT_EQ(before, 0u);
    EXPECT_GT(after_first, std::size_t{1} << 20);  // the transposition table alone is 1 MiB
    EXPECT_LT(after_first, std::size_t{3} << 20);
    EXPECT_LE(after_more - after_first, std::size_t{1} << 10);  // at most an exhaustive search's state
}

// A SearchInterrupt stops the searches of its thread: the answer comes back `unknown` after a
// few thousand positions instead of the 1.7 million the question takes (Ctrl-C in Python's dead()).
TEST(HelpmateInterrupt, StopsTheSearchesOfItsThread) {
    const Position pos = composed("k1K5/p1p5/PbPp4/1BpP4/1pP5/1Pp5/B1P5/1B6 w - - 0 1");
    const HelpmateAnalyzer analyzer;
    const MateVerdict whole = analyzer.can_checkmate(pos, Color::black);
    ASSERT_EQ(whole.answer, MateAbility::can_checkmate);
    ASSERT_GT(whole.nodes, 1'000'000u);

    struct Count {
        int polls = 0;
        int fire_at = 0;
    } count{0, 3};
    const auto poll = [](void* c) {
        auto& k = *static_cast<Count*>(c);
        return ++k.polls >= k.fire_at;
    };
    {
        const SearchInterrupt guard(poll, &count);
        const MateVerdict stopped = analyzer.can_checkmate(pos, Color::black);
        EXPECT_TRUE(guard.fired());
        EXPECT_EQ(stopped.answer, MateAbility::unknown);
        EXPECT_LT(stopped.nodes, 100'000u);
        EXPECT_EQ(count.polls, 3);  // not polled again once it fired
        EXPECT_TRUE(SearchInterrupt::requested());
    }
    // The guard gone, nothing is interrupted; a guard that never fires changes no answer.
    EXPECT_FALSE(SearchInterrupt::requested());
    Count never{0, 1 << 30};
    const SearchInterrupt guard(poll, &never);
    const MateVerdict again = analyzer.can_checkmate(pos, Color::black);
    EXPECT_EQ(again.answer, MateAbility::can_checkmate);
    EXPECT_EQ(again.nodes, whole.nodes);
    EXPECT_GT(never.polls, 100);
    EXPECT_FALSE(guard.fired());
}
