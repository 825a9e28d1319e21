// session_endings.cpp — the session's handlers for endings and offences: resignation, a flag
// fall (6.9, 6.11), illegal moves and positions (7.5), a result declared by the arbiter.
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

std::optional<EventError> Session::on_resign(const Event& e) {
    if (!e.side) return refuse(Code::missing_field, "resign needs the side that resigns");
    const Color loser = *e.side;
    start_clock_if_needed(e.at_ms);
    std::string why;
    const bool can_mate = opponent_can_mate(loser, why);
    if (rules().resignation_draw_if_opponent_cannot_mate && !can_mate) {
        finish(EndKind::resignation, "1/2-1/2", procedure().resignation,
               side_title(loser) + " resigned, but " + side_title(~loser) +
                   " cannot checkmate by any series of legal moves (" + why + "), so the game is drawn.",
               e.at_ms);
    } else {
        finish(EndKind::resignation, win_for(~loser), procedure().resignation, side_title(loser) + " resigned.",
               e.at_ms);
    }
    return std::nullopt;
}

std::optional<EventError> Session::on_flag(const Event& e) {
    const ProcedureRules& pr = procedure();
    if (!e.both && !e.side) return refuse(Code::missing_field, "flag needs the side whose flag fell (or both)");
    const std::int64_t at = e.at_ms;
    if (clock_) {
        for (Color c : {Color::white, Color::black}) {
            if ((e.both || *e.side == c) && !clock_->flag_down(c, at))
                return refuse(Code::flag_not_fallen, side_title(c) + "'s flag has not fallen: the clock shows " +
                                                         format_clock(clock_->remaining(c, at)));
        }
    }
    if (e.both && !pr.both_flags)
        return refuse(Code::no_such_rule, std::string(rules().name) + " has no rule for both flags");

    const bool last = !clock_ || (clock_->in_last_period(Color::white) && clock_->in_last_period(Color::black));
    const bool sudden_death = last && (!clock_ || !(clock_->period(to_move()).bonus == Bonus::increment &&
                                                    clock_->period(to_move()).bonus_ms >= 30'000));
    const bool both_down =
        e.both || (clock_ && clock_->flag_down(Color::white, at) && clock_->flag_down(Color::black, at));

    if (both_down && pr.both_flags_draw_in_sudden_death) {
        start_clock_if_needed(at);
        if (sudden_death) {
            finish(EndKind::both_flags, "1/2-1/2", pr.both_flags,
                   "Both flags are down in a sudden-death control, so the game is drawn.", at);
        } else {
            note("Both flags are down outside sudden death: the game continues (16T).");
        }
        return std::nullopt;
    }
    if (e.both) {
        start_clock_if_needed(at);
        if (last) {
            finish(EndKind::both_flags, "1/2-1/2", pr.both_flags,
                   "Both flags have fallen, it cannot be established which fell first, and this is the last period: "
                   "the game is drawn.",
                   at);
        } else {
            note(
                "Both flags have fallen and it cannot be established which fell first; this is not the last period, so "
                "the game continues (" +
                std::string(pr.both_flags) + ").");
        }
        return std::nullopt;
    }

    Color flagger = *e.side;
    std::string first;
    if (both_down && clock_) {
        // The clock establishes which flag fell first.
        const auto mine = clock_->flag_fell_at(flagger, at), theirs = clock_->flag_fell_at(~flagger, at);
        if (mine && theirs && *theirs < *mine) flagger = ~flagger;
        first = "Both flags are down; the clock shows that " + side_title(flagger) + "'s fell first. ";
    }
    start_clock_if_needed(at);
    const FlagRuling r = rule_flag_fall(rules(), config_.options.time_category, *analyzer_, record_.current(), flagger);
    finish(EndKind::time_forfeit, r.opponent_wins ? win_for(~flagger) : "1/2-1/2", r.article, first + r.reason, at);
    return std::nullopt;
}

std::optional<EventError> Session::on_illegal_move(const Event& e) {
    const ProcedureRules& pr = procedure();
    if (!pr.illegal_move)
        return refuse(Code::no_such_rule, std::string(rules().name) + " has no completed illegal moves to rule on");
    const Color offender = e.side ? *e.side : to_move();
    if (offender != to_move())
        return refuse(Code::out_of_turn,
                      "once the position before the illegal move is restored it is the offender's move, and it is " +
                          side_title(to_move()) + "'s move");
    if (is_ok(e.square) && (record_.current().piece_at(e.square) == Piece::none ||
                            color_of(record_.current().piece_at(e.square)) != offender))
        return refuse(Code::no_piece, "there is no " + side_title(offender) + " piece on " + to_string(e.square));

    start_clock_if_needed(e.at_ms);
    const int count = ++illegal_[index(offender)];
    if (pr.illegal_moves_that_lose > 0 && count >= pr.illegal_moves_that_lose) {
        std::string why;
        const std::string nth = count == 2 ? "second" : count == 3 ? "third" : std::to_string(count) + "th";
        if (opponent_can_mate(offender, why)) {
            finish(EndKind::illegal_moves, win_for(~offender), pr.illegal_move,
                   side_title(offender) + " completed an illegal move for the " + nth + " time and loses.", e.at_ms);
        } else {
            finish(EndKind::illegal_moves, "1/2-1/2", pr.illegal_move,
                   side_title(offender) + " completed an illegal move for the " + nth + " time, but " +
                       side_title(~offender) + " cannot checkmate by any series of legal moves (" + why +
                       "), so the game is drawn.",
                   e.at_ms);
        }
        return std::nullopt;
    }
    const auto cat = static_cast<std::size_t>(config_.options.time_category);
    int seconds = pr.illegal_move_penalty_s[cat];
    // Where an option changes the Article 9 penalty (fide-2023 blitz under B.2), the Article 7
    // penalty follows it: both are "the penalties mentioned in Articles 7 and 9".
    if (incorrect_claim_penalty_seconds(rules(), config_.options) != rules().incorrect_claim_penalty_s[cat])
        seconds = pr.illegal_move_penalty_s[static_cast<std::size_t>(TimeCategory::standard)];
    Penalty p{offender, 1000LL * seconds, 0, pr.illegal_move};
    penalise(p, e.at_ms);
    touched_.clear();
    if (is_ok(e.square)) touched_.push_back(e.square);  // 7.5.1: the piece must be moved (4.3)
    note(side_title(offender) + " completed an illegal move; the position before it is restored and " +
         side_title(~offender) + " receives " + ms_text(p.added_ms) + " (" + pr.illegal_move + ").");
    return std::nullopt;
}

std::optional<EventError> Session::on_illegal_position(const Event& e) {
    const char* art = procedure().illegal_position;
    if (!art)
        return refuse(Code::no_such_rule, std::string(rules().name) + ": no draw for an illegal position is modelled");
    if (config_.options.time_category == TimeCategory::standard)
        return refuse(Code::not_allowed_now, std::string(art) + " applies in rapid and blitz only");
    start_clock_if_needed(e.at_ms);
    finish(EndKind::illegal_position, "1/2-1/2", art,
           "An illegal position (both kings in check, or a pawn on the last rank) was still on the board after the "
           "next move was completed, so the game is drawn.",
           e.at_ms);
    return std::nullopt;
}

std::optional<EventError> Session::on_declare(const Event& e) {
    const auto may = record_.director_may_declare(record_.size() - 1);
    const auto it = std::find_if(may.begin(), may.end(), [&](const Termination& t) { return t.kind == e.declared; });
    if (it == may.end())
        return refuse(Code::not_allowed_now,
                      std::string("the director may not declare a draw by ") + termination_name(e.declared) + " here" +
                          (may.empty() && rules().seventy_five != DrawEffect::director_may_declare
                               ? " (only US Chess 14K has such a rule)"
                               : ""));
    start_clock_if_needed(e.at_ms);
    finish(end_kind_of(it->kind), "1/2-1/2", it->article,
           it->kind == TerminationKind::fivefold_repetition
               ? "The director declares the game drawn: the same position has appeared for five consecutive alternate "
                 "moves by each player."
               : "The director declares the game drawn: 75 moves by each player without a pawn move or capture.",
           e.at_ms);
    return std::nullopt;
}

}  // namespace arbiter
