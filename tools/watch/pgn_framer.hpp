// pgn_framer.hpp — cuts the PGN of a stream (`arbiter watch --stream URL`) into complete games as
// the bytes come: a game is complete when the next one starts (a game boundary, docs/pgn.md) or
// when it ends with a termination marker outside any comment or string, followed by white space.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "arbiter/pgn.hpp"

namespace arbiter::watch {

class PgnFramer {
public:
    /// A game that grows past this without being complete is dropped (and counted).
    explicit PgnFramer(std::size_t max_game_bytes = 16u << 20) : max_(max_game_bytes) {}

    /// Adds bytes of the stream; the games they complete are appended to `games`.
    void append(std::string_view data, std::string& games);
    /// Forgets a game begun (the connection was cut: the server starts again).
    void clear() noexcept {
        buf_.clear();
        finder_.reset();
    }
    [[nodiscard]] std::size_t dropped() const noexcept { return dropped_; }

private:
    std::string buf_;
    pgn::BoundaryFinder finder_;
    std::size_t max_, dropped_ = 0;
};

/// True when `text` (one game) ends with a termination marker that is not inside a comment, a
/// string or a rest-of-line comment, followed by white space.
bool ends_with_marker(std::string_view text) noexcept;

}  // namespace arbiter::watch
