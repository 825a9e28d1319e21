// pgn_framer.hpp — cuts the PGN of a stream (`arbiter watch --stream URL`) into complete games as
// the bytes come: a game is complete when the next one starts (a game boundary, docs/pgn.md) or
// when it ends with a termination marker outside any comment or string, followed by white space.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "arbiter/pgn.hpp"

namespace arbiter::watch {

/// Where a game's text stands as it grows: inside a {comment}, a "string", a rest-of-line
/// comment, and where the last token that began outside them all begins.
class PgnLexer {
public:
    /// Reads `text` from where the last call stopped (`text` grown at its end since).
    void advance(std::string_view text) noexcept;
    /// True when `text` (as advanced) ends with a termination marker that began outside
    /// comments and strings, followed by white space.
    [[nodiscard]] bool ends_with_marker(std::string_view text) const noexcept;

private:
    std::size_t pos_ = 0, last_token_ = std::string_view::npos;
    bool brace_ = false, line_comment_ = false, string_ = false, escaped_ = false, line_start_ = true;
};

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
        lexer_ = {};
    }
    [[nodiscard]] std::size_t dropped() const noexcept { return dropped_; }

private:
    std::string buf_;
    pgn::BoundaryFinder finder_;
    PgnLexer lexer_;
    std::size_t max_, dropped_ = 0;
};

/// True when `text` (one game) ends with a termination marker that is not inside a comment, a
/// string or a rest-of-line comment, followed by white space.
bool ends_with_marker(std::string_view text) noexcept;

}  // namespace arbiter::watch
