// hall_board.hpp — one board of the hall monitor as the Hall keeps it (private to watch:
// watch.cpp analyses it, derived.cpp checks its game as a whole, hall_views.cpp shows and saves it,
// liveness.cpp watches its feed), helpers for reading its tags and errors, and
// the words its alerts use for evidence.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "watch.hpp"

namespace arbiter::watch {

struct Hall::Board {
    std::string id, white, black, round, source;
    const RuleSet* rules = nullptr;
    RuleOptions rule_options;
    bool started = false;
    Position start;
    GameRecord rec;
    std::vector<std::int64_t> clk;  // [%clk] of each ply, -1 when none
    std::string result;             // the termination marker last read
    std::string derived_signature;
    std::map<std::string, Alert> alerts;          // in force, by key
    std::map<std::string, std::uint32_t> closed;  // keys (and plies) of alerts closed: not given again
    bool changed = false;
    bool moved = false;             // the last update brought plies or a correction
    std::uint64_t read_serial = 0;  // the Hall::read that last reached it
    // The game over by itself: its alert's detail without the void plies, and how many the feed
    // gave past the end when that detail was last said.
    std::string over_detail;
    std::size_t void_plies = 0;
    std::chrono::steady_clock::time_point last_change{};  // its game last changed in the feed

    // In progress: started, not over by itself, no decided result.
    [[nodiscard]] bool in_progress() const {
        return started && !rec.termination() && (result.empty() || result == "*");
    }
};

// "12." or "12..." for a move made from the position at game ply `ply`.
inline std::string number_prefix(std::uint32_t ply) {
    return std::to_string(ply / 2 + 1) + (ply % 2 == 0 ? "." : "...");
}

inline std::string tag_or(const pgn::ParsedGame& g, std::string_view name, std::string_view fallback) {
    const auto v = g.tag(name);
    return std::string(v && !v->empty() ? *v : fallback);
}

// Syntax problems of a game caught half-written: the writer is still at it.
inline bool syntax_of_a_cut_game(pgn::Error::Code c) noexcept {
    using C = pgn::Error::Code;
    return c == C::truncated_game || c == C::unterminated_string || c == C::unterminated_comment ||
           c == C::unterminated_variation || c == C::bad_tag || c == C::unexpected_char;
}

inline bool is_move_error(pgn::Error::Code c) noexcept {
    using C = pgn::Error::Code;
    return c == C::bad_move_syntax || c == C::illegal_move || c == C::ambiguous_move || c == C::null_move ||
           c == C::token_too_long;
}

/// "at the start, after 2...Ng8, 4...Nb8": where the positions at these record indices stood.
std::string where_words(const GameRecord& rec, const std::vector<std::size_t>& indices);

}  // namespace arbiter::watch
