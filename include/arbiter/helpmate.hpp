/// @file helpmate.hpp
/// @brief The complete unwinnability analyzer: can a side still checkmate by any series of legal
/// moves (FIDE DEF-CANMATE), answered with a mating line or a proof.
///
/// HelpmateAnalyzer decides a position for one side in stages, cheapest first:
///  1. the game is already over, or the material can never mate (sound material rules);
///  2. a forced-line check (every line ends within a few plies);
///  3. a blockade proof: the units that can never move or be taken, what every other unit can
///     ever reach, and that no mating pattern fits in what is left;
///  4. a cooperative (helpmate) search, guided towards mating patterns, with a transposition
///     table; when it visits every reachable position without finding a mate, that is a proof.
/// The algorithm and its soundness arguments are described in docs/unwinnability.md.
#pragma once

#include <cstdint>

#include "arbiter/position.hpp"
#include "arbiter/unwinnability.hpp"

namespace arbiter {

/// Resource bounds and modes of HelpmateAnalyzer.
struct HelpmateOptions {
    enum class Mode : std::uint8_t {
        /// Static rules, the forced-line check, the blockade proof and a small search: answers
        /// most real positions in microseconds and leaves the rest `unknown`.
        quick,
        /// The quick stages, then the full search up to `node_limit`.
        full,
    };
    Mode mode = Mode::full;
    /// Positions the full search may visit before giving up with `unknown`.
    std::uint64_t node_limit = 4'500'000;
    /// Positions the quick search may visit (also the first stage of the full mode).
    std::uint64_t quick_node_limit = 600;
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
    /// common case. The material rules; then `unknown` without a search when either side has
    /// mating material free to act (a queen or rook, a pawn not blocked head-on, two minor pieces
    /// that are not bishops of one colour): such a side can all but always mate, and a dead
    /// position needs both sides unable; otherwise the previous ply's answer for that side when
    /// it provably carries over (kept per thread), else the full analysis. A position is thus
    /// reported dead as can_checkmate would decide it, except dead positions in which a side
    /// still has such material (a walled-in rook, a forced stalemate), left to can_checkmate.
    [[nodiscard]] MateAbility ability(const Position& pos, Color side) const override;

    [[nodiscard]] const HelpmateOptions& options() const noexcept { return options_; }

private:
    HelpmateOptions options_;
};

}  // namespace arbiter
