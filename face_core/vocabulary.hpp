// vocabulary.hpp — the names the faces give to what they report, in one place: the audit's
// finding types and kinds and the hall monitor's alert types and kinds. Endings are the library's
// TerminationKind names and the claims and the other finding kinds are the audit's
// (arbiter/audit.hpp); the alert types and the hall's own kinds are here. docs/audit.md and
// docs/watch.md list them with what each means.
#pragma once

#include <string_view>

#include "arbiter/audit.hpp"
#include "arbiter/game.hpp"

namespace arbiter::face {

/// The kinds of the audit's findings that are not endings: flag, threefold, fifty, …
namespace finding_kind = audit::kind;

/// The hall monitor's alert types (the `type` key).
namespace alert_type {
inline constexpr const char* game_over = "game_over";
inline constexpr const char* approaching_seventy_five = "approaching_seventy_five";
inline constexpr const char* claimable = "claimable";
inline constexpr const char* flag_unwinnable = "flag_unwinnable";
inline constexpr const char* flag = "flag";
inline constexpr const char* result_mismatch = "result_mismatch";
inline constexpr const char* feed_error = "feed_error";
inline constexpr const char* correction = "correction";
inline constexpr const char* feed_stale = "feed_stale";
inline constexpr const char* feed_gone = "feed_gone";
}  // namespace alert_type

/// The alert kinds of the hall's own, beside the endings, the claims (finding_kind) and the PGN
/// error codes of feed_error.
namespace alert_kind {
inline constexpr const char* clk = "clk";                        ///< flag: a [%clk 0:00:00] after the move
inline constexpr const char* clock_tag = "clock_tag";            ///< flag: a WhiteClock/BlackClock tag at 0:00:00
inline constexpr const char* moves_changed = "moves_changed";    ///< correction
inline constexpr const char* start_position = "start_position";  ///< correction
inline constexpr const char* no_change = "no_change";            ///< feed_stale
inline constexpr const char* deleted = "deleted";                ///< feed_gone: a file
inline constexpr const char* not_found = "not_found";            ///< feed_gone: a URL answering 404 or 410
}  // namespace alert_kind

/// A kind about a repeated position (its evidence: the occurrences), or about the moves without a
/// capture or a pawn move (its evidence: the first and the last position of the count).
constexpr bool is_repetition_kind(std::string_view kind) {
    return kind == finding_kind::threefold || kind == termination_name(TerminationKind::fivefold_repetition) ||
           kind == termination_name(TerminationKind::threefold_repetition);
}
constexpr bool is_no_progress_kind(std::string_view kind) {
    return kind == finding_kind::fifty || kind == termination_name(TerminationKind::seventy_five_moves) ||
           kind == termination_name(TerminationKind::fifty_moves);
}

}  // namespace arbiter::face
