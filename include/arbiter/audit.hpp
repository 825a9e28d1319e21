// audit.hpp — auditing one recorded game against the draw rules: automatic draws the game went
// past, results the final position contradicts, losses on time against a side that could not
// checkmate, and the claims each side could have made. The batch driver (threads, output
// formats) lives in the `arbiter audit` command; this is the per-game logic it runs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/game.hpp"
#include "arbiter/names.hpp"
#include "arbiter/pgn_game.hpp"
#include "arbiter/rules.hpp"
#include "arbiter/unwinnability.hpp"

namespace arbiter::audit {

enum class FindingType : std::uint8_t {
    missed_automatic_draw,        ///< the game went on after an automatic ending
    result_contradicts_position,  ///< the Result tag disagrees with how the game had to end
    timeout_unwinnable,           ///< lost on time although the opponent could not checkmate (6.9)
    claimable,                    ///< the first ply at which a side could claim a draw
    result_inconsistent,          ///< the Result tag and the termination marker differ
};

}  // namespace arbiter::audit

namespace arbiter {
template <>
struct EnumNames<audit::FindingType> {
    static constexpr auto names =
        std::to_array<const char*>({"missed_automatic_draw", "result_contradicts_position", "timeout_unwinnable",
                                    "claimable", "result_inconsistent"});
};
static_assert(enum_count<audit::FindingType> == std::size_t(audit::FindingType::result_inconsistent) + 1);
}  // namespace arbiter

namespace arbiter::audit {

/// Stable name, e.g. "timeout_unwinnable".
constexpr const char* finding_type_name(FindingType t) noexcept { return enum_name(t); }

/// The kinds of findings that are not endings (the endings are the TerminationKind names):
/// timeout_unwinnable's `flag`, claimable's claims, result_inconsistent's `tag_vs_marker`.
namespace kind {
inline constexpr const char* flag = "flag";
inline constexpr const char* threefold = "threefold";
inline constexpr const char* threefold_intended = "threefold_intended";
inline constexpr const char* fifty = "fifty";
inline constexpr const char* fifty_intended = "fifty_intended";
inline constexpr const char* tag_vs_marker = "tag_vs_marker";
}  // namespace kind
inline constexpr std::array<const char*, 6> other_kinds = {kind::flag,  kind::threefold,      kind::threefold_intended,
                                                           kind::fifty, kind::fifty_intended, kind::tag_vs_marker};

struct Finding {
    FindingType type;
    /// missed_automatic_draw / result_contradicts_position: the ending ("stalemate", …);
    /// timeout_unwinnable: "flag"; claimable: "threefold", "fifty", "threefold_intended",
    /// "fifty_intended".
    std::string kind;
    std::uint32_t ply = 0;      ///< game ply of the position concerned
    std::optional<Color> side;  ///< claimant, or the side that lost on time
    std::string article;
    std::string detail;
    /// The numbers of a claimable finding's detail, as fields (nullopt for the other types):
    /// how many chances that side had, how many went unused, the ply of the first one, and for
    /// the intended kinds the move to write (SAN, played from the position at first_ply).
    std::optional<std::uint32_t> chances{}, unused{}, first_ply{};
    std::optional<std::string> first_move{};
};

struct GameAudit {
    const RuleSet* rules = nullptr;
    TimeCategory time_category = TimeCategory::standard;
    std::uint32_t plies = 0;  ///< mainline plies replayed
    std::vector<Finding> findings;
};

struct AuditOptions {
    /// The rule set for every game, or nullopt for "auto": each game's Date tag picks the FIDE
    /// version then in force, and games from online sites get fide-online.
    std::optional<RuleSetId> rules;
    RuleOptions rule_options;
    /// Take the time category from each game's TimeControl tag (A.1, B.1) when it has one.
    bool time_category_from_tag = true;
    /// Dead positions and flag falls (null: the library default).
    const Unwinnability* analyzer = nullptr;
    /// Dead positions (5.2.2) with the library default: the full analysis of every game's final
    /// position (`arbiter audit --exact`), instead of the fast check that sends only the
    /// positions where dead ones live to it (check_final_position; docs/unwinnability.md).
    bool exact = false;
};

/// What the audit's dead-position check of a game's final position found.
struct FinalCheck {
    bool analysed = false;  ///< the position went to the full analysis
    bool dead = false;      ///< proven dead: neither side can checkmate (5.2.2)
};

/// The audit's dead-position check of a final position. Dead positions stay dead, so a game that
/// passed through one ends in one; the audit looks at the end and then finds the ply where
/// deadness arose. With `exact`, every position goes to the full analysis (the same decision as
/// the automatic check of the live faces, GameRecord::mate_ability); otherwise only those that a
/// test of a few hundred nanoseconds finds closed (locked units, pawn walls, a side with next to
/// no moves: the classes of composed dead positions), which proves most dead positions at a small
/// share of the audit's time. Sound either way: never dead when a side can mate.
FinalCheck check_final_position(const Position& pos, bool exact);

/// The rule set for a game: options.rules, or the "auto" choice from its tags.
RuleSetId rules_for_game(const pgn::ParsedGame& game, const AuditOptions& options) noexcept;
/// True when the Site/Event tags name an online playing site (lichess.org, chess.com, …).
bool is_online_game(const pgn::ParsedGame& game) noexcept;
/// The time category the Laws derive from a PGN TimeControl tag ("300+2", "40/5400+30:1800+30";
/// base + 60 × increment: ≤ 10 min blitz, < 60 min rapid, else standard). Nullopt for "-", "?",
/// or anything unreadable.
std::optional<TimeCategory> time_category_from_tag(std::string_view time_control) noexcept;

/// The draws the side to move could claim at once at position i of `record` (9.2.2, 9.3.2 and
/// their equivalents): threefold when the position stands for the third time or more, fifty when
/// the no-progress limit is reached (not where a tablebase rule replaces it). The audit and the
/// hall monitor (`arbiter watch`) both ask it. Whether such a claim exists at all under the rule
/// set (or is an automatic ending) is the caller's question.
struct ClaimsNow {
    bool threefold = false;
    bool fifty = false;
};
inline ClaimsNow claims_now(const GameRecord& record, std::size_t i) noexcept {
    // (Inline: the audit asks at every ply.)
    const Position& pos = record.position(i);
    const int tb = record.rules().fifty_rule_max_tablebase_pieces;
    return {record.occurrences(i) >= 3,
            record.no_progress(i) >= record.fifty_limit_plies(pos) && !(tb > 0 && pos.occupied().count() <= tb)};
}

/// Audits a game that a GameReader produced. `record` is scratch space reused between games.
GameAudit audit_game(const pgn::ParsedGame& game, const AuditOptions& options, GameRecord& record);

}  // namespace arbiter::audit
