// RULES.md §6, row by row, for every rule set: the data the rules layer reads, and the behaviour
// it produces on small games (threefold / fifty automatic or claimed, fivefold, 75 moves,
// identity, penalties, article numbers).
#include <gtest/gtest.h>

#include "rules_test_util.hpp"

using namespace arbiter;
using arbiter::testing::record;
using arbiter::testing::repeat;

namespace {

struct Row {
    RuleSetId id;
    DrawEffect threefold, fifty, fivefold, seventy_five;
    FivefoldCount count;
    bool intended;
    ClaimRightEnds right_ends;
    int penalty_standard, penalty_rapid, penalty_blitz;
    bool resign_draw, agreement_needs_move;
    FlagTest flag;
    const char* threefold_now_article;
};

using DE = DrawEffect;
const Row rows[] = {
    {RuleSetId::fide_2023, DE::claim, DE::claim, DE::automatic, DE::automatic, FivefoldCount::any_five, true,
     ClaimRightEnds::touching_a_piece, 120, 60, 60, true, true, FlagTest::helpmate, "9.2.2"},
    {RuleSetId::fide_2018, DE::claim, DE::claim, DE::automatic, DE::automatic, FivefoldCount::any_five, true,
     ClaimRightEnds::touching_a_piece, 120, 120, 60, false, true, FlagTest::helpmate, "9.2.1.2"},
    {RuleSetId::fide_2014, DE::claim, DE::claim, DE::automatic, DE::automatic,
     FivefoldCount::consecutive_alternate_moves, true, ClaimRightEnds::touching_a_piece, 120, 120, 60, false, false,
     FlagTest::helpmate, "9.2b"},
    {RuleSetId::fide_2009, DE::claim, DE::claim, DE::none, DE::none, FivefoldCount::any_five, true,
     ClaimRightEnds::touching_a_piece, 180, 180, 180, false, false, FlagTest::helpmate, "9.2b"},
    {RuleSetId::fide_2005, DE::claim, DE::claim, DE::none, DE::none, FivefoldCount::any_five, true,
     ClaimRightEnds::moving_a_piece, 180, 180, 180, false, false, FlagTest::helpmate, "9.2b"},
    {RuleSetId::fide_online, DE::automatic, DE::automatic, DE::automatic, DE::automatic, FivefoldCount::any_five, false,
     ClaimRightEnds::touching_a_piece, 0, 0, 0, true, true, FlagTest::helpmate, "Online 5.4.1"},
    {RuleSetId::uscf, DE::claim, DE::claim, DE::director_may_declare, DE::director_may_declare,
     FivefoldCount::consecutive_alternate_moves, true, ClaimRightEnds::pressing_the_clock, 120, 120, 120, false, false,
     FlagTest::uscf_forced_win, "14C"},
    {RuleSetId::iccf, DE::claim, DE::claim, DE::none, DE::none, FivefoldCount::any_five, true,
     ClaimRightEnds::moving_a_piece, 0, 0, 0, false, false, FlagTest::helpmate, "9.2"},
};

}  // namespace

class RuleSetRow : public ::testing::TestWithParam<Row> {};

TEST_P(RuleSetRow, DataMatchesSection6) {
    const Row& row = GetParam();
    const RuleSet& rs = rule_set(row.id);
    EXPECT_EQ(rs.id, row.id);
    EXPECT_EQ(parse_rule_set(rs.name), row.id);
    EXPECT_EQ(rs.threefold, row.threefold);
    EXPECT_EQ(rs.fifty, row.fifty);
    EXPECT_EQ(rs.fivefold, row.fivefold);
    EXPECT_EQ(rs.seventy_five, row.seventy_five);
    if (rs.fivefold != DE::none) {
        EXPECT_EQ(rs.fivefold_count, row.count);
    }
    EXPECT_EQ(rs.intended_move_claims, row.intended);
    EXPECT_EQ(rs.claim_right_ends, row.right_ends);
    RuleOptions o;
    o.time_category = TimeCategory::standard;
    EXPECT_EQ(incorrect_claim_penalty_seconds(rs, o), row.penalty_standard);
    o.time_category = TimeCategory::rapid;
    EXPECT_EQ(incorrect_claim_penalty_seconds(rs, o), row.penalty_rapid);
    o.time_category = TimeCategory::blitz;
    EXPECT_EQ(incorrect_claim_penalty_seconds(rs, o), row.penalty_blitz);
    EXPECT_EQ(rs.resignation_draw_if_opponent_cannot_mate, row.resign_draw);
    EXPECT_EQ(rs.agreement_needs_a_move_each, row.agreement_needs_move);
    EXPECT_EQ(rs.flag_test, row.flag);
    EXPECT_STREQ(rs.articles.threefold_now, row.threefold_now_article);
    EXPECT_EQ(rs.claimant_time_deduction, row.id == RuleSetId::fide_2005);
}

TEST_P(RuleSetRow, ThreefoldBehaviour) {
    const Row& row = GetParam();
    auto r = record("", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", row.id);
    if (row.threefold == DE::automatic) {
        ASSERT_TRUE(r.ended());
        EXPECT_EQ(r.termination()->kind, TerminationKind::threefold_repetition);
    } else {
        EXPECT_FALSE(r.ended());
        const auto v = evaluate_claim(r, ClaimKind::threefold);
        EXPECT_TRUE(v.correct);
        EXPECT_EQ(v.article, row.threefold_now_article);
        EXPECT_TRUE(draw_status(r).threefold.now);
    }
}

TEST_P(RuleSetRow, FiftyBehaviour) {
    const Row& row = GetParam();
    // 100 plies without progress (9 pieces, so ICCF's tablebase exception does not apply).
    auto r = record("r3k3/p6p/8/8/8/8/P6P/R3K2R w - - 99 60", "Rb1", row.id);
    if (row.fifty == DE::automatic) {
        ASSERT_TRUE(r.ended());
        EXPECT_EQ(r.termination()->kind, TerminationKind::fifty_moves);
    } else {
        EXPECT_FALSE(r.ended());
        EXPECT_TRUE(evaluate_claim(r, ClaimKind::fifty).correct);
    }
}

TEST_P(RuleSetRow, SeventyFiveAndFivefoldBehaviour) {
    const Row& row = GetParam();
    auto r75 = record("k7/8/1K6/8/8/8/8/7R w - - 149 100", "Rh2", row.id);
    auto r5 = record("7k/8/8/8/8/3R4/8/K7 w - - 0 1", repeat("Rd4 Kh7 Rd3 Kh8", 4), row.id);
    if (row.seventy_five == DE::automatic) {
        ASSERT_TRUE(r75.ended());
        EXPECT_EQ(r75.termination()->kind, row.id == RuleSetId::fide_online ? TerminationKind::fifty_moves
                                                                            : TerminationKind::seventy_five_moves);
    } else {
        EXPECT_EQ(r75.ended(), false);
        EXPECT_EQ(r75.director_may_declare(1).size(), row.seventy_five == DE::director_may_declare ? 1u : 0u);
    }
    if (row.fivefold == DE::automatic) {
        EXPECT_TRUE(r5.ended());
    } else {
        EXPECT_FALSE(r5.ended());
        EXPECT_EQ(r5.director_may_declare(16).size(), row.fivefold == DE::director_may_declare ? 1u : 0u);
    }
}

TEST_P(RuleSetRow, IdentityUsesLegalEnPassantAndCastlingRights) {
    // Same keys for every rule set (RULES.md: rights-based castling, legal en passant).
    const Row& row = GetParam();
    auto ep = record("", "e4 Nf6 e5 d5 Be2 Bd7 Bf1 Bc8 Bd3 Be6 Bf1 Bc8", row.id);
    EXPECT_EQ(ep.occurrences(12), 2u);
    auto castle = record("", "e4 e5 Qe2 Qe7 Qd1 Qd8 Ke2 Ke7 Ke1 Ke8", row.id);
    EXPECT_EQ(castle.occurrences(10), 1u);
}

INSTANTIATE_TEST_SUITE_P(AllRuleSets, RuleSetRow, ::testing::ValuesIn(rows), [](const auto& info) {
    std::string n = rule_set(info.param.id).name;
    for (char& c : n)
        if (c == '-') c = '_';
    return n;
});

TEST(RuleSets, NamesAndDates) {
    EXPECT_EQ(all_rule_sets().size(), 8u);
    EXPECT_FALSE(parse_rule_set("fide-2000"));
    EXPECT_EQ(fide_rules_on("2023.05.01"), RuleSetId::fide_2023);
    EXPECT_EQ(fide_rules_on("2022.12.31"), RuleSetId::fide_2018);
    EXPECT_EQ(fide_rules_on("2017.07.01"), RuleSetId::fide_2018);
    EXPECT_EQ(fide_rules_on("2017.06.30"), RuleSetId::fide_2014);
    EXPECT_EQ(fide_rules_on("2014.07.01"), RuleSetId::fide_2014);
    EXPECT_EQ(fide_rules_on("2014.??.??"), RuleSetId::fide_2009);
    EXPECT_EQ(fide_rules_on("2009.07.01"), RuleSetId::fide_2009);
    EXPECT_EQ(fide_rules_on("1999.01.01"), RuleSetId::fide_2005);
    EXPECT_FALSE(fide_rules_on("????.??.??"));
    EXPECT_FALSE(fide_rules_on(""));
}

TEST(RuleSets, BlitzUnderFullSupervision2023) {
    RuleOptions o;
    o.time_category = TimeCategory::blitz;
    o.blitz_fully_supervised = true;
    EXPECT_EQ(incorrect_claim_penalty_seconds(rule_set(RuleSetId::fide_2023), o), 120);
    EXPECT_EQ(incorrect_claim_penalty_seconds(rule_set(RuleSetId::fide_2018), o), 60);
}

TEST(RuleSets, IccfTablebaseExceptionToFifty) {
    auto r = record("4k3/8/8/8/8/8/8/R3K3 w - - 100 60", "", RuleSetId::iccf);
    const auto v = evaluate_claim(r, ClaimKind::fifty);
    EXPECT_FALSE(v.correct);
    EXPECT_NE(v.reason.find("tablebase"), std::string::npos);
    EXPECT_TRUE(evaluate_claim(record("4k3/8/8/8/8/8/8/R3K3 w - - 100 60", ""), ClaimKind::fifty).correct);
}

TEST(RuleSets, FiftyMoveExtensions) {
    EXPECT_FALSE(parse_fifty_extension("KRBvKR"));
    EXPECT_FALSE(parse_fifty_extension("KRBxKR=75"));
    EXPECT_FALSE(parse_fifty_extension("KRBvKR=0"));
    ASSERT_TRUE(parse_fifty_extension("KBRvKR=75"));
    RuleOptions o;
    o.fifty_extensions.push_back(*parse_fifty_extension("KBRvKR=75"));  // letter order does not matter
    auto r = record("4k3/8/8/8/8/8/4r3/R3KB2 w - - 120 80", "", RuleSetId::fide_2009, o);
    EXPECT_EQ(material_signature(r.current()), "KRBvKR");
    EXPECT_EQ(r.fifty_limit_plies(r.current()), 150u);
    const auto v = evaluate_claim(r, ClaimKind::fifty);
    EXPECT_FALSE(v.correct);
    EXPECT_EQ(v.required_plies, 150u);
    // The same material with colours reversed matches too.
    auto r2 = record("r3kb2/R7/8/8/8/8/8/4K3 w - - 150 80", "", RuleSetId::fide_2009, o);
    EXPECT_TRUE(evaluate_claim(r2, ClaimKind::fifty).correct);
    // Without the extension 100 plies suffice.
    EXPECT_TRUE(
        evaluate_claim(record("4k3/8/8/8/8/8/4r3/R3KB2 w - - 120 80", "", RuleSetId::fide_2009), ClaimKind::fifty)
            .correct);
}

TEST(Endings, StalemateAndDeadPositionByMaterial) {
    auto st = record("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "");
    ASSERT_TRUE(st.ended());
    EXPECT_EQ(st.termination()->kind, TerminationKind::stalemate);
    EXPECT_EQ(st.termination()->article, "5.2.1");
    auto dead = record("8/8/8/4k3/8/8/3qK3/8 w - - 0 1", "Kxd2");
    ASSERT_TRUE(dead.ended());
    EXPECT_EQ(dead.termination()->kind, TerminationKind::dead_position);
    EXPECT_EQ(dead.termination()->index, 1u);
    auto bishops = record("8/8/3b4/4k3/8/8/4K3/2B5 w - - 0 1", "");  // same-coloured bishops
    ASSERT_TRUE(bishops.ended());
    EXPECT_EQ(bishops.termination()->kind, TerminationKind::dead_position);
    EXPECT_FALSE(record("8/8/2b5/4k3/8/8/4K3/2B5 w - - 0 1", "").ended());  // opposite colours
    // A claim after the end is refused.
    EXPECT_FALSE(evaluate_claim(dead, ClaimKind::threefold).correct);
    EXPECT_NE(evaluate_claim(dead, ClaimKind::threefold).reason.find("already ended"), std::string::npos);
    // Moves after the end are still recorded; the first ending stays.
    auto on = record("8/8/8/4k3/8/8/3qK3/8 w - - 0 1", "Kxd2 Kd5 Kd3");
    EXPECT_EQ(on.termination()->index, 1u);
    EXPECT_EQ(on.size(), 4u);
}

TEST(Claims, IllegalIntendedMoveIsIncorrect) {
    auto r = record("", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    const auto v = evaluate_claim(r, ClaimKind::threefold, Move::normal(Square::e2, Square::e5));
    EXPECT_FALSE(v.correct);
    EXPECT_NE(v.reason.find("not legal"), std::string::npos);
}

TEST(Claims, ThreefoldNowWithIntendedMoveStillCorrect) {
    auto r = record("", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    const auto v = evaluate_claim(r, ClaimKind::threefold, *parse_san(r.current(), "e4"));
    EXPECT_TRUE(v.correct);
    EXPECT_EQ(v.article, "9.2.2");
}

TEST(Claims, FifthOccurrenceStillClaimableUnder2009) {
    auto r = record("", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", RuleSetId::fide_2009);
    EXPECT_EQ(r.occurrences(12), 4u);
    EXPECT_TRUE(evaluate_claim(r, ClaimKind::threefold).correct);
}

TEST(Status, Keys) {
    auto r = record("", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    const auto s = draw_status(r);
    EXPECT_EQ(s.ply, 7u);
    EXPECT_EQ(s.side_to_move, Color::black);
    EXPECT_EQ(s.no_progress_plies, 7u);
    EXPECT_EQ(s.repetition_count, 2u);
    EXPECT_EQ(s.repetition_plies, (std::vector<std::uint32_t>{3, 7}));
    EXPECT_FALSE(s.threefold.now);
    ASSERT_EQ(s.threefold.intended.size(), 1u);
    EXPECT_EQ(to_san(r.current(), s.threefold.intended[0]), "Ng8");
    EXPECT_FALSE(s.termination);
    EXPECT_EQ(r.move_label(7), "4.Ng1");
    EXPECT_EQ(r.move_label(6), "3...Nf6");
}
