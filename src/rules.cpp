// rules.cpp — the table of rule sets (RULES.md §1, §5, §6) and option helpers.
#include "arbiter/rules.hpp"

#include <charconv>

namespace arbiter {

namespace {

using DE = DrawEffect;
using FC = FivefoldCount;
using CR = ClaimRightEnds;

constexpr Articles fide_2023_articles{"5.1.1", "5.2.1", "5.2.2", "9.2.2", "9.2.1",
                                      "9.3.2", "9.3.1", "9.6.1", "9.6.2", "9.2.3"};
constexpr Articles fide_2018_articles{"5.1.1", "5.2.1", "5.2.2", "9.2.1.2", "9.2.1.1",
                                      "9.3.2", "9.3.1", "9.6.1", "9.6.2",   "9.2.2"};
constexpr Articles fide_2014_articles{"5.1a", "5.2a", "5.2b", "9.2b", "9.2a", "9.3b", "9.3a", "9.6a", "9.6b", "9.2"};
constexpr Articles fide_2009_articles{"5.1a", "5.2a", "9.6", "9.2b", "9.2a", "9.3b", "9.3a", "", "", "9.2"};
constexpr Articles online_articles{"5.1.1",        "5.2.1", "5.2.2", "Online 5.4.1", "9.2.1",
                                   "Online 5.4.4", "9.3.1", "9.6.1", "9.6.2",        "9.2.3"};
constexpr Articles uscf_articles{"12A", "14A", "14D", "14C", "14C2", "14F1", "14F1", "14K1", "14K2", "14C"};
constexpr Articles iccf_articles{"5.1.1", "5.2.1", "5.2.2", "9.2", "9.2", "9.3", "9.3", "", "", "9.2"};

// clang-format off
const std::array<RuleSet, 8> table = {{
    {RuleSetId::fide_2023, "fide-2023", "FIDE Laws of Chess 2023", "2023-01-01 on",
     DE::claim, DE::claim, DE::automatic, FC::any_five, DE::automatic, true, CR::touching_a_piece,
     {120, 60, 60}, false, true, true, FlagTest::helpmate, 0, fide_2023_articles},
    {RuleSetId::fide_2018, "fide-2018", "FIDE Laws of Chess 2018 (same draw rules as 2017)", "2017-07-01 to 2022-12-31",
     DE::claim, DE::claim, DE::automatic, FC::any_five, DE::automatic, true, CR::touching_a_piece,
     {120, 120, 60}, false, false, true, FlagTest::helpmate, 0, fide_2018_articles},
    {RuleSetId::fide_2014, "fide-2014", "FIDE Laws of Chess 2014", "2014-07-01 to 2017-06-30",
     DE::claim, DE::claim, DE::automatic, FC::consecutive_alternate_moves, DE::automatic, true, CR::touching_a_piece,
     {120, 120, 60}, false, false, false, FlagTest::helpmate, 0, fide_2014_articles},
    {RuleSetId::fide_2009, "fide-2009", "FIDE Laws of Chess 2009", "2009-07-01 to 2014-06-30",
     DE::claim, DE::claim, DE::none, FC::any_five, DE::none, true, CR::touching_a_piece,
     {180, 180, 180}, false, false, false, FlagTest::helpmate, 0, fide_2009_articles},
    {RuleSetId::fide_2005, "fide-2005", "FIDE Laws of Chess 2005", "2005-07-01 to 2009-06-30",
     DE::claim, DE::claim, DE::none, FC::any_five, DE::none, true, CR::moving_a_piece,
     {180, 180, 180}, true, false, false, FlagTest::helpmate, 0, fide_2009_articles},
    {RuleSetId::fide_online, "fide-online", "FIDE Online Chess Regulations", "current",
     DE::automatic, DE::automatic, DE::automatic, FC::any_five, DE::automatic, false, CR::touching_a_piece,
     {0, 0, 0}, false, true, true, FlagTest::helpmate, 0, online_articles},
    {RuleSetId::uscf, "uscf", "US Chess Official Rules of Chess, 7th edition", "current",
     DE::claim, DE::claim, DE::director_may_declare, FC::consecutive_alternate_moves, DE::director_may_declare, true,
     CR::pressing_the_clock, {120, 120, 120}, false, false, false, FlagTest::uscf_forced_win, 0, uscf_articles},
    {RuleSetId::iccf, "iccf", "ICCF Laws of Correspondence Chess", "2019-01-01 on",
     DE::claim, DE::claim, DE::none, FC::any_five, DE::none, true, CR::moving_a_piece,
     {0, 0, 0}, false, false, false, FlagTest::helpmate, 7, iccf_articles},
}};
// clang-format on

}  // namespace

const RuleSet& rule_set(RuleSetId id) noexcept { return table[static_cast<std::size_t>(id)]; }
const std::array<RuleSet, 8>& all_rule_sets() noexcept { return table; }

std::optional<RuleSetId> parse_rule_set(std::string_view name) noexcept {
    for (const auto& r : table)
        if (name == r.name) return r.id;
    return std::nullopt;
}

const char* time_category_name(TimeCategory c) noexcept {
    switch (c) {
        case TimeCategory::standard: return "standard";
        case TimeCategory::rapid: return "rapid";
        case TimeCategory::blitz: return "blitz";
    }
    return "standard";
}

std::optional<TimeCategory> parse_time_category(std::string_view name) noexcept {
    if (name == "standard") return TimeCategory::standard;
    if (name == "rapid") return TimeCategory::rapid;
    if (name == "blitz") return TimeCategory::blitz;
    return std::nullopt;
}

const char* draw_effect_name(DrawEffect e) noexcept {
    switch (e) {
        case DrawEffect::none: return "none";
        case DrawEffect::claim: return "claim";
        case DrawEffect::automatic: return "automatic";
        case DrawEffect::director_may_declare: return "director_may_declare";
    }
    return "none";
}

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
    if (rules.id == RuleSetId::fide_online && !options.online_threefold_automatic) return DrawEffect::claim;
    return rules.threefold;
}

DrawEffect fifty_effect(const RuleSet& rules, const RuleOptions& options) noexcept {
    if (rules.id == RuleSetId::fide_online && !options.online_fifty_automatic) return DrawEffect::claim;
    return rules.fifty;
}

int incorrect_claim_penalty_seconds(const RuleSet& rules, const RuleOptions& options) noexcept {
    if (rules.id == RuleSetId::fide_2023 && options.time_category == TimeCategory::blitz &&
        options.blitz_fully_supervised)
        return 120;
    return rules.incorrect_claim_penalty_s[static_cast<std::size_t>(options.time_category)];
}

}  // namespace arbiter
