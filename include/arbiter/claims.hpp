// claims.hpp — draw claims under 9.2 (threefold) and 9.3 (fifty moves), now or with an intended
// move, decided with the evidence an arbiter would show; and the draw status of a position
// (everything draw-related about it, as `arbiter status` prints).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/game.hpp"
#include "arbiter/message.hpp"

namespace arbiter {

enum class ClaimKind : std::uint8_t { threefold, fifty };
template <>
struct EnumNames<ClaimKind> {
    static constexpr auto names = std::to_array<const char*>({"threefold", "fifty"});
};
static_assert(enum_count<ClaimKind> == std::size_t(ClaimKind::fifty) + 1);
constexpr const char* claim_kind_name(ClaimKind k) noexcept { return enum_name(k); }
constexpr std::optional<ClaimKind> parse_claim_kind(std::string_view s) noexcept { return parse_enum<ClaimKind>(s); }

/// One position of the game cited as evidence.
struct CitedPosition {
    std::size_t index;  ///< index in the record; for an intended move, record size (not yet played)
    std::uint32_t ply;  ///< game ply
    std::string label;  ///< "start", "4...Ng8", or "intended 4...Ng8"
    std::string fen;
    std::string san;        ///< the move that led here ("Ng8"); empty for the start position
    bool intended = false;  ///< the written move of the claim, not yet played
    std::string uci;        ///< the same move in UCI ("g8f6"), for marking it on a board; empty at the start
};

/// An earlier position with the same placement and side to move that is NOT the same position.
struct Lookalike {
    CitedPosition position;
    bool castling_rights_differ = false;
    bool en_passant_differs = false;
    std::string why;      ///< e.g. "castling rights differed (KQkq then, - now)"
    Message why_message;  ///< the same as a message (why.*), for another language
};

struct ClaimVerdict {
    ClaimKind kind;
    Color claimant;
    std::optional<Move> intended;
    std::string intended_san;  ///< empty without an intended move
    bool correct = false;
    std::string article;
    std::string reason;      ///< one sentence a player understands, in English
    Message reason_message;  ///< the same as a message (claim.*), for another language

    // Threefold evidence.
    std::vector<CitedPosition> occurrences;
    std::vector<Lookalike> lookalikes;
    // Fifty evidence.
    std::uint32_t no_progress_plies = 0;  ///< after the intended move, if any
    std::uint32_t required_plies = 100;
    std::optional<CitedPosition> count_started;  ///< the position where the count started
};

/// Decides a claim by the side to move of the record's current position. An intended move
/// that is not legal makes the claim incorrect.
ClaimVerdict evaluate_claim(const GameRecord& record, ClaimKind kind, std::optional<Move> intended = std::nullopt);
/// The same with the intended move as written (SAN or UCI). A move that cannot be played here —
/// illegal, ambiguous or unreadable — makes the claim incorrect; the verdict keeps the text.
ClaimVerdict evaluate_claim(const GameRecord& record, ClaimKind kind, std::string_view intended);

/// What a claim of each kind could rest on in the current position.
struct ClaimOptions {
    bool now = false;            ///< a claim without a move is correct (9.2.2 / 9.3.2)
    std::vector<Move> intended;  ///< intended moves that make a 9.2.1 / 9.3.1 claim correct
};

/// The draw status of the record's current position.
struct DrawStatus {
    std::string fen;
    Color side_to_move;
    std::uint32_t ply;
    std::uint32_t no_progress_plies;
    std::uint32_t repetition_count;
    std::vector<std::uint32_t> repetition_plies;
    std::optional<Termination> termination;  ///< the first automatic ending of the game
    std::vector<Termination> director_may_declare;
    ClaimOptions threefold;
    ClaimOptions fifty;
    MateAbility white_can_checkmate;
    MateAbility black_can_checkmate;
};

/// Threefold and fifty claim options of the current position (empty once the game ended).
ClaimOptions threefold_options(const GameRecord& record);
/// Cheap test, for callers that scan every position: could a legal move of the side to move lead
/// to a position that has stood twice already (so that a 9.2.1 claim with that move would be
/// correct, unless the game has ended)? threefold_options lists the moves only when this holds
/// or the current position has stood three times.
bool quiet_move_to_twice_seen(const GameRecord& record);
ClaimOptions fifty_options(const GameRecord& record);

DrawStatus draw_status(const GameRecord& record);

}  // namespace arbiter
