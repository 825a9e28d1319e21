// Scenario tests of the live session, one or more per article of RULES.md R-OFFER, R-TOUCH,
// R-CLAIM, R-FLAG, R-BOTHFLAGS, R-RESIGN, R-ILLEGAL, R-QPF and §4 PREC, and for each difference
// between rule sets and time categories (TV-TOUCH-1, TV-CLAIM-1, TV-FLAG-1..3, TV-RESIGN-1,
// TV-75-2 and more).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "arbiter/flag.hpp"
#include "arbiter/touch_move.hpp"
#include "rules_test_util.hpp"
#include "session_test_util.hpp"

namespace arbiter::testing {
namespace {

const std::string rep1 = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";      // TV-REP-1, third occurrence at ply 8
const std::string rep1_ply7 = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1";     // Black to move; Ng8 would be the third
const std::string lone_king = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";  // TV-RESIGN-1, TV-FLAG-3

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---------------------------------------------------------------------------------------------
// R-TOUCH (9.4, 4.3, 4.4, 4.2.1)

TEST(Touch, TvTouch1TouchingThenClaimingLosesTheRightForThatMove) {
    Game g(Game::config(RuleSetId::fide_2023, "", "5400+30"));
    g.play(rep1);
    g.ok(touch("g1", g.next()));
    EXPECT_TRUE(g.s.claim_right_lost());
    const auto black_before = *g.s.clock_ms(Color::black);
    g.ok(claim(ClaimKind::threefold, "", g.next()));
    ASSERT_TRUE(g.s.last_ruling());
    EXPECT_FALSE(g.s.last_ruling()->admissible);
    EXPECT_EQ(g.s.last_ruling()->verdict.article, "9.4");
    EXPECT_FALSE(g.s.last_ruling()->penalty);  // not found incorrect: no penalty
    EXPECT_EQ(*g.s.clock_ms(Color::black), black_before);
    EXPECT_FALSE(g.s.ended());
    EXPECT_FALSE(g.s.pending_offer());
    // 4.3.1: the knight must be moved.
    EXPECT_TRUE(contains(g.refused(mv("e4", g.next())), "4.3.1"));
    EXPECT_TRUE(contains(g.refused(mv("Nc3", g.next())), "knight on g1"));
    g.play("Nf3 Nf6");
    // The right returns on the next move: the position after 1.Nf3 Nf6 now stands a third time.
    g.ok(claim(ClaimKind::threefold, "", g.next()));
    ASSERT_TRUE(g.s.ended());
    EXPECT_EQ(g.s.end()->result, "1/2-1/2");
    EXPECT_EQ(g.s.end()->article, "9.2.2");
}

TEST(Touch, TvTouch1UscfTouchingDoesNotLoseTheClaim) {
    Game g(Game::config(RuleSetId::uscf));
    g.play(rep1);
    g.ok(touch("g1", g.next()));
    EXPECT_FALSE(g.s.claim_right_lost());
    g.ok(claim(ClaimKind::threefold, "", g.next()));
    ASSERT_TRUE(g.s.ended());
    EXPECT_EQ(g.s.end()->article, "14C");
}

TEST(Touch, TvTouch1UscfMayMakeTheMoveAndClaimBeforePressingTheClock) {
    Game g(Game::config(RuleSetId::uscf, "", "5400"));
    g.play(rep1_ply7);
    g.ok(mv("Ng8", g.next(), /*press=*/false));
    EXPECT_EQ(g.s.awaiting_press(), Color::black);
    g.ok(by(claim(ClaimKind::threefold, "", g.next()), Color::black));
    ASSERT_TRUE(g.s.ended());
    EXPECT_EQ(g.s.end()->result, "1/2-1/2");
    EXPECT_EQ(g.s.end()->article, "14C2");
    EXPECT_EQ(g.s.last_ruling()->verdict.intended_san, "Ng8");
}

TEST(Touch, FideTheMoverNoLongerHasTheMoveOnceTheMoveIsMade) {
    Game g(Game::config(RuleSetId::fide_2023, "", "5400"));
    g.play(rep1_ply7);
    g.ok(mv("Ng8", g.next(), false));
    EXPECT_TRUE(contains(g.refused(by(claim(ClaimKind::threefold, "", g.next()), Color::black)), "out of turn"));
    // DEF-HAVE-MOVE: White has the move as soon as Black's move is made, and may claim.
    g.ok(claim(ClaimKind::threefold, "", g.next()));
    EXPECT_EQ(g.s.end()->article, "9.2.2");
}

TEST(Touch, Fide2005TheRightEndsOnlyByMovingAPiece) {
    Game g(Game::config(RuleSetId::fide_2005));
    g.play(rep1);
    g.ok(touch("g1", g.next()));
    g.ok(claim(ClaimKind::threefold, "", g.next()));
    ASSERT_TRUE(g.s.ended());
    EXPECT_EQ(g.s.end()->article, "9.2b");
}

TEST(Touch, AnAnnouncedAdjustmentKeepsTheClaim) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play(rep1);
    Event adj = ev(EventType::adjust, g.next());
    adj.square = Square::g1;
    g.ok(adj);
    EXPECT_FALSE(g.s.claim_right_lost());
    EXPECT_TRUE(g.s.touched().empty());
    g.ok(claim(ClaimKind::threefold, "", g.next()));
    EXPECT_TRUE(g.s.ended());
}

TEST(Touch, TouchingAnOpponentsPieceObligesACapture) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play("e4 d5");
    g.ok(touch("d5", g.next()));
    EXPECT_TRUE(contains(g.refused(mv("Nf3", g.next())), "4.3.2"));
    g.ok(mv("exd5", g.next()));
}

TEST(Touch, OwnThenOpponentsPieceMeansCaptureWithIt) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play("e4 d5 Nc3 Nf6");
    g.ok(touch("c3", g.next()));
    g.ok(touch("d5", g.next()));
    EXPECT_TRUE(contains(g.refused(mv("exd5", g.next())), "4.3.3"));
    g.ok(mv("Nxd5", g.next()));
}

TEST(Touch, KingThenRookMeansCastle) {
    Game g(Game::config(RuleSetId::fide_2023, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    g.ok(touch("e1", g.next()));
    g.ok(touch("h1", g.next()));
    EXPECT_TRUE(contains(g.refused(mv("Kf1", g.next())), "4.4.1"));
    g.ok(mv("O-O", g.next()));
}

TEST(Touch, RookThenKingForbidsCastlingThatSide) {
    Game g(Game::config(RuleSetId::fide_2023, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    g.ok(touch("h1", g.next()));
    g.ok(touch("e1", g.next()));
    EXPECT_TRUE(contains(g.refused(mv("O-O", g.next())), "4.3.1"));
    g.ok(mv("Rh2", g.next()));
}

TEST(Touch, APieceThatCannotMoveObligesNothing) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.ok(touch("a1", g.next()));  // the rook has no legal move: 4.3.4
    g.ok(mv("e4", g.next()));
}

TEST(Touch, OnlyThePlayerHavingTheMoveTouchesOrAdjusts) {
    Game g(Game::config(RuleSetId::fide_2023));
    EXPECT_TRUE(contains(g.refused(by(touch("e7", g.next()), Color::black)), "out of turn"));
    EXPECT_TRUE(contains(g.refused(touch("e4", g.next())), "no piece on e4"));
    Game online(Game::config(RuleSetId::fide_online));
    EXPECT_TRUE(contains(online.refused(touch("e2", online.next())), "no touch-move"));
}

// ---------------------------------------------------------------------------------------------
// R-CLAIM (9.5.1–9.5.3), TV-CLAIM-1 and the penalty table

TEST(Claim, TvClaim1IncorrectWrittenMoveCostsTwoMinutesAndMustBePlayed) {
    Game g(Game::config(RuleSetId::fide_2023, "", "5400+30"));
    g.play(rep1_ply7);
    const auto white = *g.s.clock_ms(Color::white);
    g.ok(claim(ClaimKind::threefold, "Nc6", g.next()));
    ASSERT_TRUE(g.s.last_ruling());
    const ClaimRuling& r = *g.s.last_ruling();
    EXPECT_FALSE(r.verdict.correct);
    EXPECT_EQ(r.verdict.article, "9.2.1");
    ASSERT_TRUE(r.penalty);
    EXPECT_EQ(r.penalty->side, Color::black);
    EXPECT_EQ(r.penalty->added_ms, 120'000);
    EXPECT_EQ(r.penalty->deducted_ms, 0);
    EXPECT_EQ(r.penalty->article, "9.5.3");
    EXPECT_EQ(*g.s.clock_ms(Color::white), white + 120'000);
    EXPECT_TRUE(g.s.clock()->paused());  // 9.5.1
    ASSERT_TRUE(g.s.must_play());
    EXPECT_EQ(g.s.must_play()->written, "Nc6");
    EXPECT_TRUE(contains(g.refused(mv("Ng8", g.next())), "must be played"));
    EXPECT_TRUE(contains(g.refused(claim(ClaimKind::threefold, "Nh5", g.next())), "cannot be changed"));
    g.ok(mv("Nc6", g.next()));
    EXPECT_FALSE(g.s.must_play());
    EXPECT_FALSE(g.s.clock()->paused());
}

TEST(Claim, TheClaimPausesTheClaimantsClock) {
    Game g(Game::config(RuleSetId::fide_2023, "", "5400"));
    g.ok(mv("e4", 1'000));
    g.ok(claim(ClaimKind::threefold, "", 11'000));  // incorrect; the clock stays paused
    g.ok(mv("e5", 71'000));
    EXPECT_EQ(g.s.moves().back().clock_ms, 5'400'000 - 10'000);
}

TEST(Claim, AnIllegalWrittenMoveMeansAnotherMoveWithThatPiece) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play(rep1_ply7);
    g.ok(claim(ClaimKind::threefold, "f6d7", g.next()));
    EXPECT_FALSE(g.s.last_ruling()->verdict.correct);
    EXPECT_TRUE(contains(g.s.last_ruling()->verdict.reason, "illegal"));
    ASSERT_TRUE(g.s.must_play());
    EXPECT_FALSE(g.s.must_play()->legal);
    EXPECT_TRUE(contains(g.refused(mv("e5", g.next())), "another move with that piece"));
    g.ok(mv("Ng8", g.next()));
}

TEST(Claim, TheClaimIsADrawOfferTheOpponentMayAccept) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play(rep1_ply7);
    g.ok(claim(ClaimKind::threefold, "Nc6", g.next()));
    ASSERT_TRUE(g.s.pending_offer());
    EXPECT_EQ(g.s.pending_offer()->by, Color::black);
    EXPECT_TRUE(g.s.pending_offer()->by_claim);
    g.ok(ev(EventType::accept, g.next()));
    ASSERT_TRUE(g.s.ended());
    EXPECT_EQ(g.s.end()->kind, EndKind::agreement);
    EXPECT_EQ(g.s.end()->article, "5.2.3");
}

TEST(Claim, TheImpliedOfferLapsesWhenRejected) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play(rep1_ply7);
    g.ok(claim(ClaimKind::threefold, "Nc6", g.next()));
    g.ok(ev(EventType::decline, g.next()));
    EXPECT_FALSE(g.s.pending_offer());
    g.refused(ev(EventType::accept, g.next()));
}

TEST(Claim, OnlyThePlayerHavingTheMoveMayClaim) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play(rep1);
    EXPECT_TRUE(contains(g.refused(by(claim(ClaimKind::threefold, "", g.next()), Color::black)), "out of turn"));
}

struct PenaltyCase {
    RuleSetId rules;
    TimeCategory category;
    bool supervised;
    std::int64_t added;
    const char* article;
};

TEST(Claim, PenaltyByRuleSetAndTimeCategory) {
    const PenaltyCase cases[] = {
        {RuleSetId::fide_2023, TimeCategory::standard, false, 120'000, "9.5.3"},
        {RuleSetId::fide_2023, TimeCategory::rapid, false, 60'000, "9.5.3"},
        {RuleSetId::fide_2023, TimeCategory::blitz, false, 60'000, "9.5.3"},
        {RuleSetId::fide_2023, TimeCategory::blitz, true, 120'000, "9.5.3"},
        {RuleSetId::fide_2018, TimeCategory::standard, false, 120'000, "9.5.3"},
        {RuleSetId::fide_2018, TimeCategory::rapid, false, 120'000, "9.5.3"},
        {RuleSetId::fide_2018, TimeCategory::blitz, false, 60'000, "9.5.3"},
        {RuleSetId::fide_2014, TimeCategory::standard, false, 120'000, "9.5c"},
        {RuleSetId::fide_2009, TimeCategory::standard, false, 180'000, "9.5b"},
        {RuleSetId::fide_2005, TimeCategory::standard, false, 180'000, "9.5b"},
        {RuleSetId::uscf, TimeCategory::standard, false, 120'000, "14C6"},
        {RuleSetId::iccf, TimeCategory::standard, false, 0, "9.5"},
    };
    for (const auto& c : cases) {
        SessionConfig cfg = Game::config(c.rules, "", "5400", c.category);
        cfg.options.blitz_fully_supervised = c.supervised;
        Game g(cfg);
        g.play("e4");
        const auto white = *g.s.clock_ms(Color::white);
        g.ok(claim(ClaimKind::threefold, "Nc6", g.next()));
        const auto& p = g.s.last_ruling()->penalty;
        ASSERT_TRUE(p) << rule_set(c.rules).name;
        EXPECT_EQ(p->added_ms, c.added) << rule_set(c.rules).name << " " << time_category_name(c.category);
        EXPECT_EQ(p->article, c.article) << rule_set(c.rules).name;
        EXPECT_EQ(*g.s.clock_ms(Color::white), white + c.added) << rule_set(c.rules).name;
    }
}

TEST(Claim, UscfFiftyMoveClaimCitesItsOwnArticle) {
    Game g(Game::config(RuleSetId::uscf, "", "5400"));
    g.play("e4");
    g.ok(claim(ClaimKind::fifty, "", g.next()));
    EXPECT_EQ(g.s.last_ruling()->penalty->article, "14F2");
}

TEST(Claim, Fide2005DeductsFromTheClaimant) {
    struct Case {
        const char* tc;
        std::int64_t claim_at;
        std::int64_t deducted;
    };
    // More than 2 minutes: half, at most 3 minutes; 1–2 minutes: down to 1 minute; less: nothing.
    for (const Case& c :
         {Case{"300", 0, 150'000}, Case{"600", 0, 180'000}, Case{"300", 200'000, 40'000}, Case{"300", 250'000, 0}}) {
        Game g(Game::config(RuleSetId::fide_2005, "", c.tc, TimeCategory::standard));
        g.ok(mv("e4", 0));
        g.ok(claim(ClaimKind::threefold, "", c.claim_at));
        const auto& p = g.s.last_ruling()->penalty;
        ASSERT_TRUE(p);
        EXPECT_EQ(p->deducted_ms, c.deducted) << c.tc << " at " << c.claim_at;
        EXPECT_EQ(p->added_ms, 180'000);
        EXPECT_EQ(*g.s.clock_ms(Color::black),
                  std::max<std::int64_t>(0, parse_time_control(c.tc)->periods[0].base_ms - c.claim_at - c.deducted));
    }
}

TEST(Claim, OnlineHasNoWrittenMoveClaims) {
    Game g(Game::config(RuleSetId::fide_online));
    g.play("e4");
    EXPECT_TRUE(contains(g.refused(claim(ClaimKind::threefold, "Nc6", g.next())), "no claims with a written move"));
}

TEST(Claim, Tv501FiftyWithAWrittenMove) {
    Game g(Game::config(RuleSetId::fide_2023, "4k3/8/8/8/8/8/8/R3K3 w - - 99 60"));
    g.ok(claim(ClaimKind::fifty, "Ra2", g.next()));
    ASSERT_TRUE(g.s.ended());
    EXPECT_EQ(g.s.end()->article, "9.3.1");
    EXPECT_EQ(g.s.end()->kind, EndKind::fifty_moves);
}

TEST(Claim, Tv501PlayingWithoutClaimingLeavesTheClaimToTheOpponent) {
    Game g(Game::config(RuleSetId::fide_2023, "4k3/8/8/8/8/8/8/R3K3 w - - 99 60"));
    g.play("Ra2");
    g.ok(claim(ClaimKind::fifty, "", g.next()));
    EXPECT_EQ(g.s.end()->article, "9.3.2");
}

TEST(Claim, TvSetup1CountingFromTheSetUpPositionMakesTheClaimIncorrect) {
    SessionConfig cfg = Game::config(RuleSetId::fide_2023, "4k3/8/8/8/8/8/8/R3K3 w - - 99 60");
    cfg.options.counters_from_setup = RuleOptions::CountersFromSetup::game_start;
    Game g(cfg);
    g.ok(claim(ClaimKind::fifty, "Ra2", g.next()));
    EXPECT_FALSE(g.s.ended());
    EXPECT_FALSE(g.s.last_ruling()->verdict.correct);
}

TEST(Claim, Tv502AWrittenMoveThatMatesStillCompletesTheCount) {
    Game g(Game::config(RuleSetId::fide_2023, "6rk/6pp/7N/5p2/6p1/8/2q5/K7 w - - 99 60"));
    g.ok(claim(ClaimKind::fifty, "Nf7", g.next()));
    ASSERT_TRUE(g.s.ended());
    EXPECT_EQ(g.s.end()->result, "1/2-1/2");
    Game mate(Game::config(RuleSetId::fide_2023, "6rk/6pp/7N/5p2/6p1/8/2q5/K7 w - - 99 60"));
    mate.play("Nf7#");
    EXPECT_EQ(mate.s.end()->kind, EndKind::checkmate);
    EXPECT_EQ(mate.s.end()->result, "1-0");
}

// ---------------------------------------------------------------------------------------------
// R-OFFER / R-AGREE (9.1, 5.2.3)

TEST(Offer, MadeBetweenMoveAndClockIsRecordedWithTheMove) {
    Game g(Game::config(RuleSetId::fide_2023, "", "300"));
    Event e = mv("e4", g.next());
    e.offer = true;
    g.ok(e);
    ASSERT_TRUE(g.s.pending_offer());
    EXPECT_FALSE(g.s.pending_offer()->irregular);
    EXPECT_EQ(g.s.moves()[0].offer_by, Color::white);
    EXPECT_TRUE(contains(scoresheet_text(g.s), "e4 (=)"));
    EXPECT_TRUE(contains(export_pgn(g.s), "(=)"));
    // 5.2.3 (2018 on): Black has not moved yet.
    EXPECT_TRUE(contains(g.refused(ev(EventType::accept, g.next())), "5.2.3"));
    // It cannot be withdrawn.
    EXPECT_TRUE(contains(g.refused(by(ev(EventType::decline, g.next()), Color::white)), "only Black"));
}

TEST(Offer, BeforeEachPlayerHasMovedAgreementIsAllowedBefore2018) {
    Game g(Game::config(RuleSetId::fide_2009));
    Event e = mv("e4", g.next());
    e.offer = true;
    g.ok(e);
    g.ok(ev(EventType::accept, g.next()));
    EXPECT_EQ(g.s.end()->kind, EndKind::agreement);
    EXPECT_EQ(g.s.end()->article, "5.2c");
}

TEST(Offer, LapsesWhenTheOpponentTouchesAPiece) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play("e4 e5");
    Event e = mv("Nf3", g.next());
    e.offer = true;
    g.ok(e);
    g.ok(touch("b8", g.next()));
    EXPECT_FALSE(g.s.pending_offer());
}

TEST(Offer, LapsesWhenTheOpponentMoves) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play("e4 e5");
    Event e = mv("Nf3", g.next());
    e.offer = true;
    g.ok(e);
    g.play("Nc6");
    EXPECT_FALSE(g.s.pending_offer());
}

TEST(Offer, AtAnotherTimeItIsStillValidButNoted) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play("e4 e5");
    g.ok(ev(EventType::offer, g.next()));  // White, on move, before moving
    ASSERT_TRUE(g.s.pending_offer());
    EXPECT_TRUE(g.s.pending_offer()->irregular);
    EXPECT_TRUE(contains(g.s.notes().back().text, "11.5"));
    g.play("Nf3");  // the offerer's own move does not end the offer
    ASSERT_TRUE(g.s.pending_offer());
    EXPECT_TRUE(contains(g.refused(ev(EventType::offer, g.next())), "may accept or decline"));
    g.ok(ev(EventType::accept, g.next()));
    EXPECT_EQ(g.s.end()->result, "1/2-1/2");
}

TEST(Offer, CompetitionRuleNoOffersBeforeMoveN) {
    SessionConfig cfg = Game::config(RuleSetId::fide_2023);
    cfg.options.no_offers_before_move = 3;
    Game g(cfg);
    g.play("e4 e5");
    Event e = mv("Nf3", g.next());
    e.offer = true;
    EXPECT_TRUE(contains(g.refused(e), "9.1.1"));
    e.consent = true;
    g.ok(e);
    g.ok(ev(EventType::decline, g.next()));
    g.play("Nc6");
    Event third = mv("Bb5", g.next());
    third.offer = true;
    g.ok(third);  // White's third move: offers are allowed from move 3
}

TEST(Offer, LapsesWhenTheGameEnds) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play("e4 e5");
    g.ok(ev(EventType::offer, g.next()));
    g.ok(by(ev(EventType::resign, g.next()), Color::black));
    EXPECT_FALSE(g.s.pending_offer());
    EXPECT_EQ(g.s.result(), "1-0");
}

// ---------------------------------------------------------------------------------------------
// R-FLAG (6.8, 6.9, A.5.3; US Chess 13C, 14E)

const std::string flag1 = "6K1/7P/5k2/8/8/8/1b6/8 w - - 0 1";  // TV-FLAG-1
const std::string flag2 = "8/8/8/8/4n3/8/7R/5k1K w - - 0 1";   // TV-FLAG-2

Event flag(Color side, std::int64_t at) { return by(ev(EventType::flag, at), side); }

TEST(Flag, TvFlag1FideALoneBishopCanHelpmateSoTheFlagLoses) {
    Game g(Game::config(RuleSetId::fide_2023, flag1, "3600"));
    g.ok(ev(EventType::start, 0));
    EXPECT_TRUE(contains(g.refused(flag(Color::white, 3'599'000)), "has not fallen"));
    g.ok(flag(Color::white, 3'600'001));
    EXPECT_EQ(g.s.end()->kind, EndKind::time_forfeit);
    EXPECT_EQ(g.s.end()->result, "0-1");
    EXPECT_EQ(g.s.end()->article, "6.9");
    EXPECT_EQ(std::string(pgn_termination(g.s)), "time forfeit");
}

TEST(Flag, TvFlag1UscfKingAndBishopWithoutAForcedWinDraws) {
    Game g(Game::config(RuleSetId::uscf, flag1, "3600"));
    g.ok(ev(EventType::start, 0));
    g.ok(flag(Color::white, 3'600'001));
    EXPECT_EQ(g.s.end()->result, "1/2-1/2");
    EXPECT_EQ(g.s.end()->article, "14E2");
}

TEST(Flag, TvFlag2KnightAgainstRook) {
    Game fide(Game::config(RuleSetId::fide_2023, flag2, "60"));
    fide.ok(ev(EventType::start, 0));
    fide.ok(flag(Color::white, 61'000));
    EXPECT_EQ(fide.s.end()->result, "0-1");
    EXPECT_EQ(fide.s.end()->article, "A.5.3");  // blitz: the rapid/blitz article
    Game uscf(Game::config(RuleSetId::uscf, flag2, "60"));
    uscf.ok(ev(EventType::start, 0));
    uscf.ok(flag(Color::white, 61'000));
    EXPECT_EQ(uscf.s.end()->result, "1/2-1/2");
    EXPECT_EQ(uscf.s.end()->article, "14E2");
}

TEST(Flag, UscfKnightWithAForcedMateWins) {
    // White makes a move without pressing and lets the clock run: Black's knight mates at once.
    Game g(Game::config(RuleSetId::uscf, "k7/8/8/8/4n3/8/P5PP/6RK w - - 0 1", "60"));
    g.ok(ev(EventType::start, 0));
    g.ok(mv("a3", 50'000, false));
    g.ok(flag(Color::white, 61'000));
    EXPECT_EQ(g.s.end()->result, "0-1");
    EXPECT_EQ(g.s.end()->article, "13C, 14E2");
    EXPECT_EQ(forced_mate_within(g.s.record().current(), Color::black, 1), std::optional<bool>(true));
}

TEST(Flag, TvFlag3ALoneKingCannotWinOnTime) {
    Game fide(Game::config(RuleSetId::fide_2023, lone_king, "60"));
    fide.ok(ev(EventType::start, 0));
    fide.ok(flag(Color::white, 60'000));
    EXPECT_EQ(fide.s.end()->result, "1/2-1/2");
    Game uscf(Game::config(RuleSetId::uscf, lone_king, "60"));
    uscf.ok(ev(EventType::start, 0));
    uscf.ok(flag(Color::white, 60'000));
    EXPECT_EQ(uscf.s.end()->result, "1/2-1/2");
    EXPECT_EQ(uscf.s.end()->article, "14E1");
}

TEST(Flag, WithoutAClockTheFlagIsTakenAsReported) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.play("e4");
    g.ok(flag(Color::black, g.next()));
    EXPECT_EQ(g.s.result(), "1-0");
    Game h(Game::config(RuleSetId::fide_2023));
    EXPECT_TRUE(contains(h.refused(ev(EventType::flag, 1)), "needs the side"));
}

TEST(Flag, Tv752AFlagAfterTheSeventyFiveMoveDrawChangesNothing) {
    Game g(Game::config(RuleSetId::fide_2023, "k7/8/1K6/8/8/8/8/7R w - - 149 100", "60"));
    g.ok(ev(EventType::start, 0));
    g.ok(mv("Rh2", 70'000, /*press=*/false));  // White's flag fell at 60 s, unnoticed
    ASSERT_TRUE(g.s.ended());
    EXPECT_EQ(g.s.end()->kind, EndKind::seventy_five_moves);
    EXPECT_EQ(g.s.end()->article, "9.6.2");
    EXPECT_TRUE(contains(g.refused(flag(Color::white, 71'000)), "already ended"));
    EXPECT_EQ(g.s.result(), "1/2-1/2");
}

TEST(Flag, Tv751MateTakesPrecedenceOverSeventyFiveMoves) {
    Game g(Game::config(RuleSetId::fide_2023, "k7/8/1K6/8/8/8/8/7R w - - 149 100"));
    g.play("Rh8#");
    EXPECT_EQ(g.s.end()->kind, EndKind::checkmate);
    EXPECT_EQ(g.s.result(), "1-0");
    Game old(Game::config(RuleSetId::fide_2009, "k7/8/1K6/8/8/8/8/7R w - - 149 100"));
    old.play("Rh2");
    EXPECT_FALSE(old.s.ended());  // no 75-move rule in 2009: Black may claim
    old.ok(claim(ClaimKind::fifty, "", old.next()));
    EXPECT_EQ(old.s.end()->article, "9.3b");
}

TEST(Flag, AfterCheckmateNothingCounts) {
    Game g(Game::config(RuleSetId::fide_2023, "", "60"));
    g.ok(ev(EventType::start, 0));
    g.ok(mv("f3", 1'000));
    g.ok(mv("e5", 2'000));
    g.ok(mv("g4", 3'000));
    g.ok(mv("Qh4#", 100'000));  // Black's flag fell at 61 s, but the mate came first to be noticed
    EXPECT_EQ(g.s.result(), "0-1");
    g.refused(flag(Color::black, 100'001));
}

// ---------------------------------------------------------------------------------------------
// R-BOTHFLAGS (Guidelines III.3.1, US Chess 14G / 16T)

// White's flag falls at 60 s; White moves at 70 s; Black's flag falls at 130 s.
Game both_down(RuleSetId id, const std::string& tc) {
    Game g(Game::config(id, "", tc));
    g.ok(ev(EventType::start, 0));
    g.ok(mv("e4", 70'000));
    return g;
}

TEST(BothFlags, LastPeriodOrderUnknownIsADraw) {
    Game g = both_down(RuleSetId::fide_2023, "60");
    Event e = ev(EventType::flag, 140'000);
    e.both = true;
    g.ok(e);
    EXPECT_EQ(g.s.end()->kind, EndKind::both_flags);
    EXPECT_EQ(g.s.end()->result, "1/2-1/2");
    EXPECT_EQ(g.s.end()->article, "III.3.1");
}

TEST(BothFlags, TheClockShowsWhichFellFirst) {
    Game g = both_down(RuleSetId::fide_2023, "60");
    g.ok(flag(Color::black, 140'000));
    EXPECT_EQ(g.s.result(), "0-1");  // White's fell first
    EXPECT_TRUE(contains(g.s.end()->reason, "fell first"));
}

TEST(BothFlags, NotTheLastPeriodTheGameContinues) {
    Game g = both_down(RuleSetId::fide_2023, "2/60:30");
    g.ok(mv("e5", 140'000));
    Event e = ev(EventType::flag, 140'001);
    e.both = true;
    g.ok(e);
    EXPECT_FALSE(g.s.ended());
}

TEST(BothFlags, UscfSuddenDeathIsADrawWhicheverFellFirst) {
    Game g = both_down(RuleSetId::uscf, "60");
    g.ok(flag(Color::black, 140'000));
    EXPECT_EQ(g.s.result(), "1/2-1/2");
    EXPECT_EQ(g.s.end()->article, "14G");
}

TEST(BothFlags, UscfWithThirtySecondIncrementIsNotSuddenDeath) {
    Game g = both_down(RuleSetId::uscf, "60+30");
    g.ok(flag(Color::black, 140'000));
    EXPECT_FALSE(g.s.ended());
}

// ---------------------------------------------------------------------------------------------
// R-RESIGN (5.1.2), TV-RESIGN-1

TEST(Resign, TvResign1) {
    struct Case {
        RuleSetId rules;
        const char* result;
        const char* article;
    };
    for (const Case& c : {Case{RuleSetId::fide_2023, "1/2-1/2", "5.1.2"}, Case{RuleSetId::fide_2018, "0-1", "5.1.2"},
                          Case{RuleSetId::fide_2014, "0-1", "5.1b"}, Case{RuleSetId::uscf, "0-1", "4B"}}) {
        Game g(Game::config(c.rules, lone_king));
        g.ok(by(ev(EventType::resign, g.next()), Color::white));
        EXPECT_EQ(g.s.result(), c.result) << rule_set(c.rules).name;
        EXPECT_EQ(g.s.end()->article, c.article) << rule_set(c.rules).name;
    }
}

TEST(Resign, AnyoneMayResignAtAnyTimeButMustSayWho) {
    Game g(Game::config(RuleSetId::fide_2023));
    g.refused(ev(EventType::resign, g.next()));
    g.ok(by(ev(EventType::resign, g.next()), Color::black));  // not on move: still valid
    EXPECT_EQ(g.s.result(), "1-0");
}

// ---------------------------------------------------------------------------------------------
// R-ILLEGAL (7.5.5, A.5.4)

TEST(Illegal, FirstCostsTimeSecondLoses) {
    Game g(Game::config(RuleSetId::fide_2023, "", "5400"));
    g.play("e4");
    const auto white = *g.s.clock_ms(Color::white);
    g.ok(ev(EventType::illegal_move, g.next()));  // Black's
    EXPECT_EQ(*g.s.clock_ms(Color::white), white + 120'000);
    EXPECT_EQ(g.s.illegal_moves(Color::black), 1);
    g.ok(ev(EventType::illegal_move, g.next()));
    EXPECT_EQ(g.s.end()->kind, EndKind::illegal_moves);
    EXPECT_EQ(g.s.result(), "1-0");
    EXPECT_EQ(g.s.end()->article, "7.5.5");
    EXPECT_EQ(std::string(pgn_termination(g.s)), "rules infraction");
}

TEST(Illegal, RapidPenaltyIsOneMinute) {
    Game g(Game::config(RuleSetId::fide_2023, "", "900"));
    g.play("e4");
    const auto white = *g.s.clock_ms(Color::white);
    g.ok(ev(EventType::illegal_move, g.next()));
    EXPECT_EQ(*g.s.clock_ms(Color::white), white + 60'000);
}

TEST(Illegal, SecondIllegalMoveIsADrawWhenTheOpponentCannotMate) {
    Game g(Game::config(RuleSetId::fide_2023, lone_king));
    g.ok(ev(EventType::illegal_move, g.next()));
    g.ok(ev(EventType::illegal_move, g.next()));
    EXPECT_EQ(g.s.result(), "1/2-1/2");
    EXPECT_EQ(g.s.end()->kind, EndKind::illegal_moves);
}

TEST(Illegal, Fide2009ThirdLoses) {
    Game g(Game::config(RuleSetId::fide_2009));
    for (int i = 0; i < 2; ++i) g.ok(ev(EventType::illegal_move, g.next()));
    EXPECT_FALSE(g.s.ended());
    g.ok(ev(EventType::illegal_move, g.next()));
    EXPECT_EQ(g.s.result(), "0-1");
    EXPECT_EQ(g.s.end()->article, "7.4b");
}

TEST(Illegal, ThePieceMovedIllegallyMustBeMoved) {
    Game g(Game::config(RuleSetId::fide_2023));
    Event e = ev(EventType::illegal_move, g.next());
    e.square = Square::g1;
    g.ok(e);
    EXPECT_TRUE(contains(g.refused(mv("e4", g.next())), "4.3.1"));
    g.ok(mv("Nf3", g.next()));
    EXPECT_TRUE(contains(g.refused(by(ev(EventType::illegal_move, g.next()), Color::white)), "Black's move"));
    Game online(Game::config(RuleSetId::fide_online));
    online.refused(ev(EventType::illegal_move, online.next()));
}

TEST(Illegal, A54IllegalPositionInRapidIsADraw) {
    Game rapid(Game::config(RuleSetId::fide_2023, "", "900"));
    rapid.play("e4");
    rapid.ok(ev(EventType::illegal_position, rapid.next()));
    EXPECT_EQ(rapid.s.end()->kind, EndKind::illegal_position);
    EXPECT_EQ(rapid.s.end()->article, "A.5.4");
    Game standard(Game::config(RuleSetId::fide_2023, "", "5400"));
    EXPECT_TRUE(contains(standard.refused(ev(EventType::illegal_position, 1)), "rapid and blitz"));
}

// ---------------------------------------------------------------------------------------------
// R-QPF (Guidelines III.5, Art. 10.2, US Chess 14H)

SessionConfig quickplay(RuleSetId id, const std::string& tc = "3600", bool announced = true) {
    SessionConfig c = Game::config(id, "", tc);
    c.quickplay_finish = announced;
    return c;
}

// Black, on move, with 91 seconds left.
Game short_of_time(const SessionConfig& c) {
    Game g(c);
    g.ok(mv("e4", 1'000));
    g.t = 3'510'000;
    return g;
}

TEST(Quickplay, RejectedThenPostponedThenDrawn) {
    Game g = short_of_time(quickplay(RuleSetId::fide_2023));
    g.ok(ev(EventType::quickplay_claim, g.t));
    EXPECT_EQ(g.s.quickplay_pending(), Color::black);
    EXPECT_TRUE(g.s.clock()->paused());
    EXPECT_TRUE(contains(g.refused(mv("e5", g.next())), "awaits the arbiter"));
    const auto white = *g.s.clock_ms(Color::white);
    Event reject = ev(EventType::quickplay_ruling, g.next());
    reject.decision = QuickplayDecision::reject;
    g.ok(reject);
    EXPECT_EQ(*g.s.clock_ms(Color::white), white + 120'000);  // III.5.3
    EXPECT_FALSE(g.s.quickplay_pending());
    g.ok(ev(EventType::quickplay_claim, g.next()));
    Event postpone = ev(EventType::quickplay_ruling, g.next());
    postpone.decision = QuickplayDecision::postpone;
    g.ok(postpone);
    EXPECT_TRUE(g.s.quickplay_postponed());
    g.play("e5 Nf3");
    Event draw = ev(EventType::quickplay_ruling, g.next());
    draw.decision = QuickplayDecision::draw;
    g.ok(draw);
    EXPECT_EQ(g.s.end()->kind, EndKind::quickplay_finish);
    EXPECT_EQ(g.s.end()->article, "III.5");
    EXPECT_EQ(std::string(pgn_termination(g.s)), "adjudication");
}

TEST(Quickplay, WhenTheClaimIsNotAllowed) {
    EXPECT_TRUE(contains(short_of_time(quickplay(RuleSetId::fide_2023, "3600", false))
                             .refused(ev(EventType::quickplay_claim, 3'510'000)),
                         "announced"));
    EXPECT_TRUE(contains(
        short_of_time(quickplay(RuleSetId::fide_2023, "3600+5")).refused(ev(EventType::quickplay_claim, 3'510'000)),
        "without increment"));
    EXPECT_TRUE(
        contains(short_of_time(quickplay(RuleSetId::fide_2023, "300")).refused(ev(EventType::quickplay_claim, 100'000)),
                 "blitz"));
    EXPECT_TRUE(
        contains(short_of_time(quickplay(RuleSetId::fide_2023)).refused(ev(EventType::quickplay_claim, 100'000)),
                 "less than two minutes"));
    EXPECT_TRUE(contains(
        short_of_time(quickplay(RuleSetId::uscf, "3600", false)).refused(ev(EventType::quickplay_claim, 3'510'000)),
        "Variation 14H"));
    EXPECT_TRUE(
        contains(short_of_time(quickplay(RuleSetId::fide_online)).refused(ev(EventType::quickplay_claim, 3'510'000)),
                 "no quickplay"));
}

TEST(Quickplay, Fide2009Article10NeedsNoAnnouncement) {
    Game g = short_of_time(quickplay(RuleSetId::fide_2009, "3600", false));
    g.ok(ev(EventType::quickplay_claim, g.t));
    ASSERT_TRUE(g.s.pending_offer());  // 9.1(b)(3): the claim is also a draw offer
    EXPECT_EQ(g.s.pending_offer()->by, Color::black);
    Event draw = ev(EventType::quickplay_ruling, g.next());
    draw.decision = QuickplayDecision::draw;
    g.ok(draw);
    EXPECT_EQ(g.s.end()->article, "10.2");
}

// ---------------------------------------------------------------------------------------------
// US Chess 14K: draws the director may declare

TEST(Declare, UscfDirectorDeclaresFivefold) {
    const std::string cycle = repeat("Rd4 Kh7 Rd3 Kh8", 4);
    Game uscf(Game::config(RuleSetId::uscf, "7k/8/8/8/8/3R4/8/K7 w - - 0 1"));
    uscf.play(cycle);
    EXPECT_FALSE(uscf.s.ended());
    Event d = ev(EventType::declare, uscf.next());
    d.declared = TerminationKind::fivefold_repetition;
    uscf.ok(d);
    EXPECT_EQ(uscf.s.end()->article, "14K1");
    Game fide(Game::config(RuleSetId::fide_2023, "7k/8/8/8/8/3R4/8/K7 w - - 0 1"));
    fide.play(cycle);
    EXPECT_EQ(fide.s.end()->kind, EndKind::fivefold_repetition);  // automatic, 9.6.1
    EXPECT_TRUE(contains(fide.refused(mv("Rd4", fide.next())), "already ended"));
    Game early(Game::config(RuleSetId::uscf));
    early.refused(d);
}

// ---------------------------------------------------------------------------------------------
// PREC and refusals

TEST(Refusals, OutOfTurnLateOrAfterTheEnd) {
    Game g(Game::config(RuleSetId::fide_2023));
    EXPECT_TRUE(contains(g.refused(by(mv("e5", 1'000), Color::black)), "out of turn"));
    EXPECT_TRUE(contains(g.refused(mv("e5", 1'000)), "not a legal move"));
    EXPECT_TRUE(contains(g.refused(mv("Zz9", 1'000)), "not a legal move"));
    EXPECT_TRUE(contains(g.refused(ev(EventType::press, 1'000)), "no move is waiting"));
    EXPECT_TRUE(contains(g.refused(ev(EventType::accept, 1'000)), "no draw offer"));
    EXPECT_TRUE(contains(g.refused(ev(EventType::pause, 1'000)), "no clock"));
    g.ok(mv("e4", 5'000));
    EXPECT_TRUE(contains(g.refused(mv("e5", 4'999)), "earlier than the previous"));
    EXPECT_TRUE(contains(g.refused(ev(EventType::start, 6'000)), "first event"));
    g.ok(by(ev(EventType::resign, 6'000), Color::white));
    EXPECT_TRUE(contains(g.refused(mv("e5", 7'000)), "already ended"));
    EXPECT_TRUE(contains(g.refused(ev(EventType::offer, 7'000)), "already ended"));
}

TEST(Clocking, PauseAndResumeAndTheImplicitStart) {
    Game g(Game::config(RuleSetId::fide_2023, "", "300"));
    g.ok(mv("e4", 10'000));  // the clock starts with the first event
    EXPECT_EQ(*g.s.clock_ms(Color::white), 300'000);
    g.ok(ev(EventType::pause, 20'000));
    g.refused(ev(EventType::pause, 21'000));
    g.ok(ev(EventType::resume, 80'000));
    g.ok(mv("e5", 90'000));
    EXPECT_EQ(*g.s.clock_ms(Color::black), 300'000 - 20'000);
}

TEST(Clocking, AnUnpressedMoveIsCompletedByTheNextMove) {
    Game g(Game::config(RuleSetId::fide_2023, "", "300"));
    g.ok(ev(EventType::start, 0));
    g.ok(mv("e4", 10'000, false));
    g.ok(mv("e5", 40'000));  // White's clock ran until Black moved
    EXPECT_EQ(g.s.moves()[0].clock_ms, 260'000);
}

// ---------------------------------------------------------------------------------------------
// Scoresheet and PGN

TEST(Pgn, TagsMovesClocksAndOffers) {
    SessionConfig cfg = Game::config(RuleSetId::fide_2023, "", "300+2");
    cfg.white = "Carlsen, Magnus";
    cfg.black = "Nepo \"Ian\"";
    Game g(cfg);
    g.ok(ev(EventType::start, 0));
    g.ok(mv("e4", 3'000));
    Event e = mv("e5", 5'000);
    e.offer = true;
    g.ok(e);
    g.ok(by(ev(EventType::resign, 9'000), Color::white));
    const std::string pgn = export_pgn(g.s);
    EXPECT_TRUE(contains(pgn, "[White \"Carlsen, Magnus\"]"));
    EXPECT_TRUE(contains(pgn, "[Black \"Nepo \\\"Ian\\\"\"]"));
    EXPECT_TRUE(contains(pgn, "[Result \"0-1\"]"));
    EXPECT_TRUE(contains(pgn, "[TimeControl \"300+2\"]"));
    EXPECT_TRUE(contains(pgn, "[Termination \"normal\"]"));
    EXPECT_TRUE(contains(pgn, "1. e4 {[%clk 0:04:59]} 1... e5 {[%clk 0:05:00] (=)"));
    EXPECT_TRUE(contains(pgn, "White resigned."));
    EXPECT_EQ(pgn.substr(pgn.size() - 5), " 0-1\n");
    for (std::size_t a = 0, b; a < pgn.size(); a = b + 1) {
        b = pgn.find('\n', a);
        EXPECT_LE(b - a, 79u);
    }
}

TEST(Pgn, SetUpPositionsAndUnfinishedGames) {
    Game g(Game::config(RuleSetId::fide_2023, "4k3/8/8/8/8/8/8/R3K3 b - - 5 40"));
    g.play("Kd7 Ra7+");
    const std::string pgn = export_pgn(g.s);
    EXPECT_TRUE(contains(pgn, "[SetUp \"1\"]"));
    EXPECT_TRUE(contains(pgn, "[FEN \"4k3/8/8/8/8/8/8/R3K3 b - - 5 40\"]"));
    EXPECT_TRUE(contains(pgn, "[Result \"*\"]"));
    EXPECT_TRUE(contains(pgn, "[Termination \"unterminated\"]"));
    EXPECT_TRUE(contains(pgn, "40... Kd7 41. Ra7+ *"));
    EXPECT_TRUE(contains(scoresheet_text(g.s), "40.  ..."));
}

// ---------------------------------------------------------------------------------------------
// Codec

TEST(Codec, EventsAndConfigsRoundTrip) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 300; ++i) {
        const SessionConfig c = random_config(rng);
        auto back = decode_config(encode(c));
        ASSERT_TRUE(back) << encode(c) << ": " << back.error().message;
        EXPECT_EQ(encode(*back), encode(c));
        auto s = Session::create(c);
        ASSERT_TRUE(s);
        std::int64_t t = 0;
        for (int k = 0; k < 20; ++k) {
            const Event e = random_event(*s, rng, t);
            auto d = decode_event(encode(e));
            ASSERT_TRUE(d) << encode(e) << ": " << d.error().message;
            EXPECT_EQ(*d, e) << encode(e);
            (void)s->apply(e);
        }
    }
    SessionConfig odd;
    odd.white = "a b=c%d\n\xc3\xa9";
    odd.start_fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    auto back = decode_config(encode(odd));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->white, odd.white);
    EXPECT_EQ(back->start_fen, odd.start_fen);
    for (const char* bad : {"", "move", "move at=x", "move at=1 frobnicate=2", "zzz at=1", "move at=1 side=red",
                            "move at=1 move=%4", "session rules=fide-1999", "session foo=1", "move  at=1"})
        EXPECT_FALSE(decode_event(bad) && decode_config(bad)) << bad;
}

TEST(EventErrors, EachRefusalCarriesItsCode) {
    using C = EventError::Code;
    Game g(Game::config(RuleSetId::fide_2023, "", "300"));
    EXPECT_EQ(g.refused_code(mv("e5", g.next())), C::illegal_move);
    EXPECT_EQ(g.refused_code(by(mv("e5", g.next()), Color::black)), C::out_of_turn);
    EXPECT_EQ(g.refused_code(ev(EventType::accept, g.next())), C::no_offer);
    EXPECT_EQ(g.refused_code(ev(EventType::press, g.next())), C::nothing_to_press);
    EXPECT_EQ(g.refused_code(ev(EventType::resign, g.next())), C::missing_field);
    EXPECT_EQ(g.refused_code(ev(EventType::quickplay_ruling, g.next())), C::no_quickplay_claim);
    g.ok(ev(EventType::pause, g.next()));
    EXPECT_EQ(g.refused_code(ev(EventType::pause, g.next())), C::already_paused);
    g.ok(ev(EventType::resume, g.next()));
    EXPECT_EQ(g.refused_code(ev(EventType::resume, g.next())), C::not_paused);
    EXPECT_EQ(g.refused_code(mv("e4", -1)), C::bad_value);
    g.play("e4");
    EXPECT_EQ(g.refused_code(touch("e2", g.next())), C::no_piece);
    EXPECT_EQ(g.refused_code(mv("e5", 1)), C::time_goes_back);
    EXPECT_EQ(g.refused_code(by(ev(EventType::flag, g.next()), Color::white)), C::flag_not_fallen);
    g.ok(by(ev(EventType::resign, g.next()), Color::black));
    EXPECT_EQ(g.refused_code(mv("e5", g.next())), C::game_over);

    Game standard;  // no clock, standard play
    EXPECT_EQ(standard.refused_code(ev(EventType::illegal_position, standard.next())), C::not_allowed_now);
    EXPECT_EQ(standard.refused_code(ev(EventType::pause, standard.next())), C::no_clock);

    Game online(Game::config(RuleSetId::fide_online));
    EXPECT_EQ(online.refused_code(touch("e2", online.next())), C::no_such_rule);
}

TEST(EventErrors, CodesHaveStableDistinctNames) {
    EXPECT_STREQ(code_name(EventError::Code::out_of_turn), "out_of_turn");
    EXPECT_STREQ(code_name(EventError::Code::move_obligation), "move_obligation");
    for (auto c : enum_values<EventError::Code>()) EXPECT_EQ(parse_enum<EventError::Code>(code_name(c)), c);
}

TEST(EventErrors, DecodingGivesATypedError) {
    using C = EventError::Code;
    const std::pair<const char*, C> cases[] = {
        {"", C::malformed},
        {"move  at=1", C::malformed},
        {"move at=1 move=%4", C::malformed},
        {"zzz at=1", C::unknown_event_type},
        {"move at=1 frobnicate=2", C::unknown_field},
        // A field of another type (the fuzzer's find: `decision` on a move read back without it).
        {"move at=1 decision=draw move=e4", C::unknown_field},
        {"offer at=1 claim=fifty", C::unknown_field},
        {"resign at=1 side=white declared=checkmate", C::unknown_field},
        {"move", C::missing_field},
        {"move at=x", C::bad_value},
        {"move at=1 side=red", C::bad_value},
    };
    for (const auto& [text, code] : cases) {
        const auto e = decode_event(text);
        ASSERT_FALSE(e) << text;
        EXPECT_EQ(e.error().code, code) << text << ": " << e.error().message;
    }
    EXPECT_EQ(decode_config("session rules=fide-1999").error().code, C::bad_value);
    EXPECT_EQ(decode_config("session foo=1").error().code, C::unknown_field);
    EXPECT_EQ(decode_config("move at=1").error().code, C::malformed);
    EXPECT_EQ(Session::create([] {
                  SessionConfig c;
                  c.start_fen = "8/8/8/8 w - -";
                  return c;
              }())
                  .error()
                  .code,
              C::bad_start_position);
}

TEST(Codec, GarbageNeverCrashes) {
    std::mt19937_64 rng(11);
    const std::string alphabet = "move at=1 side=white%20%zz=\n\x01 claim=fifty session rules=uscf tc=40/5400+30 ";
    for (int i = 0; i < 20000; ++i) {
        std::string text;
        const std::size_t n = rng() % 60;
        for (std::size_t k = 0; k < n; ++k)
            text += rng() % 4 ? alphabet[rng() % alphabet.size()] : static_cast<char>(rng() % 256);
        auto e = decode_event(text);
        if (e) EXPECT_EQ(*decode_event(encode(*e)), *e);
        auto c = decode_config(text);
        if (c) EXPECT_EQ(encode(*decode_config(encode(*c))), encode(*c));
    }
}

TEST(Refusals, AbsurdTimeAwardsAreRefused) {
    Game g = Game(quickplay(RuleSetId::fide_2023));
    g.ok(mv("e4", 1'000));
    g.ok(ev(EventType::quickplay_claim, 3'510'000));
    Event r = ev(EventType::quickplay_ruling, 3'511'000);
    r.added_ms = INT64_MAX;
    EXPECT_TRUE(contains(g.refused(r), "added_ms"));
}

// The obligations as pure rules about a position (touch_move.hpp).
TEST(TouchMove, ObligationsOfTouchedPieces) {
    const Position pos = *position_from_fen("r3k2r/8/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1");
    const auto sans = [&](const MoveObligation& o) {
        std::vector<std::string> out;
        for (Move m : o.allowed) out.push_back(to_san(pos, m));
        return out;
    };
    const auto at = [](const char* s) { return *parse_square(s); };
    auto o = touch_obligation(pos, {at("e1"), at("h1")}, "4.3");
    EXPECT_EQ(sans(o), std::vector<std::string>{"O-O"});
    EXPECT_EQ(o.reason, "4.4.1: White touched the king and then the rook on h1 and must castle on that side");
    o = touch_obligation(pos, {at("h1"), at("e1")}, "4.3");  // 4.4.2: the rook, no castling with it
    EXPECT_EQ(o.reason, "4.3.1: White touched the rook on h1 with intent and must move it");
    for (const auto& s : sans(o)) EXPECT_EQ(s[0], 'R') << s;
    o = touch_obligation(pos, {at("e4"), at("d5")}, "4.3");
    EXPECT_EQ(sans(o), std::vector<std::string>{"exd5"});
    EXPECT_EQ(o.reason, "4.3.3: White touched the pawn on e4 and the pawn on d5 and must capture it with that piece");
    o = touch_obligation(pos, {at("e8")}, "4.3");  // nothing can take it: no obligation (4.3.4)
    EXPECT_TRUE(o.allowed.empty());
    EXPECT_EQ(piece_on(pos, at("d5")), "pawn on d5");
}

// An illegal written move names a piece, read by the SAN parser: the disambiguation, a pawn's
// file, the king for castling in every spelling the parser accepts ("o-o" too: it used to name
// every pawn), the origin of a UCI move.
TEST(TouchMove, MovesOfTheWrittenPiece) {
    const Position pos = *position_from_fen("4k2r/8/8/8/8/8/1N6/4KR2 b k - 0 1");  // f8 attacked: no O-O
    const MoveList legal = legal_moves(pos);
    const auto from = [&](std::string_view written) {
        std::vector<std::string> out;
        for (Move m : moves_of_written_piece(pos, legal, written)) out.push_back(to_string(m.from()));
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    };
    const std::vector<std::string> king{"e8"}, rook{"h8"};
    for (const char* castle : {"O-O", "0-0", "o-o", "O-O-O"}) EXPECT_EQ(from(castle), king) << castle;
    EXPECT_EQ(from("e8g8"), king);
    EXPECT_EQ(from("Rh1"), rook);
    EXPECT_EQ(from("R8h1"), rook);
    EXPECT_TRUE(from("R1h2").empty());  // no black rook on the first rank
    EXPECT_TRUE(from("Nc3").empty());   // Black has no knight
    EXPECT_TRUE(from("Zz9").empty());   // not a move
    const Position white = *position_from_fen("4k3/8/8/8/8/8/PP3N2/4K1N1 w - - 0 1");
    const MoveList wl = legal_moves(white);
    const auto wfrom = [&](std::string_view written) {
        std::vector<std::string> out;
        for (Move m : moves_of_written_piece(white, wl, written)) out.push_back(to_string(m.from()));
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    };
    EXPECT_EQ(wfrom("a5"), std::vector<std::string>{"a2"});
    EXPECT_EQ(wfrom("axb5"), std::vector<std::string>{"a2"});
    EXPECT_EQ(wfrom("Ngd4"), std::vector<std::string>{"g1"});
    EXPECT_EQ(wfrom("Nd5"), (std::vector<std::string>{"g1", "f2"}));
}

// ---------------------------------------------------------------------------------------------
// Session::actions(): what a console may offer now, by the session's own checks

std::optional<EventError::Code> action(const Session& s, std::string_view name) {
    for (const auto& a : s.actions())
        if (name == a.name) return a.refusal ? std::optional(a.refusal->code) : std::nullopt;
    ADD_FAILURE() << "no action " << name;
    return std::nullopt;
}

TEST(Actions, FollowTheLawsAndNeverChangeTheSession) {
    SessionConfig cfg = Game::config(RuleSetId::fide_2023, "", "300");
    cfg.options.no_offers_before_move = 2;
    Game g(cfg);
    EXPECT_EQ(g.s.actions().size(), Session::action_names.size());
    EXPECT_EQ(action(g.s, "offer"), EventError::Code::offers_forbidden);  // 9.1.1
    EXPECT_EQ(action(g.s, "accept"), EventError::Code::no_offer);
    EXPECT_EQ(action(g.s, "resume"), EventError::Code::not_paused);
    EXPECT_EQ(action(g.s, "flag"), EventError::Code::flag_not_fallen);
    EXPECT_FALSE(action(g.s, "illegal_position"));  // blitz: A.5.4 applies
    EXPECT_FALSE(action(g.s, "move"));
    EXPECT_FALSE(action(g.s, "claim_threefold"));  // a claim may be made (and ruled incorrect)
    const std::string before = g.s.summary();
    g.play("e4 e5");
    EXPECT_EQ(action(g.s, "offer"), EventError::Code::offers_forbidden);  // White has made one move
    g.play("Nf3 Nc6");
    EXPECT_FALSE(action(g.s, "offer"));
    g.ok(ev(EventType::offer, g.next()));
    EXPECT_FALSE(action(g.s, "accept"));
    EXPECT_EQ(action(g.s, "offer"), EventError::Code::offer_pending);
    g.ok(touch("f3", g.next()));
    EXPECT_FALSE(action(g.s, "move"));  // a move of the touched knight is still possible
    g.ok(ev(EventType::pause, g.next()));
    EXPECT_FALSE(action(g.s, "resume"));
    EXPECT_EQ(action(g.s, "pause"), EventError::Code::already_paused);
    g.ok(by(ev(EventType::resign, g.next()), Color::black));
    for (const auto& a : g.s.actions()) {
        ASSERT_TRUE(a.refusal) << a.name;
        EXPECT_EQ(a.refusal->code, EventError::Code::game_over) << a.name;
    }
    EXPECT_NE(before, g.s.summary());
    const std::string after = g.s.summary();
    (void)g.s.actions();
    EXPECT_EQ(after, g.s.summary()) << "actions() tries copies, never the session";
}

// ---------------------------------------------------------------------------------------------
// Memory (issue 45): what a session keeps for each event, and what a copy of it costs

#if defined(__GLIBC__)
// The heap's bytes handed out and not given back: every arena's chunks in use and the mmapped ones.
std::size_t heap_in_use() {
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}
#endif

TEST(SessionMemory, AnEventKeepsLittleMoreThanItselfAndACopyDoesNotCopyTheEvents) {
#if defined(__GLIBC__)
    {
        // Under a sanitizer's allocator mallinfo2 sees nothing: nothing to measure then.
        const std::size_t before = heap_in_use();
        std::vector<char> block(std::size_t(1) << 20, 'x');
        if (heap_in_use() < before + block.size() || block[4096] != 'x')
            GTEST_SKIP() << "the heap is not glibc's: nothing to measure";
    }
    Game g(Game::config(RuleSetId::fide_2023, "", "5400+30"));
    // The service's way (serve/session_routes.cpp): each event checked on a copy of the session
    // that then replaces it, and the new state's actions each tried on a copy.
    auto step = [&](std::size_t i) {
        Session next = g.s;
        ASSERT_FALSE(next.apply(ev(i % 2 == 0 ? EventType::pause : EventType::resume, g.next(10))));
        g.s = std::move(next);
        EXPECT_EQ(g.s.actions().size(), Session::action_names.size());
    };
    std::size_t i = 0;
    for (; i < 64; ++i) step(i);
    const std::size_t before = heap_in_use();
    const std::size_t events = 4096;
    for (; i < 64 + events; ++i) step(i);
    const std::size_t kept = heap_in_use() - before;
    // The event itself and its share of the block it is in (a vector of the events in force kept
    // twice that: a copy has no room to spare and the event pushed on it doubles it).
    EXPECT_LT(kept, events * (sizeof(Event) + 32)) << kept / events << " bytes per event";
    // A copy shares the full blocks; it copies the partial one (half full here) and the rest of
    // the session.
    for (; i < 64 + events + EventLog::block_events / 2; ++i) step(i);
    const std::size_t held = heap_in_use();
    const Session copy = g.s;
    const std::size_t copied = heap_in_use() - held;
    EXPECT_EQ(copy.events_applied(), i);
    EXPECT_LT(copied, 16 * 1024u) << "a copy of a session of " << i << " events";
#else
    GTEST_SKIP() << "measured with glibc's mallinfo2";
#endif
}

}  // namespace
}  // namespace arbiter::testing
