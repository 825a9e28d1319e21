// Every test vector of RULES.md §7 that the rules layer owns (TV-REP-1…7, TV-5F-1…2,
// TV-50-1…3, TV-75-1, TV-SETUP-1), under each rule set whose outcome differs.
#include <gtest/gtest.h>

#include "rules_test_util.hpp"

using namespace arbiter;
using arbiter::testing::move_of;
using arbiter::testing::record;
using arbiter::testing::repeat;

namespace {
const std::string knights = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";
}

TEST(TvRep1, InitialPositionCounts) {
    // At ply 7 Black claims with the intended 4...Ng8 (9.2.1).
    auto r7 = record("", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    auto v7 = evaluate_claim(r7, ClaimKind::threefold, move_of(r7, "Ng8"));
    EXPECT_TRUE(v7.correct);
    EXPECT_EQ(v7.article, "9.2.1");
    EXPECT_EQ(v7.claimant, Color::black);
    ASSERT_EQ(v7.occurrences.size(), 3u);
    EXPECT_EQ(v7.occurrences[0].ply, 0u);
    EXPECT_EQ(v7.occurrences[1].ply, 4u);
    EXPECT_EQ(v7.occurrences[2].ply, 8u);
    EXPECT_EQ(v7.occurrences[2].label, "intended 4...Ng8");
    // At ply 8 White claims (9.2.2).
    auto r8 = record("", knights);
    EXPECT_EQ(r8.occurrences(8), 3u);
    EXPECT_EQ(r8.occurrence_indices(8), (std::vector<std::size_t>{0, 4, 8}));
    auto v8 = evaluate_claim(r8, ClaimKind::threefold);
    EXPECT_TRUE(v8.correct);
    EXPECT_EQ(v8.article, "9.2.2");
    EXPECT_EQ(v8.occurrences[1].label, "2...Ng8");
    EXPECT_FALSE(r8.ended());
}

TEST(TvRep1, InitialPositionDoesNotCountOption) {
    RuleOptions o;
    o.initial_position_counts = false;
    auto r = record("", knights, RuleSetId::fide_2023, o);
    EXPECT_EQ(r.occurrences(8), 2u);
    EXPECT_FALSE(evaluate_claim(r, ClaimKind::threefold).correct);
}

TEST(TvRep1, FivefoldAtPly16) {
    for (auto id : {RuleSetId::fide_2023, RuleSetId::fide_2018, RuleSetId::fide_2014}) {
        auto r = record("", knights + " " + knights, id);
        ASSERT_TRUE(r.ended()) << rule_set(id).name;
        EXPECT_EQ(r.termination()->kind, TerminationKind::fivefold_repetition);
        EXPECT_EQ(r.termination()->index, 16u);
        EXPECT_EQ(r.termination()->result, "1/2-1/2");
    }
    auto u = record("", knights + " " + knights, RuleSetId::uscf);
    EXPECT_FALSE(u.ended());
    ASSERT_EQ(u.director_may_declare(16).size(), 1u);
    EXPECT_EQ(u.director_may_declare(16)[0].kind, TerminationKind::fivefold_repetition);
    auto old = record("", knights + " " + knights, RuleSetId::fide_2009);
    EXPECT_FALSE(old.ended());
    EXPECT_TRUE(old.director_may_declare(16).empty());
    // Online: the third occurrence already ends the game (R-ONLINE default).
    auto online = record("", knights, RuleSetId::fide_online);
    ASSERT_TRUE(online.ended());
    EXPECT_EQ(online.termination()->kind, TerminationKind::threefold_repetition);
    EXPECT_EQ(online.termination()->index, 8u);
    RuleOptions claims_only;
    claims_only.online_threefold_automatic = false;
    EXPECT_FALSE(record("", knights, RuleSetId::fide_online, claims_only).ended());
}

TEST(TvRep2, EnPassantOnlyAtTheFirstOccurrence) {
    const std::string line = "e4 Nf6 e5 d5 Be2 Bd7 Bf1 Bc8 Bd3 Be6 Bf1 Bc8 Bc4 Bf5 Bf1 Bc8";
    auto r = record("", line);
    EXPECT_EQ(r.position(4).legal_ep_square(), Square::d6);
    EXPECT_EQ(r.occurrences(4), 1u);
    EXPECT_EQ(r.occurrences(8), 1u);
    EXPECT_EQ(r.occurrences(12), 2u);
    EXPECT_EQ(r.occurrences(16), 3u);
    auto at12 = record("", "e4 Nf6 e5 d5 Be2 Bd7 Bf1 Bc8 Bd3 Be6 Bf1 Bc8");
    auto v12 = evaluate_claim(at12, ClaimKind::threefold);
    EXPECT_FALSE(v12.correct);
    ASSERT_EQ(v12.lookalikes.size(), 1u);
    EXPECT_EQ(v12.lookalikes[0].position.ply, 4u);
    EXPECT_TRUE(v12.lookalikes[0].en_passant_differs);
    EXPECT_FALSE(v12.lookalikes[0].castling_rights_differ);
    EXPECT_NE(v12.reason.find("en passant"), std::string::npos);
    EXPECT_TRUE(evaluate_claim(r, ClaimKind::threefold).correct);
}

TEST(TvRep3, DoubleStepWithoutPossibleCapture) {
    auto r = record("", "e4 Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1");
    EXPECT_EQ(r.position(1).ep_square(), Square::e3);          // FEN writes e3
    EXPECT_EQ(r.position(1).legal_ep_square(), Square::none);  // but no capture is possible
    EXPECT_EQ(r.occurrences(9), 3u);
    EXPECT_TRUE(evaluate_claim(r, ClaimKind::threefold).correct);
    auto r8 = record("", "e4 Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8");
    EXPECT_TRUE(evaluate_claim(r8, ClaimKind::threefold, move_of(r8, "Ng1")).correct);
    const auto opts = threefold_options(r8);
    EXPECT_FALSE(opts.now);
    EXPECT_EQ(opts.intended, (std::vector<Move>{move_of(r8, "Ng1")}));
}

TEST(TvRep4, PseudoLegalButIllegalEnPassant) {
    auto r = record("8/8/8/8/2kp4/8/4P3/4KB2 w - - 0 1", "e4+ Kc3 Ke2 Kc4 Ke1+ Kc3 Ke2 Kc4 Ke1+");
    EXPECT_EQ(r.position(1).ep_square(), Square::e3);
    EXPECT_EQ(r.position(1).legal_ep_square(), Square::none);
    EXPECT_EQ(r.occurrences(9), 3u);
    EXPECT_TRUE(evaluate_claim(r, ClaimKind::threefold).correct);
}

TEST(TvRep5, CastlingRightsLostBetweenOccurrences) {
    const std::string line = "e4 e5 Qe2 Qe7 Qd1 Qd8 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8";
    auto r = record("", line);
    EXPECT_EQ(r.occurrences(2), 1u);
    EXPECT_EQ(r.occurrences(6), 2u);
    EXPECT_EQ(r.occurrences(10), 1u);  // same placement, rights gone: a new position
    EXPECT_EQ(r.occurrences(14), 2u);
    EXPECT_EQ(r.occurrences(18), 3u);
    auto at10 = record("", "e4 e5 Qe2 Qe7 Qd1 Qd8 Ke2 Ke7 Ke1 Ke8");
    auto v = evaluate_claim(at10, ClaimKind::threefold);
    EXPECT_FALSE(v.correct);
    ASSERT_EQ(v.lookalikes.size(), 2u);
    EXPECT_TRUE(v.lookalikes[0].castling_rights_differ);
    EXPECT_NE(v.lookalikes[0].why.find("KQkq then, - now"), std::string::npos);
    EXPECT_TRUE(evaluate_claim(r, ClaimKind::threefold).correct);
}

TEST(TvRep6, RightHeldWhileCastlingImpossibleThenForfeited) {
    auto r = record("r3k3/8/8/3N4/8/8/8/7K w q - 0 1", "Nc7+ Kd8 Nd5 Ke8 Nc7+ Kd8 Nd5 Ke8 Nc7+");
    EXPECT_EQ(r.position(1).castling_rooks(), Bitboard(Square::a8));
    EXPECT_EQ(r.occurrences(9), 2u);
    EXPECT_FALSE(evaluate_claim(r, ClaimKind::threefold).correct);
}

TEST(TvRep7, InterchangedIdenticalPieces) {
    auto r = record("4k3/8/8/8/8/4K3/8/R6R w - - 0 1", "Rh2 Kd8 Rah1 Ke8 Ra2 Kd8 Raa1 Ke8");
    EXPECT_EQ(r.occurrences(8), 2u);
    EXPECT_EQ(r.occurrence_indices(8), (std::vector<std::size_t>{0, 8}));
}

TEST(Tv5F1, EightPlyCycleSeparates2014From2017) {
    const std::string fen = "7k/8/8/8/8/3R4/8/K7 w - - 0 1";
    const std::string cycle = repeat("Ka2 Kh7 Kb2 Kg7 Kb1 Kg8 Ka1 Kh8", 4);
    for (auto id : {RuleSetId::fide_2023, RuleSetId::fide_2018}) {
        auto r = record(fen, cycle, id);
        ASSERT_TRUE(r.ended());
        EXPECT_EQ(r.termination()->kind, TerminationKind::fivefold_repetition);
        EXPECT_EQ(r.termination()->index, 32u);
        EXPECT_EQ(r.termination()->article, "9.6.1");
    }
    auto r14 = record(fen, cycle, RuleSetId::fide_2014);
    EXPECT_FALSE(r14.ended());
    EXPECT_EQ(r14.occurrences(32), 5u);
    auto us = record(fen, cycle, RuleSetId::uscf);
    EXPECT_TRUE(us.director_may_declare(32).empty());
    // Claims: White from ply 16; Black at ply 15 with the intended Kh8.
    auto r16 = record(fen, repeat("Ka2 Kh7 Kb2 Kg7 Kb1 Kg8 Ka1 Kh8", 2));
    EXPECT_TRUE(evaluate_claim(r16, ClaimKind::threefold).correct);
    auto r15 = record(fen, repeat("Ka2 Kh7 Kb2 Kg7 Kb1 Kg8 Ka1 Kh8", 1) + "Ka2 Kh7 Kb2 Kg7 Kb1 Kg8 Ka1");
    EXPECT_TRUE(evaluate_claim(r15, ClaimKind::threefold, move_of(r15, "Kh8")).correct);
    auto r14b = record(fen, repeat("Ka2 Kh7 Kb2 Kg7 Kb1 Kg8 Ka1 Kh8", 1) + "Ka2 Kh7 Kb2 Kg7 Kb1 Kg8");
    EXPECT_FALSE(evaluate_claim(r14b, ClaimKind::threefold).correct);
}

TEST(Tv5F2, FourPlyCycleUnderBothDefinitions) {
    const std::string fen = "7k/8/8/8/8/3R4/8/K7 w - - 0 1";
    const std::string cycle = repeat("Rd4 Kh7 Rd3 Kh8", 4);
    for (auto id : {RuleSetId::fide_2023, RuleSetId::fide_2018, RuleSetId::fide_2014, RuleSetId::fide_online}) {
        auto r = record(fen, cycle, id);
        ASSERT_TRUE(r.ended()) << rule_set(id).name;
        if (id == RuleSetId::fide_online) {
            EXPECT_EQ(r.termination()->kind, TerminationKind::threefold_repetition);
            EXPECT_EQ(r.termination()->index, 8u);
        } else {
            EXPECT_EQ(r.termination()->kind, TerminationKind::fivefold_repetition);
            EXPECT_EQ(r.termination()->index, 16u);
        }
    }
    auto us = record(fen, cycle, RuleSetId::uscf);
    EXPECT_FALSE(us.ended());
    ASSERT_EQ(us.director_may_declare(16).size(), 1u);
    EXPECT_EQ(us.director_may_declare(16)[0].article, "14K1");
    for (auto id : {RuleSetId::fide_2009, RuleSetId::fide_2005, RuleSetId::iccf})
        EXPECT_FALSE(record(fen, cycle, id).ended());
}

TEST(Tv501, BasicFiftyMoveClaim) {
    const std::string fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 60";
    auto r = record(fen, "");
    auto v = evaluate_claim(r, ClaimKind::fifty, move_of(r, "Ra2"));
    EXPECT_TRUE(v.correct);
    EXPECT_EQ(v.article, "9.3.1");
    EXPECT_EQ(v.no_progress_plies, 100u);
    EXPECT_FALSE(evaluate_claim(r, ClaimKind::fifty).correct);
    auto played = record(fen, "Ra2");
    auto vb = evaluate_claim(played, ClaimKind::fifty);
    EXPECT_TRUE(vb.correct);
    EXPECT_EQ(vb.claimant, Color::black);
    EXPECT_EQ(vb.article, "9.3.2");
    EXPECT_FALSE(vb.count_started.has_value());  // the count began before the FEN
    // A pawn-less rook move is fine; a capture would not be: fifty_options lists only non-zeroing moves.
    const auto opts = fifty_options(r);
    EXPECT_FALSE(opts.now);
    EXPECT_EQ(opts.intended.size(), legal_moves(r.current()).size());
    for (auto id : {RuleSetId::fide_2018, RuleSetId::fide_2014}) {
        auto r2 = record(fen, "", id);
        EXPECT_EQ(evaluate_claim(r2, ClaimKind::fifty, move_of(r2, "Ra2")).article,
                  id == RuleSetId::fide_2014 ? "9.3a" : "9.3.1");
    }
}

TEST(Tv502, OnlyNonResettingMoveMates) {
    const std::string fen = "6rk/6pp/7N/5p2/6p1/8/2q5/K7 w - - 99 60";
    auto r = record(fen, "");
    EXPECT_EQ(legal_moves(r.current()).size(), 4u);
    EXPECT_TRUE(evaluate_claim(r, ClaimKind::fifty, move_of(r, "Nf7")).correct);
    EXPECT_FALSE(evaluate_claim(r, ClaimKind::fifty, move_of(r, "Nxg8")).correct);
    EXPECT_EQ(fifty_options(r).intended, (std::vector<Move>{move_of(r, "Nf7")}));
    RuleOptions strict;
    strict.intended_mate_incorrect = true;
    auto rs = record(fen, "", RuleSetId::fide_2023, strict);
    EXPECT_FALSE(evaluate_claim(rs, ClaimKind::fifty, move_of(rs, "Nf7")).correct);
    EXPECT_TRUE(fifty_options(rs).intended.empty());
    auto mated = record(fen, "Nf7#");
    ASSERT_TRUE(mated.ended());
    EXPECT_EQ(mated.termination()->kind, TerminationKind::checkmate);
    EXPECT_EQ(mated.termination()->result, "1-0");
    EXPECT_FALSE(evaluate_claim(mated, ClaimKind::fifty).correct);
}

TEST(Tv503, CastlingDoesNotReset) {
    auto r = record("4k3/8/8/8/8/8/8/4K2R w K - 99 80", "");
    EXPECT_TRUE(evaluate_claim(r, ClaimKind::fifty, move_of(r, "O-O")).correct);
    auto played = record("4k3/8/8/8/8/8/8/4K2R w K - 99 80", "O-O");
    EXPECT_EQ(played.no_progress(1), 100u);
}

TEST(Tv751, SeventyFiveMovesWithMatePrecedence) {
    const std::string fen = "k7/8/1K6/8/8/8/8/7R w - - 149 100";
    for (auto id : {RuleSetId::fide_2023, RuleSetId::fide_2018, RuleSetId::fide_2014}) {
        auto mate = record(fen, "Rh8#", id);
        ASSERT_TRUE(mate.ended());
        EXPECT_EQ(mate.termination()->kind, TerminationKind::checkmate);
        EXPECT_EQ(mate.termination()->result, "1-0");
        auto quiet = record(fen, "Rh2", id);
        ASSERT_TRUE(quiet.ended());
        EXPECT_EQ(quiet.termination()->kind, TerminationKind::seventy_five_moves);
    }
    EXPECT_EQ(record(fen, "Rh2", RuleSetId::fide_2014).termination()->article, "9.6b");
    for (auto id : {RuleSetId::fide_2009, RuleSetId::fide_2005}) {
        auto quiet = record(fen, "Rh2", id);
        EXPECT_FALSE(quiet.ended());
        EXPECT_TRUE(evaluate_claim(quiet, ClaimKind::fifty).correct);
    }
    auto us = record(fen, "Rh2", RuleSetId::uscf);
    EXPECT_FALSE(us.ended());
    ASSERT_EQ(us.director_may_declare(1).size(), 1u);
    EXPECT_EQ(us.director_may_declare(1)[0].kind, TerminationKind::seventy_five_moves);
}

TEST(TvSetup1, CountersFromSetup) {
    const std::string fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 60";
    RuleOptions game_start;
    game_start.counters_from_setup = RuleOptions::CountersFromSetup::game_start;
    auto gs = record(fen, "", RuleSetId::fide_2023, game_start);
    EXPECT_FALSE(evaluate_claim(gs, ClaimKind::fifty, move_of(gs, "Ra2")).correct);
    auto tf = record(fen, "");
    EXPECT_TRUE(evaluate_claim(tf, ClaimKind::fifty, move_of(tf, "Ra2")).correct);
}

// latest_twice_seen chains the positions that stood for the second time or more, and the
// intended-threefold scan finds a move back to one only where the chain reaches: the same
// answers as looking at every position of the window, at every ply of a game with cycles.
TEST(GameRecordTwiceSeen, ChainAndIntendedThreefoldScan) {
    GameRecord rec{Position()};
    const std::vector<std::string> moves = {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "e4",
                                            "e5",  "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nc6", "Ng1", "Nb8"};
    // By hand: the latest index ≤ i with occurrences ≥ 2, and whether some legal move makes the
    // current position a third occurrence by returning to a position seen twice.
    auto scan_by_hand = [](const GameRecord& r) {
        const std::size_t n = r.size() - 1;
        for (Move m : r.legal_moves_now()) {
            const Position next = r.current().after(m);
            if (next.occupied() != r.current().occupied() && !r.current().is_capture(m) &&
                type_of(r.current().piece_at(m.from())) != PieceType::pawn && !m.is_castling() &&
                r.count_in_history(next, r.no_progress(n) + 1) >= 2)
                return true;
        }
        return false;
    };
    for (std::size_t k = 0; k <= moves.size(); ++k) {
        const std::size_t n = rec.size() - 1;
        std::int32_t latest = -1;
        for (std::size_t j = 0; j <= n; ++j)
            if (rec.occurrences(j) >= 2) latest = static_cast<std::int32_t>(j);
        EXPECT_EQ(rec.latest_twice_seen(n), latest) << "after ply " << n;
        EXPECT_EQ(quiet_move_to_twice_seen(rec), scan_by_hand(rec)) << "after ply " << n;
        if (k < moves.size()) ASSERT_FALSE(rec.play(moves[k])) << moves[k];
    }
    // The chain was used: the scan said yes somewhere, and no elsewhere.
    GameRecord again{Position()};
    int yes = 0;
    for (const auto& m : moves) {
        yes += quiet_move_to_twice_seen(again) ? 1 : 0;
        ASSERT_FALSE(again.play(m));
    }
    EXPECT_GT(yes, 0);
    EXPECT_LT(yes, static_cast<int>(moves.size()));
}

// GameRecord::pop: the record with its last move taken back equals the record of the game
// replayed without it (the US Chess claim before pressing the clock is judged on it).
namespace {
void expect_same_record(const GameRecord& popped, const GameRecord& replayed, const std::string& where) {
    ASSERT_EQ(popped.size(), replayed.size()) << where;
    for (std::size_t i = 0; i < popped.size(); ++i) {
        EXPECT_TRUE(popped.position(i).same_position(replayed.position(i))) << where << " index " << i;
        EXPECT_EQ(popped.no_progress(i), replayed.no_progress(i)) << where << " index " << i;
        EXPECT_EQ(popped.occurrences(i), replayed.occurrences(i)) << where << " index " << i;
        EXPECT_EQ(popped.previous_occurrence(i), replayed.previous_occurrence(i)) << where << " index " << i;
        EXPECT_EQ(popped.latest_twice_seen(i), replayed.latest_twice_seen(i)) << where << " index " << i;
    }
    EXPECT_EQ(popped.legal_moves_now().size(), replayed.legal_moves_now().size()) << where;
    ASSERT_EQ(popped.termination().has_value(), replayed.termination().has_value()) << where;
    if (popped.termination()) {
        EXPECT_EQ(popped.termination()->kind, replayed.termination()->kind) << where;
        EXPECT_EQ(popped.termination()->index, replayed.termination()->index) << where;
    }
    for (ClaimKind kind : {ClaimKind::threefold, ClaimKind::fifty}) {
        const auto a = evaluate_claim(popped, kind, std::nullopt), b = evaluate_claim(replayed, kind, std::nullopt);
        EXPECT_EQ(a.correct, b.correct) << where;
        EXPECT_EQ(a.article, b.article) << where;
        EXPECT_EQ(a.reason, b.reason) << where;
    }
}
}  // namespace

TEST(GameRecordPop, EqualsTheGameReplayedWithoutTheLastMove) {
    struct Case {
        const char* fen;
        std::string moves;
        RuleSetId rules;
    };
    const std::vector<Case> cases = {
        {"", knights, RuleSetId::fide_2023},
        {"", knights + " " + knights, RuleSetId::uscf},
        {"", "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8", RuleSetId::uscf},
        {"", "f3 e5 g4 Qh4#", RuleSetId::fide_2023},  // mate: the ending at the last index goes
        {"8/8/8/8/8/5k2/8/5KR1 w - - 97 80", "Rg2 Ke3 Rg3+ Kf4 Rg2", RuleSetId::fide_2023},  // fifty
        {"", knights + " " + knights, RuleSetId::fide_online},              // automatic threefold, then more moves
        {"7k/8/8/8/8/8/8/KB6 w - - 0 1", "Bc2 Kg8", RuleSetId::fide_2023},  // dead from the start
    };
    for (const Case& c : cases) {
        const auto full = record(c.fen, c.moves, c.rules);
        for (std::size_t keep = full.size() - 1; keep >= 1; --keep) {
            GameRecord popped = full;
            while (popped.size() > keep) popped.pop();
            GameRecord replayed(full.position(0), rule_set(c.rules));
            for (std::size_t i = 1; i < keep; ++i) ASSERT_FALSE(replayed.play(full.move(i)));
            expect_same_record(popped, replayed, c.moves + " kept " + std::to_string(keep));
            if (keep == 1) break;
        }
    }
}

TEST(GameRecordPop, TakingBackTheMatingMoveForgetsTheMate) {
    auto r = record("", "f3 e5 g4 Qh4#");
    ASSERT_TRUE(r.termination());
    EXPECT_EQ(r.termination()->kind, TerminationKind::checkmate);
    r.pop();
    EXPECT_FALSE(r.termination());
    EXPECT_EQ(r.plies_played(), 3u);
    EXPECT_FALSE(r.play("Qh4"));
    ASSERT_TRUE(r.termination());
    EXPECT_EQ(r.termination()->kind, TerminationKind::checkmate);
}
