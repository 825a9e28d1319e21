// liveness.cpp — the hall monitor watching its feeds themselves: a game in progress whose feed
// stopped changing (feed_stale), a board whose source is gone (feed_gone).
#include "hall_board.hpp"

namespace arbiter::watch {

namespace {

// "5 min 12 s", "40 s".
std::string duration_words(std::chrono::milliseconds d) {
    const auto s = static_cast<long long>(d.count() / 1000);
    if (s < 60) return std::to_string(s) + " s";
    return std::to_string(s / 60) + " min" + (s % 60 ? " " + std::to_string(s % 60) + " s" : std::string());
}

std::string position_words(const GameRecord& rec) {
    const std::size_t n = rec.plies_played();
    return n == 0 ? std::string("at the start") : "after " + rec.move_label(n);
}

}  // namespace

void Hall::tick(std::chrono::steady_clock::time_point now, std::vector<Alert>& out) {
    changed_.clear();
    if (options_.stale_after.count() <= 0) return;
    for (Board* b : order_) {
        b->changed = false;
        if (!b->in_progress()) continue;
        const auto quiet = std::chrono::duration_cast<std::chrono::milliseconds>(now - b->last_change);
        if (quiet < options_.stale_after) continue;
        bool gone = false;  // a feed_gone says more
        for (const auto& [key, a] : b->alerts) gone = gone || a.type == type::feed_gone;
        if (gone) continue;
        const std::size_t n = b->rec.plies_played();
        emit(*b,
             {.type = type::feed_stale,
              .kind = face::alert_kind::no_change,
              .ply = b->rec.game_ply(n),
              .move = n == 0 ? std::string() : b->rec.move_label(n),
              .detail = "the game is in progress but its feed has not changed for " + duration_words(quiet) + " (" +
                        position_words(b->rec) + "): check the board and its connection"},
             out);
        if (b->changed) changed_.push_back(b->id);
    }
}

void Hall::source_gone(std::string_view source, std::string_view kind, std::vector<Alert>& out) {
    changed_.clear();
    // Its games are new again when it comes back, even byte for byte the same.
    pieces_.erase(std::string(source));
    for (Board* b : order_) {
        b->changed = false;
        if (b->source != source || !b->in_progress()) continue;
        withdraw_if(
            *b, [](const Alert& a) { return a.type == type::feed_stale; }, out);
        const std::size_t n = b->rec.plies_played();
        emit(*b,
             {.type = type::feed_gone,
              .kind = std::string(kind),
              .ply = b->rec.game_ply(n),
              .move = n == 0 ? std::string() : b->rec.move_label(n),
              .detail = std::string(kind == face::alert_kind::deleted ? "the board's file was deleted"
                                                                      : "the board's URL answers 404 (or 410)") +
                        " while the game is in progress (" + position_words(b->rec) +
                        "): check the broadcast; the board is kept and goes on when its game is read again"},
             out);
        if (b->changed) changed_.push_back(b->id);
    }
}

}  // namespace arbiter::watch
