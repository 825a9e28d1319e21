// piece_cut.hpp — where an input is cut into pieces of whole games, for every face that audits in
// parallel: the audit pipeline's batches (audit_pipeline.cpp), the Python module's pieces
// (python/audit_shims.cpp) and so the distributed audit's. A piece ends just before a game
// boundary found by the library (pgn::BoundaryFinder), so pieces cut anywhere give the same games.
#pragma once

#include <cstdint>
#include <string_view>

#include "arbiter/pgn.hpp"

namespace arbiter::face {

/// Where to cut: at the first game boundary past `bytes` bytes or after `games` games (when not
/// 0), whichever comes first. With `games` 0 only the first boundary past `bytes` is looked for
/// (the finder jumps there: no work per game). Neither given: a piece a game.
class CutRule {
public:
    CutRule(std::uint64_t games, std::uint64_t bytes);
    /// The length of the next piece of `text` (which starts where the last piece ended) when it
    /// can be cut now, else npos: more text may complete a boundary. `text` only grows between
    /// calls until cut_made().
    std::size_t cut(std::string_view text);
    /// A piece was cut: the text now starts after it.
    void cut_made();
    [[nodiscard]] std::uint64_t bytes() const { return bytes_; }

private:
    std::uint64_t games_, bytes_;
    pgn::BoundaryFinder finder_;
    std::size_t last_ = 0;
    std::uint64_t seen_ = 0;
};

/// Where the next piece starts in its input: line (from 1) and byte offset.
struct TextPlace {
    std::uint64_t line = 1, offset = 0;
    /// Moves past `text`.
    void advance(std::string_view text);
};

}  // namespace arbiter::face
