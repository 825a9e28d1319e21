// rules.cpp — the table of rule sets (RULES.md §1, §5, §6) and option helpers.
#include "arbiter/rules.hpp"

#include <charconv>

namespace arbiter {

namespace {

using DE = DrawEffect;
using FC = FivefoldCount;
using CR = ClaimRightEnds;

// Articles per version. A flag fall is 6.9 (6.10 before 2014) in standard play and, from 2023,
// A.5.3 in rapid and blitz.
constexpr Articles fide_2023_articles{.checkmate = "5.1.1",
                                      .stalemate = "5.2.1",
                                      .dead_position = "5.2.2",
                                      .threefold_now = "9.2.2",
                                      .threefold_intended = "9.2.1",
                                      .fifty_now = "9.3.2",
                                      .fifty_intended = "9.3.1",
                                      .fivefold = "9.6.1",
                                      .seventy_five = "9.6.2",
                                      .position_identity = "9.2.3",
                                      .flag = "6.9",
                                      .flag_rapid_blitz = "A.5.3"};
constexpr Articles fide_2018_articles{.checkmate = "5.1.1",
                                      .stalemate = "5.2.1",
                                      .dead_position = "5.2.2",
                                      .threefold_now = "9.2.1.2",
                                      .threefold_intended = "9.2.1.1",
                                      .fifty_now = "9.3.2",
                                      .fifty_intended = "9.3.1",
                                      .fivefold = "9.6.1",
                                      .seventy_five = "9.6.2",
                                      .position_identity = "9.2.2",
                                      .flag = "6.9",
                                      .flag_rapid_blitz = "6.9"};
constexpr Articles fide_2014_articles{.checkmate = "5.1a",
                                      .stalemate = "5.2a",
                                      .dead_position = "5.2b",
                                      .threefold_now = "9.2b",
                                      .threefold_intended = "9.2a",
                                      .fifty_now = "9.3b",
                                      .fifty_intended = "9.3a",
                                      .fivefold = "9.6a",
                                      .seventy_five = "9.6b",
                                      .position_identity = "9.2",
                                      .flag = "6.9",
                                      .flag_rapid_blitz = "6.9"};
// FIDE 2009 and 2005.
constexpr Articles fide_2009_articles{.checkmate = "5.1a",
                                      .stalemate = "5.2a",
                                      .dead_position = "9.6",
                                      .threefold_now = "9.2b",
                                      .threefold_intended = "9.2a",
                                      .fifty_now = "9.3b",
                                      .fifty_intended = "9.3a",
                                      .fivefold = "",
                                      .seventy_five = "",
                                      .position_identity = "9.2",
                                      .flag = "6.10",
                                      .flag_rapid_blitz = "6.10"};
constexpr Articles online_articles{.checkmate = "5.1.1",
                                   .stalemate = "5.2.1",
                                   .dead_position = "5.2.2",
                                   .threefold_now = "Online 5.4.1",
                                   .threefold_intended = "9.2.1",
                                   .fifty_now = "Online 5.4.4",
                                   .fifty_intended = "9.3.1",
                                   .fivefold = "9.6.1",
                                   .seventy_five = "9.6.2",
                                   .position_identity = "9.2.3",
                                   .flag = "6.9",
                                   .flag_rapid_blitz = "6.9"};
constexpr Articles uscf_articles{.checkmate = "12A",
                                 .stalemate = "14A",
                                 .dead_position = "14D",
                                 .threefold_now = "14C",
                                 .threefold_intended = "14C2",
                                 .fifty_now = "14F1",
                                 .fifty_intended = "14F1",
                                 .fivefold = "14K1",
                                 .seventy_five = "14K2",
                                 .position_identity = "14C",
                                 .flag = "13C, 14E",
                                 .flag_rapid_blitz = "13C, 14E"};
constexpr Articles iccf_articles{.checkmate = "5.1.1",
                                 .stalemate = "5.2.1",
                                 .dead_position = "5.2.2",
                                 .threefold_now = "9.2",
                                 .threefold_intended = "9.2",
                                 .fifty_now = "9.3",
                                 .fifty_intended = "9.3",
                                 .fivefold = "",
                                 .seventy_five = "",
                                 .position_identity = "9.2",
                                 .flag = "6.9",
                                 .flag_rapid_blitz = "6.9"};

// The rule set's name comes from the name table of RuleSetId.
constexpr RuleSet named(RuleSet r) {
    r.name = enum_name(r.id);
    return r;
}

constexpr std::array<RuleSet, rule_set_count> table = {{
    named({.id = RuleSetId::fide_2023,
           .title = "FIDE Laws of Chess 2023",
           .in_force = "2023-01-01 on",
           .threefold = DE::claim,
           .fifty = DE::claim,
           .fivefold = DE::automatic,
           .fivefold_count = FC::any_five,
           .seventy_five = DE::automatic,
           .intended_move_claims = true,
           .claim_right_ends = CR::touching_a_piece,
           .incorrect_claim_penalty_s = {120, 60, 60},
           .supervised_blitz_penalty_s = 120,
           .claimant_time_deduction = false,
           .resignation_draw_if_opponent_cannot_mate = true,
           .agreement_needs_a_move_each = true,
           .flag_test = FlagTest::helpmate,
           .fifty_rule_max_tablebase_pieces = 0,
           .automatic_draws_optional = false,
           .articles = fide_2023_articles}),
    named({.id = RuleSetId::fide_2018,
           .title = "FIDE Laws of Chess 2018 (same draw rules as 2017)",
           .in_force = "2017-07-01 to 2022-12-31",
           .threefold = DE::claim,
           .fifty = DE::claim,
           .fivefold = DE::automatic,
           .fivefold_count = FC::any_five,
           .seventy_five = DE::automatic,
           .intended_move_claims = true,
           .claim_right_ends = CR::touching_a_piece,
           .incorrect_claim_penalty_s = {120, 120, 60},
           .supervised_blitz_penalty_s = 0,
           .claimant_time_deduction = false,
           .resignation_draw_if_opponent_cannot_mate = false,
           .agreement_needs_a_move_each = true,
           .flag_test = FlagTest::helpmate,
           .fifty_rule_max_tablebase_pieces = 0,
           .automatic_draws_optional = false,
           .articles = fide_2018_articles}),
    named({.id = RuleSetId::fide_2014,
           .title = "FIDE Laws of Chess 2014",
           .in_force = "2014-07-01 to 2017-06-30",
           .threefold = DE::claim,
           .fifty = DE::claim,
           .fivefold = DE::automatic,
           .fivefold_count = FC::consecutive_alternate_moves,
           .seventy_five = DE::automatic,
           .intended_move_claims = true,
           .claim_right_ends = CR::touching_a_piece,
           .incorrect_claim_penalty_s = {120, 120, 60},
           .supervised_blitz_penalty_s = 0,
           .claimant_time_deduction = false,
           .resignation_draw_if_opponent_cannot_mate = false,
           .agreement_needs_a_move_each = false,
           .flag_test = FlagTest::helpmate,
           .fifty_rule_max_tablebase_pieces = 0,
           .automatic_draws_optional = false,
           .articles = fide_2014_articles}),
    named({.id = RuleSetId::fide_2009,
           .title = "FIDE Laws of Chess 2009",
           .in_force = "2009-07-01 to 2014-06-30",
           .threefold = DE::claim,
           .fifty = DE::claim,
           .fivefold = DE::none,
           .fivefold_count = FC::any_five,
           .seventy_five = DE::none,
           .intended_move_claims = true,
           .claim_right_ends = CR::touching_a_piece,
           .incorrect_claim_penalty_s = {180, 180, 180},
           .supervised_blitz_penalty_s = 0,
           .claimant_time_deduction = false,
           .resignation_draw_if_opponent_cannot_mate = false,
           .agreement_needs_a_move_each = false,
           .flag_test = FlagTest::helpmate,
           .fifty_rule_max_tablebase_pieces = 0,
           .automatic_draws_optional = false,
           .articles = fide_2009_articles}),
    named({.id = RuleSetId::fide_2005,
           .title = "FIDE Laws of Chess 2005",
           .in_force = "2005-07-01 to 2009-06-30",
           .threefold = DE::claim,
           .fifty = DE::claim,
           .fivefold = DE::none,
           .fivefold_count = FC::any_five,
           .seventy_five = DE::none,
           .intended_move_claims = true,
           .claim_right_ends = CR::moving_a_piece,
           .incorrect_claim_penalty_s = {180, 180, 180},
           .supervised_blitz_penalty_s = 0,
           .claimant_time_deduction = true,
           .resignation_draw_if_opponent_cannot_mate = false,
           .agreement_needs_a_move_each = false,
           .flag_test = FlagTest::helpmate,
           .fifty_rule_max_tablebase_pieces = 0,
           .automatic_draws_optional = false,
           .articles = fide_2009_articles}),
    named({.id = RuleSetId::fide_online,
           .title = "FIDE Online Chess Regulations",
           .in_force = "current",
           .threefold = DE::automatic,
           .fifty = DE::automatic,
           .fivefold = DE::automatic,
           .fivefold_count = FC::any_five,
           .seventy_five = DE::automatic,
           .intended_move_claims = false,
           .claim_right_ends = CR::touching_a_piece,
           .incorrect_claim_penalty_s = {0, 0, 0},
           .supervised_blitz_penalty_s = 0,
           .claimant_time_deduction = false,
           .resignation_draw_if_opponent_cannot_mate = true,
           .agreement_needs_a_move_each = true,
           .flag_test = FlagTest::helpmate,
           .fifty_rule_max_tablebase_pieces = 0,
           .automatic_draws_optional = true,
           .articles = online_articles}),
    named({.id = RuleSetId::uscf,
           .title = "US Chess Official Rules of Chess, 7th edition",
           .in_force = "current",
           .threefold = DE::claim,
           .fifty = DE::claim,
           .fivefold = DE::director_may_declare,
           .fivefold_count = FC::consecutive_alternate_moves,
           .seventy_five = DE::director_may_declare,
           .intended_move_claims = true,
           .claim_right_ends = CR::pressing_the_clock,
           .incorrect_claim_penalty_s = {120, 120, 120},
           .supervised_blitz_penalty_s = 0,
           .claimant_time_deduction = false,
           .resignation_draw_if_opponent_cannot_mate = false,
           .agreement_needs_a_move_each = false,
           .flag_test = FlagTest::uscf_forced_win,
           .fifty_rule_max_tablebase_pieces = 0,
           .automatic_draws_optional = false,
           .articles = uscf_articles}),
    named({.id = RuleSetId::iccf,
           .title = "ICCF Laws of Correspondence Chess",
           .in_force = "2019-01-01 on",
           .threefold = DE::claim,
           .fifty = DE::claim,
           .fivefold = DE::none,
           .fivefold_count = FC::any_five,
           .seventy_five = DE::none,
           .intended_move_claims = true,
           .claim_right_ends = CR::moving_a_piece,
           .incorrect_claim_penalty_s = {0, 0, 0},
           .supervised_blitz_penalty_s = 0,
           .claimant_time_deduction = false,
           .resignation_draw_if_opponent_cannot_mate = false,
           .agreement_needs_a_move_each = false,
           .flag_test = FlagTest::helpmate,
           .fifty_rule_max_tablebase_pieces = 7,
           .automatic_draws_optional = false,
           .articles = iccf_articles}),
}};

// rule_set(id) indexes the table: its rows must stand in the order of RuleSetId.
static_assert(rows_follow_ids(table), "the rows of the rule-set table must follow RuleSetId");

}  // namespace

const RuleSet& rule_set(RuleSetId id) noexcept { return table[static_cast<std::size_t>(id)]; }
const std::array<RuleSet, rule_set_count>& all_rule_sets() noexcept { return table; }

std::optional<RuleSetId> fide_rules_on(std::string_view date) noexcept {
    // "YYYY.MM.DD", with "??" for unknown parts.
    if (date.size() < 4) return std::nullopt;
    int year = 0, month = 0, day = 0;
    if (std::from_chars(date.data(), date.data() + 4, year).ec != std::errc()) return std::nullopt;
    if (date.size() >= 7) std::from_chars(date.data() + 5, date.data() + 7, month);
    if (date.size() >= 10) std::from_chars(date.data() + 8, date.data() + 10, day);
    const int ymd = year * 10000 + month * 100 + day;
    // An unknown month or day counts as the start of the year/month: for "2014.??.??" this
    // picks the rules in force on 1 January 2014.
    if (ymd >= 20230101) return RuleSetId::fide_2023;
    if (ymd >= 20170701) return RuleSetId::fide_2018;
    if (ymd >= 20140701) return RuleSetId::fide_2014;
    if (ymd >= 20090701) return RuleSetId::fide_2009;
    return RuleSetId::fide_2005;
}

std::optional<FiftyMoveExtension> parse_fifty_extension(std::string_view text) {
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    const std::string_view sig = text.substr(0, eq);
    const auto v = sig.find('v');
    if (v == std::string_view::npos || v == 0 || v + 1 >= sig.size()) return std::nullopt;
    if (sig[0] != 'K' || sig[v + 1] != 'K') return std::nullopt;
    for (std::size_t i = 0; i < sig.size(); ++i) {
        if (i == v) continue;
        if (std::string_view("KQRBNP").find(sig[i]) == std::string_view::npos) return std::nullopt;
    }
    int moves = 0;
    const auto num = text.substr(eq + 1);
    const auto r = std::from_chars(num.data(), num.data() + num.size(), moves);
    if (r.ec != std::errc() || r.ptr != num.data() + num.size() || moves < 1 || moves > 10000) return std::nullopt;
    return FiftyMoveExtension{std::string(sig), moves};
}

DrawEffect threefold_effect(const RuleSet& rules, const RuleOptions& options) noexcept {
    if (rules.automatic_draws_optional && !options.online_threefold_automatic) return DrawEffect::claim;
    return rules.threefold;
}

DrawEffect fifty_effect(const RuleSet& rules, const RuleOptions& options) noexcept {
    if (rules.automatic_draws_optional && !options.online_fifty_automatic) return DrawEffect::claim;
    return rules.fifty;
}

int incorrect_claim_penalty_seconds(const RuleSet& rules, const RuleOptions& options) noexcept {
    if (rules.supervised_blitz_penalty_s > 0 && options.time_category == TimeCategory::blitz &&
        options.blitz_fully_supervised)
        return rules.supervised_blitz_penalty_s;
    return rules.incorrect_claim_penalty_s[static_cast<std::size_t>(options.time_category)];
}

}  // namespace arbiter
