// game.hpp — the game record: a start position plus the moves, with, for every ply, the position,
// its no-progress counter and its occurrence index (FIDE 9.2.3 identity, DEF-OCC), all kept
// incrementally so that no query replays the game; and the automatic endings of RULES.md §4
// (checkmate, stalemate, dead position, 75 moves, fivefold, and the online automatic draws).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/message.hpp"
#include "arbiter/move.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/names.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/position.hpp"
#include "arbiter/rules.hpp"
#include "arbiter/unwinnability.hpp"

namespace arbiter {

enum class TerminationKind : std::uint8_t {
    checkmate,
    stalemate,
    dead_position,
    seventy_five_moves,
    fivefold_repetition,
    threefold_repetition,  ///< only where a rule set makes it automatic (fide-online)
    fifty_moves,           ///< only where a rule set makes it automatic (fide-online)
};

template <>
struct EnumNames<TerminationKind> {
    static constexpr auto names =
        std::to_array<const char*>({"checkmate", "stalemate", "dead_position", "seventy_five_moves",
                                    "fivefold_repetition", "threefold_repetition", "fifty_moves"});
};
static_assert(enum_count<TerminationKind> == std::size_t(TerminationKind::fifty_moves) + 1);

/// Stable name, e.g. "fivefold_repetition".
constexpr const char* termination_name(TerminationKind k) noexcept { return enum_name(k); }
/// The words for people, e.g. "dead position", "75-move rule" (text output; JSON uses the name).
constexpr const char* termination_words(TerminationKind k) noexcept {
    constexpr std::array<const char*, enum_count<TerminationKind>> words{
        "checkmate",   "stalemate", "dead position", "75-move rule", "fivefold repetition", "threefold repetition",
        "50-move rule"};
    return words[static_cast<std::size_t>(k)];
}

/// The words for people as a message ("termination.dead_position"), for another language.
inline Message termination_message(TerminationKind k) {
    return Message(std::string("termination.") + termination_name(k));
}

/// How and where a game ended (or, for US Chess 14K, could be declared drawn).
struct Termination {
    TerminationKind kind;
    std::string result;   ///< "1-0", "0-1" or "1/2-1/2"
    std::string article;  ///< e.g. "9.6.2"
    std::size_t index;    ///< index in the record of the position where it happened
};

class GameRecord {
public:
    /// A record starting at `start` under `rules`. `analyzer` decides dead positions (the
    /// library default when null); it must outlive the record.
    explicit GameRecord(const Position& start = Position(), const RuleSet& rules = rule_set(RuleSetId::fide_2023),
                        RuleOptions options = {}, const Unwinnability* analyzer = nullptr);

    /// Starts over from `start`, keeping the allocated memory (for batch work over many games).
    void reset(const Position& start, const RuleSet& rules, RuleOptions options,
               const Unwinnability* analyzer = nullptr);

    /// Plays a move. Errors: MoveError (kind illegal) when `m` is not legal; nothing changes.
    /// Moves after an automatic ending are still recorded (an audit must see them); the
    /// first ending stays in termination().
    std::optional<MoveError> play(Move m);
    /// Plays a move the caller has already checked is legal (e.g. one a PGN reader resolved):
    /// skips the legality test, which is most of the cost of play(). Precondition: `m` is legal.
    void play_legal(Move m);
    /// play_legal with the resulting position already made (e.g. kept by a PGN reader that
    /// replayed the game). Precondition: `m` is legal and `after` is current() after `m`.
    void play_legal(Move m, const Position& after);
    /// Parses SAN or UCI and plays it. Errors: MoveError.
    std::optional<MoveError> play(std::string_view text);
    /// Takes back the last move: the record is then as it was before that move was played (an
    /// ending at the position taken back is forgotten). For judging a claim on the position
    /// before the move just made (US Chess 9G1) without replaying the game. Precondition:
    /// plies_played() > 0.
    void pop();

    /// Number of positions (plies played + 1).
    [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
    [[nodiscard]] std::size_t plies_played() const noexcept { return entries_.size() - 1; }
    [[nodiscard]] const Position& position(std::size_t i) const noexcept { return entries_[i].pos; }
    [[nodiscard]] const Position& current() const noexcept { return entries_.back().pos; }
    /// The move that led to position i (i ≥ 1).
    [[nodiscard]] Move move(std::size_t i) const noexcept { return entries_[i].move; }
    /// The legal moves of the current position.
    [[nodiscard]] const MoveList& legal_moves_now() const noexcept {
        if (!moves_now_valid_) {
            legal_moves(current(), moves_now_);
            moves_now_valid_ = true;
        }
        return moves_now_;
    }

    /// Plies since the last pawn move or capture at position i (DEF-NP), the FEN's halfmove
    /// clock included unless counters_from_setup = game_start.
    [[nodiscard]] std::uint32_t no_progress(std::size_t i) const noexcept { return entries_[i].no_progress; }
    /// How many times the position at i has stood in the game up to and including i (DEF-OCC).
    [[nodiscard]] std::uint32_t occurrences(std::size_t i) const noexcept { return entries_[i].occurrences; }
    /// Index of the previous occurrence of the position at i, or -1.
    [[nodiscard]] std::int32_t previous_occurrence(std::size_t i) const noexcept { return entries_[i].previous; }
    /// The latest index ≤ i whose position had then stood at least twice (occurrences ≥ 2), or
    /// -1: kept per ply, so that a scan for a move back to a twice-seen position skips a game's
    /// many plies that have none in reach.
    [[nodiscard]] std::int32_t latest_twice_seen(std::size_t i) const noexcept { return entries_[i].twice_seen; }
    /// Whether a position that had stood twice lies where one quiet move from the current
    /// position could return to it: three, five, … plies back, within the no-progress window
    /// (the first test of quiet_move_to_twice_seen, inline for loops over every ply).
    [[nodiscard]] bool twice_seen_in_reach() const noexcept {
        const std::size_t n = entries_.size() - 1;
        if (n < 3) return false;
        const std::int32_t t = entries_[n - 3].twice_seen;
        const std::size_t reach = std::min<std::size_t>(entries_[n].no_progress + 1, n + 1);
        return t >= 0 && static_cast<std::size_t>(t) + reach >= n + 1;
    }
    /// Indices of every counted occurrence of the position at i, oldest first.
    [[nodiscard]] std::vector<std::size_t> occurrence_indices(std::size_t i) const;
    /// How many times `p` has stood in the record, counting only indices ≥ `from` whose
    /// position could equal it (same side to move; within the no-progress window `window`).
    [[nodiscard]] std::uint32_t count_in_history(const Position& p, std::uint32_t window) const noexcept;
    /// The index of the latest counted occurrence of `p` as if it stood next (at index size()),
    /// looking back `window` plies; -1 when it has not stood.
    [[nodiscard]] std::int32_t previous_occurrence_of(const Position& p, std::uint32_t window) const noexcept;

    /// Ply number in the game of position i (0 = the standard initial position; a FEN start
    /// takes its number from the fullmove field).
    [[nodiscard]] std::uint32_t game_ply(std::size_t i) const noexcept {
        return start_game_ply_ + static_cast<std::uint32_t>(i);
    }
    /// "start" for index 0, else the move that led to i with its number, e.g. "4...Ng8".
    [[nodiscard]] std::string move_label(std::size_t i) const;
    /// SAN of the move that led to position i (i ≥ 1).
    [[nodiscard]] std::string san(std::size_t i) const;
    /// Move-number prefix for a move made from position i: "5." or "4...".
    [[nodiscard]] std::string move_number_prefix(std::size_t i) const;

    /// The first automatic ending, if any.
    [[nodiscard]] const std::optional<Termination>& termination() const;
    [[nodiscard]] bool ended() const { return termination().has_value(); }
    /// The first ending found before the current position, or at it other than checkmate or
    /// stalemate (which are decided lazily, when asked for, or ruled out when the next move is
    /// played). For replay loops that look at every position before moving on.
    [[nodiscard]] const std::optional<Termination>& termination_so_far() const noexcept { return termination_; }
    /// Automatic endings that hold at position i, in the reporting order of RULES.md PREC-2
    /// (checkmate, stalemate, dead position, 75 moves, fivefold, then the online automatic
    /// draws). US Chess 14K conditions are not endings: see director_may_declare.
    [[nodiscard]] std::vector<Termination> endings_at(std::size_t i) const;
    /// US Chess 14K: the draws a director may declare at position i (fivefold by consecutive
    /// alternate moves; 75 moves). Empty for other rule sets.
    [[nodiscard]] std::vector<Termination> director_may_declare(std::size_t i) const;

    /// Fivefold repetition at i under the rule set's way of counting.
    [[nodiscard]] bool fivefold_at(std::size_t i) const noexcept;
    /// Whether `side` can still checkmate at position i, as the automatic check decided it
    /// (5.2.2): the one answer behind both the dead-position ending and what `status` reports as
    /// `can_checkmate`, so the two cannot disagree. Decided once per position and side, when the
    /// record first needs it (the ending check asks Black only when White cannot mate), and kept.
    [[nodiscard]] MateAbility mate_ability(std::size_t i, Color side) const;
    /// The no-progress plies that make a 50-move claim at position `p` (100, or the extension
    /// for its material signature).
    [[nodiscard]] std::uint32_t fifty_limit_plies(const Position& p) const noexcept {
        return options_.fifty_extensions.empty() ? 100 : extended_fifty_limit_plies(p);
    }

    [[nodiscard]] const RuleSet& rules() const noexcept { return *rules_; }
    [[nodiscard]] const RuleOptions& options() const noexcept { return options_; }
    [[nodiscard]] const Unwinnability& analyzer() const noexcept { return *analyzer_; }

    /// The record as bytes, to put it aside and restore it later in the same process (the
    /// JavaScript package's game pool keeps the games it evicts this way: a copy of the record's
    /// memory, no replay). Not a file format: only the same build reads a snapshot back. Empty
    /// for a record whose rule set is not one of the library's table.
    [[nodiscard]] std::string snapshot() const;
    /// The record a snapshot() holds, deciding dead positions with `analyzer` (the library
    /// default when null); null when `bytes` are not a snapshot of this build.
    [[nodiscard]] static std::unique_ptr<GameRecord> restore(std::string_view bytes,
                                                             const Unwinnability* analyzer = nullptr);

private:
    struct Entry {
        // Built in place in entries_ (emplace_back): a Position is copied once per ply.
        Entry(const Position& p, Move m, std::uint32_t np, std::uint32_t occ, std::int32_t prev) noexcept
            : pos(p), move(m), no_progress(np), occurrences(occ), previous(prev) {}
        Position pos;
        Move move;
        std::uint32_t no_progress;
        std::uint32_t occurrences;
        std::int32_t previous;
        std::int32_t twice_seen = -1;  // latest_twice_seen
        /// mate_ability per side (index by Color), `not_decided` until asked.
        mutable std::array<std::uint8_t, 2> ability{not_decided, not_decided};
    };
    static constexpr std::uint8_t not_decided = 0xFF;
    void append();  // finishes the entry just pushed: occurrences, endings
    [[nodiscard]] std::uint32_t extended_fifty_limit_plies(const Position& p) const noexcept;
    [[nodiscard]] std::int32_t latest_before(const Position& p, std::size_t at, std::uint32_t window) const noexcept;
    [[nodiscard]] std::vector<Termination> collect_endings(std::size_t i, bool check_moves) const;
    /// The automatic draws by the counters that hold at i (75 moves, fivefold, threefold, fifty
    /// moves, each where the rules make it automatic): shared by collect_endings and
    /// ending_without_moves.
    struct CounterDraws {
        bool seventy_five, fivefold, threefold, fifty;
        [[nodiscard]] bool any() const noexcept { return seventy_five || fivefold || threefold || fifty; }
    };
    [[nodiscard]] CounterDraws counter_draws(std::size_t i) const noexcept;
    /// Whether collect_endings(i, false) would find an ending, without building the list: the
    /// test append() makes at every ply.
    [[nodiscard]] bool ending_without_moves(std::size_t i) const;
    [[nodiscard]] bool checkmate_now() const noexcept;

    std::vector<Entry> entries_;
    mutable MoveList moves_now_;  // cache of the current position's legal moves
    mutable bool moves_now_valid_ = false;
    mutable std::optional<Termination> termination_;
    mutable bool mate_check_pending_ = false;
    const RuleSet* rules_;
    RuleOptions options_;
    const Unwinnability* analyzer_;
    std::uint32_t start_game_ply_ = 0;
    // Which draws are automatic under rules_ and options_ (set by reset).
    bool auto_seventy_five_ = false, auto_fivefold_ = false, auto_threefold_ = false, auto_fifty_ = false;
};

/// The material signature of a position, strongest side first, e.g. "KRBvKR".
std::string material_signature(const Position& pos);

}  // namespace arbiter
