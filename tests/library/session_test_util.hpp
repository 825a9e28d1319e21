// Helpers shared by the session tests: a game driven event by event with terse assertions, and
// a generator of random (mostly acceptable) event streams for the property and crash tests.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "arbiter/arbiter.hpp"

namespace arbiter::testing {

inline Event ev(EventType type, std::int64_t at) {
    Event e;
    e.type = type;
    e.at_ms = at;
    return e;
}
inline Event mv(const std::string& move, std::int64_t at, bool press = true) {
    Event e = ev(EventType::move, at);
    e.move = move;
    e.press = press;
    return e;
}
inline Event touch(const std::string& square, std::int64_t at) {
    Event e = ev(EventType::touch, at);
    e.square = *parse_square(square);
    return e;
}
inline Event claim(ClaimKind kind, const std::string& intended, std::int64_t at) {
    Event e = ev(EventType::claim, at);
    e.claim = kind;
    e.move = intended;
    return e;
}
inline Event by(Event e, Color side) {
    e.side = side;
    return e;
}

/// A session driven by events; `t` advances by `step` per helper call unless given.
struct Game {
    Session s;
    std::int64_t t = 0;

    explicit Game(SessionConfig cfg = {}) : s(std::move(*Session::create(std::move(cfg)))) {}
    static SessionConfig config(RuleSetId id, const std::string& fen = "", const std::string& tc = "",
                                std::optional<TimeCategory> cat = std::nullopt) {
        SessionConfig c;
        c.rules = id;
        c.start_fen = fen;
        if (!tc.empty()) c.time_control = *parse_time_control(tc);
        if (cat) {
            c.options.time_category = *cat;
            c.time_category_given = true;
        }
        return c;
    }

    void ok(const Event& e) {
        const auto err = s.apply(e);
        ASSERT_FALSE(err) << encode(e) << ": " << err->message;
    }
    /// Applies an event that must be refused; returns the reason and checks nothing changed.
    std::string refused(const Event& e) {
        const std::string before = s.summary();
        const auto err = s.apply(e);
        EXPECT_TRUE(err) << encode(e) << " was accepted";
        EXPECT_EQ(before, s.summary()) << "a refused event changed the session";
        if (err) last_code = err->code;
        return err ? err->message : "";
    }
    /// The code of the last refusal.
    std::optional<EventError::Code> last_code;
    /// Applies an event that must be refused with `code`.
    EventError::Code refused_code(const Event& e) {
        last_code.reset();
        refused(e);
        return last_code.value_or(EventError::Code{});
    }
    /// Plays moves (SAN or UCI), `step` ms apart.
    void play(const std::string& moves, std::int64_t step = 1000) {
        std::istringstream in(moves);
        std::string m;
        while (in >> m) {
            t += step;
            ok(mv(m, t));
        }
    }
    std::int64_t next(std::int64_t step = 1000) { return t += step; }
};

/// Random session configurations: every rule set, with and without clocks.
inline SessionConfig random_config(std::mt19937_64& rng) {
    static const char* tcs[] = {"", "300", "180+2", "600d5", "900b10", "40/5400+30:1800+30", "2/60:30", "5400", "10+1"};
    static const char* fens[] = {"",
                                 "",
                                 "",
                                 "4k3/8/8/8/8/8/8/R3K3 w - - 90 60",
                                 "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                                 "6K1/7P/5k2/8/8/8/1b6/8 w - - 0 1"};
    SessionConfig c;
    c.rules = static_cast<RuleSetId>(rng() % 8);
    const std::string tc = tcs[rng() % std::size(tcs)];
    if (!tc.empty()) c.time_control = *parse_time_control(tc);
    c.start_fen = fens[rng() % std::size(fens)];
    c.quickplay_finish = rng() % 3 == 0;
    c.options.no_offers_before_move = rng() % 4 == 0 ? 3 : 0;
    if (rng() % 4 == 0) {
        c.options.time_category = static_cast<TimeCategory>(rng() % 3);
        c.time_category_given = true;
    }
    return c;
}

/// A random event for the session's current state: mostly acceptable ones (legal moves, the
/// obligations respected, flags that have fallen), some that the session refuses.
inline Event random_event(const Session& s, std::mt19937_64& rng, std::int64_t& t) {
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    t += static_cast<std::int64_t>(rng() % (rng() % 10 == 0 ? 200'000 : 8'000));
    Event e;
    e.at_ms = t;
    const GameRecord& rec = s.record();
    const Position& pos = rec.current();
    const int roll = static_cast<int>(rng() % 100);
    if (s.awaiting_press() && roll < 40) return e.type = EventType::press, e;
    if (s.pending_offer() && roll < 10) return e.type = rng() % 2 ? EventType::accept : EventType::decline, e;
    if (s.quickplay_pending() && roll < 50) {
        e.type = EventType::quickplay_ruling;
        e.decision = static_cast<QuickplayDecision>(rng() % 3);
        return e;
    }
    if (roll < 65 && !rec.legal_moves_now().empty()) {
        e.type = EventType::move;
        std::vector<Move> options(rec.legal_moves_now().begin(), rec.legal_moves_now().end());
        if (s.must_play() && !s.must_play()->allowed.empty())
            options = s.must_play()->allowed;
        else if (!s.touched().empty()) {
            std::vector<Move> own;
            for (Move m : options)
                if (m.from() == s.touched().front()) own.push_back(m);
            if (!own.empty()) options = own;
        }
        const Move m = options[pick(options.size())];
        e.move = rng() % 4 == 0 ? to_uci(pos, m) : to_san(pos, m);
        e.press = rng() % 8 != 0;
        e.offer = rng() % 25 == 0;
        return e;
    }
    switch (rng() % 14) {
        case 0:
        case 1: {
            e.type = rng() % 4 ? EventType::touch : EventType::adjust;
            const Bitboard own = pos.pieces(pos.turn());
            std::vector<Square> sq;
            for (Square x : own) sq.push_back(x);
            e.square = sq[pick(sq.size())];
            return e;
        }
        case 2: e.type = EventType::offer; return e;
        case 3:
        case 4: {
            e.type = EventType::claim;
            e.claim = rng() % 2 ? ClaimKind::threefold : ClaimKind::fifty;
            if (rng() % 2 && !rec.legal_moves_now().empty())
                e.move = to_san(pos, rec.legal_moves_now()[pick(rec.legal_moves_now().size())]);
            return e;
        }
        case 5: e.type = rng() % 2 ? EventType::pause : EventType::resume; return e;
        case 6:
        case 7: {
            e.type = EventType::flag;
            if (s.clock()) {
                for (Color c : {Color::white, Color::black})
                    if (s.clock()->flag_down(c, t)) e.side = c;
            }
            if (!e.side) e.side = rng() % 2 ? Color::white : Color::black;
            if (rng() % 6 == 0) e.both = true;
            return e;
        }
        case 8: e.type = EventType::illegal_move; return e;
        case 9: e.type = EventType::quickplay_claim; return e;
        case 10:
            if (rng() % 8 == 0) {
                e.type = EventType::resign;
                e.side = rng() % 2 ? Color::white : Color::black;
                return e;
            }
            e.type = EventType::declare;
            return e;
        case 11: e.type = rng() % 10 == 0 ? EventType::illegal_position : EventType::start; return e;
        default: e.type = EventType::pause; return e;
    }
}

}  // namespace arbiter::testing
