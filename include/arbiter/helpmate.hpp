/// @file helpmate.hpp
/// @brief The complete unwinnability analyzer: can a side still checkmate by any series of legal
/// moves (FIDE DEF-CANMATE), answered with a mating line or a proof.
///
/// HelpmateAnalyzer decides a position for one side in stages, cheapest first (where the side
/// has a free queen or rook among more than twelve units, the first guided search of stage 4
/// goes before 1-3, which hardly ever hold there):
///  1. the game is already over, or the material can never mate (sound material rules);
///  2. a forced-line check (every line ends within a few plies);
///  3. a blockade proof: the units that can never move or be taken, what every other unit can
///     ever reach, and that no mating pattern fits in what is left;
///  4. a cooperative (helpmate) search, guided towards mating patterns, with a transposition
///     table; when it visits every reachable position without finding a mate, that is a proof.
/// The algorithm and its soundness arguments are described in docs/unwinnability.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "arbiter/position.hpp"
#include "arbiter/unwinnability.hpp"

namespace arbiter {

/// Stopping a long analysis from outside (Ctrl-C in Python's dead()): while a SearchInterrupt
/// lives on a thread, the searches of that thread call `poll(context)` every few thousand
/// positions, and once it returns true they all give up as at their node limit, so that the
/// answer comes back at once as `unknown` (the caller, which knows it asked to stop, discards it).
class SearchInterrupt {
public:
    using Poll = bool (*)(void* context);
    SearchInterrupt(Poll poll, void* context) noexcept;
    ~SearchInterrupt();
    SearchInterrupt(const SearchInterrupt&) = delete;
    SearchInterrupt& operator=(const SearchInterrupt&) = delete;
    /// True once the poll of this thread's guard said stop (it is not called again after that).
    [[nodiscard]] bool fired() const noexcept;
    /// For the searches: true when they must stop now. Cheap when no guard is set.
    [[nodiscard]] static bool requested() noexcept;

private:
    Poll previous_poll_;
    void* previous_context_;
    bool previous_fired_;
};

/// Resource bounds and modes of HelpmateAnalyzer.
struct HelpmateOptions {
    enum class Mode : std::uint8_t {
        /// Static rules, the forced-line check, the blockade proof and a small search: answers
        /// most real positions in microseconds and leaves the rest `unknown`.
        quick,
        /// The quick stages, then the full search up to `node_limit`.
        full,
        /// The sound fast check alone (FastUnwinnability): `cannot_checkmate` with a proof or
        /// `unknown`, in about a microsecond; never a search for a mating line.
        fast,
    };
    Mode mode = Mode::full;
    /// Positions the full search may visit before giving up with `unknown`.
    std::uint64_t node_limit = 4'500'000;
    /// Positions the quick search may visit (also the first stage of the full mode).
    std::uint64_t quick_node_limit = 600;
    /// The automatic check (ability) sends positions with locked units (has_locked_units) to
    /// the analysis instead of its fast exit. The audit turns it off for its first pass over a
    /// game and looks at the final position instead: locked units stay locked to the end.
    bool check_locked = true;
    /// The automatic check proves every answer: where the fast exit would presume a mate
    /// reachable (`unknown`, not dead) without a line, the analysis decides instead, so that the
    /// dead-position ending agrees with `can_checkmate` (the live faces: status, claim, sessions,
    /// the service, the hall monitor, Python). The audit turns it off for its replay and proves
    /// dead final positions its own way (audit::AuditOptions::exact, docs/unwinnability.md).
    bool exact = true;
};

/// The default analyzer behind default_unwinnability(): quick mode first, the full search only
/// when the quick stages leave the answer open. Sound: never cannot_checkmate when a mate
/// exists; never can_checkmate without a line that ends in mate by that side.
class HelpmateAnalyzer final : public Unwinnability {
public:
    HelpmateAnalyzer() = default;
    explicit HelpmateAnalyzer(HelpmateOptions options) noexcept : options_(options) {}

    /// The full answer with its evidence. Thread-safe: each thread uses its own search tables.
    [[nodiscard]] MateVerdict can_checkmate(const Position& pos, Color side) const override;

    /// The automatic check (dead-position detection after every ply), in nanoseconds for the
    /// common case. The material rules; then, when either side has mating material free to act
    /// (a queen or rook, a pawn not blocked head-on, two minor pieces that are not bishops of one
    /// colour), `unknown` without a search (fast_exit) unless a short forced line may end the
    /// game, which the forced-line proof then decides, or units are locked (has_locked_units),
    /// which sends the position to the analysis; otherwise the previous ply's answer for that
    /// side when it provably carries over (kept per thread), else the full analysis. What the
    /// fast exit still answers, and why, is in docs/unwinnability.md.
    [[nodiscard]] MateAbility ability(const Position& pos, Color side) const override;

    [[nodiscard]] const HelpmateOptions& options() const noexcept { return options_; }

    /// True when the automatic check answers "not dead" for `pos` by its fast exit, without the
    /// full analysis (docs/unwinnability.md, "The automatic check after every ply"): not both
    /// sides are settled by material, a side has mating material free to act, and more than 12
    /// units besides the kings are on the board, or the side to move has more than two units
    /// that can move or be taken soon, or more than three legal moves, or the forced lines do
    /// not show that every line soon ends the game without a mate.
    [[nodiscard]] static bool fast_exit(const Position& pos) noexcept;

    /// True when some unit other than a king provably never moves and is never taken, whatever
    /// is played (a greatest fixpoint over what the other units can ever reach; about a
    /// microsecond, and false at once in open positions). Once true in a game it stays true:
    /// the units it found stay where they are and everything else reaches less.
    [[nodiscard]] static bool has_locked_units(const Position& pos) noexcept;

    /// The audit's gate for its dead-position check of final positions
    /// (audit::check_final_position): true when the position may be dead in a way the fast exit
    /// does not see — units locked for ever (has_locked_units), or a closed structure that can
    /// hold a pen or a forced stalemate (docs/unwinnability.md, "The audit"). A few hundred
    /// nanoseconds; true for a small share of real games' final positions. Not a proof of
    /// anything: the positions it lets through go to the analysis.
    [[nodiscard]] static bool may_be_closed(const Position& pos) noexcept;

private:
    /// can_checkmate in the orientation given (can_checkmate turns the question first).
    [[nodiscard]] MateVerdict analyse(const Position& pos, Color side) const;

    HelpmateOptions options_;
};

/// The memory of the analysis's per-thread tables set up on the calling thread, in bytes at
/// their setup size: 0 on a thread that never ran the analysis beyond its fast exit; about
/// 2.2 MB on one that did (the answers by position, 0.7 MB; the transposition table of the
/// searches, 1 MiB; the ranked moves' cache, 384 KiB; an exhaustive search's state). The tables
/// are freed when the thread exits; their sizes are fixed but for the stack of ranked moves and
/// the two search states a thread keeps, which grow with a search and are trimmed after it
/// (docs/performance.md). A service keeps the analysis on a few threads of its own and can
/// check that its other threads have none (tools/serve/rules_threads.hpp).
[[nodiscard]] std::size_t analysis_thread_memory() noexcept;

/// default_unwinnability() with HelpmateOptions::check_locked off: the audit's first pass over a
/// game (src/audit.cpp), which then checks the final position for locked units.
const HelpmateAnalyzer& unwinnability_without_locked_check() noexcept;

}  // namespace arbiter
