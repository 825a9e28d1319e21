// helpmate_check.hpp — test helpers: read a position, and check a can_checkmate certificate by
// replaying it (every move legal and SAN-convertible, the last position a mate by that side).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "arbiter/arbiter.hpp"

namespace arbiter::testing {

/// A position from a FEN that may omit counters and may be composed (surplus pieces).
inline Position composed(const std::string& fen) {
    auto pos = composed_position_from_fen(fen);
    EXPECT_TRUE(pos.has_value()) << fen << ": " << (pos ? "" : pos.error().describe());
    return pos ? *pos : Position();
}

/// Empty when the verdict's line is a valid certificate that `side` can mate; else what is wrong.
inline std::string certificate_problem(const Position& start, Color side, const MateVerdict& v) {
    if (v.answer != MateAbility::can_checkmate) return "not can_checkmate";
    Position pos = start;
    for (std::size_t i = 0; i < v.line.size(); ++i) {
        const Move m = v.line[i];
        if (!legal_moves(pos).contains(m)) return "move " + std::to_string(i + 1) + " is illegal";
        const std::string san = to_san(pos, m);
        auto back = parse_san(pos, san);
        if (!back || *back != m)
            return "move " + std::to_string(i + 1) + " does not round-trip through SAN (" + san + ")";
        pos.play_unchecked(m);
    }
    if (!is_checkmate(pos)) return "the line does not end in checkmate";
    if (pos.turn() != ~side) return "the line ends in a mate of the wrong side";
    return {};
}

}  // namespace arbiter::testing
