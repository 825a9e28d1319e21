// game_snapshot_test.cpp — GameRecord::snapshot and restore (the JavaScript game pool's eviction):
// a restored record answers every question as the record it was taken from, under every rule set
// and with every rule option changed from its default, and bytes that are not a snapshot are refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arbiter/arbiter.hpp"

namespace {

using namespace arbiter;

GameRecord played(const std::vector<std::string>& moves, const RuleSet& rules, RuleOptions options = {},
                  const Position& start = Position()) {
    GameRecord r(start, rules, std::move(options));
    for (const auto& m : moves) EXPECT_FALSE(r.play(std::string_view(m))) << m;
    return r;
}

// Everything a face asks of a record, compared position by position.
void expect_same(const GameRecord& a, const GameRecord& b) {
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(&a.rules(), &b.rules());
    EXPECT_EQ(a.termination().has_value(), b.termination().has_value());
    if (a.termination() && b.termination()) {
        EXPECT_EQ(a.termination()->kind, b.termination()->kind);
        EXPECT_EQ(a.termination()->index, b.termination()->index);
        EXPECT_EQ(a.termination()->result, b.termination()->result);
        EXPECT_EQ(a.termination()->article, b.termination()->article);
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a.position(i).key(), b.position(i).key()) << i;
        EXPECT_EQ(a.occurrences(i), b.occurrences(i)) << i;
        EXPECT_EQ(a.no_progress(i), b.no_progress(i)) << i;
        EXPECT_EQ(a.game_ply(i), b.game_ply(i)) << i;
        EXPECT_EQ(a.occurrence_indices(i), b.occurrence_indices(i)) << i;
        if (i > 0) EXPECT_EQ(a.san(i), b.san(i)) << i;
    }
    EXPECT_EQ(a.legal_moves_now().size(), b.legal_moves_now().size());
}

TEST(GameSnapshot, ARestoredRecordIsTheRecordItWasTakenFrom) {
    const std::vector<std::string> knights{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3"};
    for (std::size_t id = 0; id < rule_set_count; ++id) {
        const RuleSet& rs = rule_set(static_cast<RuleSetId>(id));
        const GameRecord r = played(knights, rs);
        const auto back = GameRecord::restore(r.snapshot());
        ASSERT_TRUE(back) << rs.name;
        expect_same(r, *back);
        // It plays on as the original does.
        GameRecord a = r;
        EXPECT_FALSE(a.play(std::string_view("Nf6")));
        EXPECT_FALSE(back->play(std::string_view("Nf6")));
        expect_same(a, *back);
        EXPECT_EQ(evaluate_claim(a, ClaimKind::threefold).correct, evaluate_claim(*back, ClaimKind::threefold).correct)
            << rs.name;
    }
}

TEST(GameSnapshot, EveryRuleOptionAndTheEndingSurvive) {
    RuleOptions o;
    o.time_category = TimeCategory::blitz;
    o.initial_position_counts = false;
    o.counters_from_setup = RuleOptions::CountersFromSetup::game_start;
    o.no_offers_before_move = 30;
    o.intended_mate_incorrect = true;
    o.online_threefold_automatic = false;
    o.online_fifty_automatic = false;
    o.blitz_fully_supervised = true;
    o.fifty_extensions = {{"KRBvKR", 75}, {"KQvKR", 100}};
    const GameRecord mate = played({"f3", "e5", "g4", "Qh4#"}, rule_set(RuleSetId::fide_online), o);
    ASSERT_TRUE(mate.termination());
    const auto back = GameRecord::restore(mate.snapshot());
    ASSERT_TRUE(back);
    expect_same(mate, *back);
    const RuleOptions& b = back->options();
    EXPECT_TRUE(b == o);  // every field (RuleOptions' own comparison)
    EXPECT_EQ(b.time_category, o.time_category);
    EXPECT_EQ(b.initial_position_counts, o.initial_position_counts);
    EXPECT_EQ(b.counters_from_setup, o.counters_from_setup);
    EXPECT_EQ(b.no_offers_before_move, o.no_offers_before_move);
    EXPECT_EQ(b.intended_mate_incorrect, o.intended_mate_incorrect);
    EXPECT_EQ(b.online_threefold_automatic, o.online_threefold_automatic);
    EXPECT_EQ(b.online_fifty_automatic, o.online_fifty_automatic);
    EXPECT_EQ(b.blitz_fully_supervised, o.blitz_fully_supervised);
    ASSERT_EQ(b.fifty_extensions.size(), 2u);
    EXPECT_EQ(b.fifty_extensions[1].signature, "KQvKR");
    EXPECT_EQ(b.fifty_extensions[1].moves, 100);
    // A set-up position's counters and move number come back too.
    const auto start = position_from_fen("8/8/4k3/8/8/3K4/8/7R b - - 97 80");
    ASSERT_TRUE(start);
    const GameRecord fifty = played({"Ke7", "Rh7+", "Ke6"}, rule_set(RuleSetId::fide_2023), {}, *start);
    const auto again = GameRecord::restore(fifty.snapshot());
    ASSERT_TRUE(again);
    expect_same(fifty, *again);
    EXPECT_EQ(evaluate_claim(fifty, ClaimKind::fifty).correct, evaluate_claim(*again, ClaimKind::fifty).correct);
}

TEST(GameSnapshot, BytesThatAreNoSnapshotAreRefused) {
    const std::string good = played({"e4", "e5"}, rule_set(RuleSetId::fide_2023)).snapshot();
    EXPECT_TRUE(GameRecord::restore(good));
    EXPECT_FALSE(GameRecord::restore(""));
    EXPECT_FALSE(GameRecord::restore("not a snapshot at all, but long enough to be read as one"));
    for (std::size_t cut : {std::size_t{1}, std::size_t{8}, good.size() / 2, good.size() - 1})
        EXPECT_FALSE(GameRecord::restore(std::string_view(good).substr(0, cut))) << cut;
    EXPECT_FALSE(GameRecord::restore(good + "x"));
    std::string bad_rules = good;
    bad_rules[8] = static_cast<char>(rule_set_count);  // the rule-set id, after magic and entry size
    EXPECT_FALSE(GameRecord::restore(bad_rules));
}

}  // namespace
