// rules.hpp — the rule sets as data: for each version of the Laws (FIDE 2005–2023, FIDE online,
// US Chess, ICCF) which draws are automatic, which are claims, which a director may declare, the
// article numbers to cite, and the claim penalties; plus the options of RULES.md §1.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/names.hpp"

namespace arbiter {

enum class RuleSetId : std::uint8_t { fide_2023, fide_2018, fide_2014, fide_2009, fide_2005, fide_online, uscf, iccf };
enum class TimeCategory : std::uint8_t { standard, rapid, blitz };

/// Stable ids of the rule sets, e.g. "fide-2023" (docs/rules.md).
template <>
struct EnumNames<RuleSetId> {
    static constexpr auto names = std::to_array<const char*>(
        {"fide-2023", "fide-2018", "fide-2014", "fide-2009", "fide-2005", "fide-online", "uscf", "iccf"});
};
static_assert(enum_count<RuleSetId> == std::size_t(RuleSetId::iccf) + 1);
/// How many rule sets there are.
inline constexpr std::size_t rule_set_count = enum_count<RuleSetId>;

template <>
struct EnumNames<TimeCategory> {
    static constexpr auto names = std::to_array<const char*>({"standard", "rapid", "blitz"});
};
static_assert(enum_count<TimeCategory> == std::size_t(TimeCategory::blitz) + 1);

/// How a draw condition takes effect under a rule set.
enum class DrawEffect : std::uint8_t {
    none,                  ///< the rule set has no such rule
    claim,                 ///< a player having the move may claim it
    automatic,             ///< the game ends at once
    director_may_declare,  ///< the director may declare it (US Chess 14K)
};

template <>
struct EnumNames<DrawEffect> {
    static constexpr auto names = std::to_array<const char*>({"none", "claim", "automatic", "director_may_declare"});
};
static_assert(enum_count<DrawEffect> == std::size_t(DrawEffect::director_may_declare) + 1);

/// How fivefold repetition is counted.
enum class FivefoldCount : std::uint8_t {
    any_five,                    ///< five occurrences anywhere in the game (FIDE 2017 on)
    consecutive_alternate_moves  ///< the same position at plies n, n-4, n-8, n-12, n-16 (FIDE 2014, US Chess 14K)
};

/// When the right to claim under 9.2/9.3 is lost on a turn.
enum class ClaimRightEnds : std::uint8_t { touching_a_piece, moving_a_piece, pressing_the_clock };

/// The opponent-cannot-mate test applied at a flag fall.
enum class FlagTest : std::uint8_t {
    helpmate,         ///< FIDE 6.9: any series of legal moves
    uscf_forced_win,  ///< US Chess 14E: lone king, or K+B / K+N (K+N+N) without a forced win
};

/// Article numbers a ruling cites.
struct Articles {
    const char* checkmate;
    const char* stalemate;
    const char* dead_position;
    const char* threefold_now;
    const char* threefold_intended;
    const char* fifty_now;
    const char* fifty_intended;
    const char* fivefold;
    const char* seventy_five;
    const char* position_identity;
    const char* flag;              ///< a flag fall in standard play (6.9)
    const char* flag_rapid_blitz;  ///< a flag fall in rapid and blitz (A.5.3)
};

/// One rule set, as data. Every rule-dependent decision in the library reads these fields; none
/// branches on the id.
struct RuleSet {
    RuleSetId id;
    const char* name = nullptr;  ///< stable id, e.g. "fide-2023": enum_name(id), filled in by the table
    const char* title;           ///< e.g. "FIDE Laws of Chess 2023"
    const char* in_force;        ///< e.g. "2023-01-01 on"
    DrawEffect threefold;
    DrawEffect fifty;
    DrawEffect fivefold;
    FivefoldCount fivefold_count;
    DrawEffect seventy_five;
    bool intended_move_claims;  ///< 9.2.1 / 9.3.1 style claims exist
    ClaimRightEnds claim_right_ends;
    /// Seconds added to the opponent for an incorrect claim, by time category.
    std::array<int, enum_count<TimeCategory>> incorrect_claim_penalty_s;
    /// FIDE 2023 blitz under full supervision (B.2): the penalty when the option
    /// RuleOptions::blitz_fully_supervised is set (0 = the option changes nothing).
    int supervised_blitz_penalty_s;
    /// FIDE 2005: the claimant also loses time (half, at most 3 min; 1–2 min → 1 min).
    bool claimant_time_deduction;
    bool resignation_draw_if_opponent_cannot_mate;  ///< FIDE 2023 5.1.2
    bool agreement_needs_a_move_each;               ///< FIDE 2018 on, 5.2.3
    FlagTest flag_test;
    /// ICCF: with this many pieces or fewer on the board, the 50-move rule gives way to
    /// tablebase claims (0 = the 50-move rule always applies).
    int fifty_rule_max_tablebase_pieces;
    /// The options online_threefold_automatic / online_fifty_automatic (R-ONLINE) apply: the
    /// automatic threefold and fifty-move draws may be made claims instead.
    bool automatic_draws_optional;
    Articles articles;
};

/// The rule set with that id.
const RuleSet& rule_set(RuleSetId id) noexcept;
/// Every rule set, in the order of RuleSetId.
const std::array<RuleSet, rule_set_count>& all_rule_sets() noexcept;
/// "fide-2023" → RuleSetId::fide_2023; nullopt for unknown names.
constexpr std::optional<RuleSetId> parse_rule_set(std::string_view name) noexcept {
    return parse_enum<RuleSetId>(name);
}
constexpr const char* time_category_name(TimeCategory c) noexcept { return enum_name(c); }
constexpr std::optional<TimeCategory> parse_time_category(std::string_view name) noexcept {
    return parse_enum<TimeCategory>(name);
}
constexpr const char* draw_effect_name(DrawEffect e) noexcept { return enum_name(e); }

/// The rule set in force on a date "YYYY.MM.DD" (PGN Date tag; "??" parts allowed as long as the
/// year is known): the FIDE version of that day. Nullopt when the year is unknown.
std::optional<RuleSetId> fide_rules_on(std::string_view pgn_date) noexcept;

/// A historic extension of the 50-move rule for one material signature (RULES.md §1; US Chess
/// 14F1 lets a director post such extensions). `signature` is written strongest side first,
/// e.g. "KRBvKR"; it matches either colour.
struct FiftyMoveExtension {
    std::string signature;
    int moves = 50;  ///< moves by each player
    friend bool operator==(const FiftyMoveExtension&, const FiftyMoveExtension&) = default;
};

/// The largest move number RuleOptions::no_offers_before_move takes (every face and the journal).
inline constexpr int max_no_offers_before_move = 10'000;

/// Options of RULES.md §1 and §2 (defaults as there).
struct RuleOptions {
    TimeCategory time_category = TimeCategory::standard;
    /// DEF-OCC: the initial position counts as an occurrence.
    bool initial_position_counts = true;
    /// DEF-SETUP: trust the FEN's halfmove clock (true), or count from the set-up position.
    enum class CountersFromSetup : std::uint8_t {
        trust_fen,
        game_start
    } counters_from_setup = CountersFromSetup::trust_fen;
    /// Competition rule 9.1.1: no draw offers or agreement before this move number (0 = none), at
    /// most max_no_offers_before_move.
    int no_offers_before_move = 0;
    /// TV-50-2: a 9.3.1 claim whose intended move mates is incorrect (false, the default: it is
    /// correct, the strict reading).
    bool intended_mate_incorrect = false;
    /// R-ONLINE: whether fide-online makes threefold / fifty automatic ([U], default true).
    bool online_threefold_automatic = true;
    bool online_fifty_automatic = true;
    /// FIDE 2023 blitz under full supervision (B.2): use the literal +2 min penalty ([I/U]).
    bool blitz_fully_supervised = false;
    std::vector<FiftyMoveExtension> fifty_extensions;
    friend bool operator==(const RuleOptions&, const RuleOptions&) = default;

    /// Calls `f` on each field but the extensions, in one fixed order (a GameRecord's snapshot
    /// copies them so): a field added above is added here, and every copy follows.
    template <class Options, class F>
    static void each_scalar(Options& o, F&& f) {
        f(o.time_category);
        f(o.initial_position_counts);
        f(o.counters_from_setup);
        f(o.no_offers_before_move);
        f(o.intended_mate_incorrect);
        f(o.online_threefold_automatic);
        f(o.online_fifty_automatic);
        f(o.blitz_fully_supervised);
    }
};

template <>
struct EnumNames<RuleOptions::CountersFromSetup> {
    static constexpr auto names = std::to_array<const char*>({"trust_fen", "game_start"});
};
static_assert(enum_count<RuleOptions::CountersFromSetup> ==
              std::size_t(RuleOptions::CountersFromSetup::game_start) + 1);

/// Parses "KRBvKR=75". Nullopt when malformed.
std::optional<FiftyMoveExtension> parse_fifty_extension(std::string_view text);

/// The effective draw effect of threefold/fifty after options (fide-online options).
DrawEffect threefold_effect(const RuleSet& rules, const RuleOptions& options) noexcept;
DrawEffect fifty_effect(const RuleSet& rules, const RuleOptions& options) noexcept;
/// Seconds added to the opponent after an incorrect 9.2/9.3 claim.
int incorrect_claim_penalty_seconds(const RuleSet& rules, const RuleOptions& options) noexcept;

}  // namespace arbiter
