// session_arbiter.cpp — the session's handlers for the arbiter's decisions and corrections:
// setting the clock, adding time, forfeits, notes, and withdrawing an event (retract).
#include "arbiter/session.hpp"

#include <algorithm>

#include "arbiter/fen.hpp"
#include "arbiter/flag.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/touch_move.hpp"
#include "session_impl.hpp"

namespace arbiter {

using namespace session_detail;

namespace {
constexpr std::int64_t a_day_ms = 86'400'000;

// The events that are an arbiter's ruling: withdrawing one is correcting the ruling (`force`).
bool is_ruling(EventType t) noexcept {
    switch (t) {
        case EventType::claim:
        case EventType::quickplay_ruling:
        case EventType::illegal_move:
        case EventType::illegal_position:
        case EventType::declare:
        case EventType::flag:
        case EventType::set_clock:
        case EventType::add_time:
        case EventType::forfeit: return true;
        default: return false;
    }
}
}  // namespace

std::optional<EventError> Session::on_set_clock(const Event& e) {
    const char* article = procedure().set_clock;
    if (!article) return refuse(Code::no_such_rule, rules().name + std::string(" has no arbiter's clock setting"));
    if (!clock_) return refuse(Code::no_clock, "this game has no clock");
    if (!e.white_ms && !e.black_ms && !e.white_moves && !e.black_moves)
        return refuse(Code::missing_field, "set_clock needs white_ms, black_ms, white_moves or black_moves");
    for (const auto& ms : {e.white_ms, e.black_ms})
        if (ms && (*ms < 0 || *ms > a_day_ms))
            return refuse(Code::bad_value, "a clock time must be from 0 to 24 hours, not " + std::to_string(*ms));
    for (const auto& n : {e.white_moves, e.black_moves})
        if (n && (*n < 0 || *n > 10'000))
            return refuse(Code::bad_value, "a move count must be from 0 to 10000, not " + std::to_string(*n));
    start_clock_if_needed(e.at_ms);
    std::string what;
    for (Color c : {Color::white, Color::black}) {
        const auto& ms = c == Color::white ? e.white_ms : e.black_ms;
        const auto& n = c == Color::white ? e.white_moves : e.black_moves;
        if (!ms && !n) continue;
        clock_->correct(c, ms.value_or(clock_->remaining(c, e.at_ms)), n, e.at_ms);
        what += std::string(what.empty() ? "" : ", ") + side_title(c) + " " +
                format_clock(clock_->remaining(c, e.at_ms)) +
                (n ? " after " + std::to_string(*n) + (*n == 1 ? " move" : " moves") : "");
    }
    note("The arbiter sets the clocks (" + std::string(article) + "): " + what + ".");
    return std::nullopt;
}

std::optional<EventError> Session::on_add_time(const Event& e) {
    const char* article = procedure().add_time;
    if (!article) return refuse(Code::no_such_rule, rules().name + std::string(" has no time given by the arbiter"));
    if (!clock_) return refuse(Code::no_clock, "this game has no clock");
    if (!e.side) return refuse(Code::missing_field, "add_time needs the side that receives the time");
    if (!e.added_ms) return refuse(Code::missing_field, "add_time needs added_ms");
    if (*e.added_ms <= 0 || *e.added_ms > a_day_ms)
        return refuse(Code::bad_value,
                      "added_ms must be more than 0 and at most 24 hours, not " + std::to_string(*e.added_ms));
    if (clock_->flag_down(*e.side, e.at_ms))
        return refuse(Code::flag_fallen, side_title(*e.side) +
                                             "'s flag has fallen: time cannot be added to it "
                                             "(set_clock corrects a clock that was wrong)");
    start_clock_if_needed(e.at_ms);
    clock_->add(*e.side, *e.added_ms, e.at_ms);
    note("The arbiter gives " + side_title(*e.side) + " " + ms_text(*e.added_ms) + " (" + article + ")" +
         (e.text.empty() ? "" : ": " + e.text) + ".");
    return std::nullopt;
}

std::optional<EventError> Session::on_forfeit(const Event& e) {
    const auto r = static_cast<std::size_t>(e.reason);
    const char* article = procedure().forfeit[r];
    if (!article)
        return refuse(Code::no_such_rule,
                      rules().name + std::string(" has no forfeit for ") + enum_name(e.reason) + " here");
    if (!e.side) return refuse(Code::missing_field, "forfeit needs the side that loses");
    if (e.draw && e.reason != ForfeitReason::conduct)
        return refuse(Code::bad_value,
                      "draw applies to a forfeit for conduct (the arbiter decides the opponent's "
                      "score); the other forfeits are decided by the Laws");
    const Color loser = *e.side;
    start_clock_if_needed(e.at_ms);
    std::string why = e.text.empty() ? std::string() : " (" + e.text + ")";
    std::string mate_why;
    const bool drawn = e.draw || (procedure().forfeit_cannot_mate_draw[r] && !opponent_can_mate(loser, mate_why));
    static constexpr const char* what[] = {"arrived after the default time", "had an electronic device in the venue",
                                           "is penalised for conduct", "disconnected and did not return"};
    std::string reason =
        "The arbiter declares the game lost by " + side_title(loser) + ", who " + what[r] + why + " (" + article + ")";
    if (drawn)
        reason += e.draw ? "; the arbiter scores it a draw for " + side_title(~loser) + "."
                         : ", but " + side_title(~loser) + " cannot checkmate by any series of legal moves (" +
                               mate_why + "), so the game is drawn.";
    else
        reason += ".";
    finish(EndKind::forfeit, drawn ? "1/2-1/2" : win_for(~loser), article, std::move(reason), e.at_ms);
    return std::nullopt;
}

std::optional<EventError> Session::on_note(const Event& e) {
    if (e.text.empty()) return refuse(Code::missing_field, "note needs text");
    if (e.text.size() > 2000) return refuse(Code::bad_value, "a note is at most 2000 bytes");
    note("Arbiter: " + e.text);
    return std::nullopt;
}

std::optional<EventError> Session::on_retract(const Event& e) {
    if (e.count == 0)
        return refuse(Code::bad_value, "retract needs count, the number of events to withdraw (1 or more)");
    // The cut: before the count-th last event in force (markers of earlier retracts not counted).
    std::size_t cut = in_force_.size(), found = 0;
    std::string withdrawn;
    while (cut > 0 && found < e.count) {
        const Event& x = in_force_[--cut];
        if (x.type == EventType::retract) continue;
        ++found;
        if (is_ruling(x.type) && !e.force)
            return refuse(Code::ruling_given, "retract would withdraw the arbiter's ruling (" +
                                                  std::string(event_type_name(x.type)) + " at " +
                                                  std::to_string(x.at_ms) + " ms); give force to correct a ruling");
        withdrawn = std::string(event_type_name(x.type)) + (x.move.empty() ? "" : " " + x.move) +
                    (withdrawn.empty() ? "" : ", " + withdrawn);
    }
    if (found < e.count)
        return refuse(Code::nothing_to_retract, "retract " + std::to_string(e.count) + ": only " +
                                                    std::to_string(found) + " events are in force");
    auto fresh = Session::create(config_, analyzer_);
    if (!fresh) return fresh.error();
    for (std::size_t i = 0; i < cut; ++i) {
        const Event& x = in_force_[i];
        if (x.type == EventType::retract) {
            fresh->note(x.text);
            fresh->in_force_.push_back(x);
            continue;
        }
        // Every event in force was accepted in this order before: it is accepted again.
        if (auto err = fresh->apply(x)) return refuse(Code::bad_value, "retract: replaying failed: " + err->message);
    }
    // The notes of earlier corrections past the cut stay on the scoresheet, in their order.
    for (std::size_t i = cut; i < in_force_.size(); ++i) {
        if (in_force_[i].type != EventType::retract) continue;
        fresh->note(in_force_[i].text);
        fresh->in_force_.push_back(in_force_[i]);
    }
    Event marker = e;
    marker.text = "The arbiter withdraws " +
                  std::string(e.count == 1 ? "the last event" : "the last " + std::to_string(e.count) + " events") +
                  " (" + withdrawn + ")" + (e.text.empty() ? "" : ": " + e.text) + ".";
    fresh->note(marker.text);
    fresh->in_force_.push_back(marker);
    fresh->events_ = events_ + 1;
    fresh->last_at_ = e.at_ms;
    *this = std::move(*fresh);
    return std::nullopt;
}

}  // namespace arbiter
