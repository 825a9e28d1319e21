// session_play.cpp — the session's handlers for play: start, moves and clock presses, touched
// pieces (4.3/4.4), draw offers and their answers, pause and resume.
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

// Handlers

std::optional<EventError> Session::on_start(const Event& e) {
    if (events_ > 0)
        return refuse(Code::not_first_event, "start must be the first event: the clock started with the first event");
    if (e.side && *e.side != to_move())
        return refuse(Code::out_of_turn,
                      "the clock of the player to move, " + side_title(to_move()) + ", starts the game");
    start_clock_if_needed(e.at_ms);
    return std::nullopt;
}

std::optional<EventError> Session::on_move(const Event& e) {
    const Color mover = to_move();
    if (e.side && *e.side != mover)
        return refuse(Code::out_of_turn, "out of turn: it is " + side_title(mover) + "'s move");
    if (quickplay_pending_ && !quickplay_postponed_)
        return refuse(Code::quickplay_pending, "a quickplay-finish claim by " + side_title(*quickplay_pending_) +
                                                   " awaits the arbiter's ruling");
    auto m = parse_move(record_.current(), e.move);
    if (!m)
        return refuse(Code::illegal_move, "'" + e.move + "' is not a legal move for " + side_title(mover) + " here (" +
                                              kind_name(m.error().kind) + "): " + m.error().message);
    if (auto err = check_move_obligations(*m)) return err;
    if (e.offer) {
        if (offer_ && offer_->by == mover)
            return refuse(Code::offer_pending, side_title(mover) + "'s draw offer is still pending");
        if (auto err = check_offers_allowed(mover, e.consent, true)) return err;
    }

    start_clock_if_needed(e.at_ms);
    if (awaiting_press_ && clock_) {
        // 6.2.1.2: the previous move is completed now; its clock ran until this move.
        clock_->press(*awaiting_press_, e.at_ms);
        moves_.back().clock_ms = clock_->remaining(*awaiting_press_, e.at_ms);
    }
    awaiting_press_.reset();
    if (offer_ && offer_->by != mover) {
        note(side_title(mover) + " moves: " + side_title(offer_->by) + "'s draw offer lapses (" + procedure().offer +
             ").");
        offer_.reset();
    }
    const std::string san = to_san(record_.current(), *m);
    (void)record_.play(*m);
    moves_.push_back({san, e.at_ms, std::nullopt, std::nullopt});
    end_turn_state();

    if (const auto& t = record_.termination()) {
        // 6.2.1.1: a move that ends the game is completed without pressing the clock.
        finish(end_kind_of(t->kind), t->result, t->article, automatic_reason(*t, record_.current()), e.at_ms);
        if (clock_) moves_.back().clock_ms = clock_->remaining(mover, e.at_ms);
        return std::nullopt;
    }
    if (e.offer) {
        offer_ = Offer{mover, record_.size() - 1, false, false};
        moves_.back().offer_by = mover;
        note(side_title(mover) + " offers a draw (" + procedure().offer + ").");
    }
    if (e.press) {
        if (clock_) {
            clock_->press(mover, e.at_ms);
            moves_.back().clock_ms = clock_->remaining(mover, e.at_ms);
        }
    } else {
        awaiting_press_ = mover;
    }
    return std::nullopt;
}

std::optional<EventError> Session::on_press(const Event& e) {
    if (!awaiting_press_) return refuse(Code::nothing_to_press, "no move is waiting for the clock to be pressed");
    if (e.side && *e.side != *awaiting_press_)
        return refuse(Code::out_of_turn,
                      "only " + side_title(*awaiting_press_) + ", who has just moved, can press the clock");
    start_clock_if_needed(e.at_ms);
    if (clock_) {
        clock_->press(*awaiting_press_, e.at_ms);
        moves_.back().clock_ms = clock_->remaining(*awaiting_press_, e.at_ms);
    }
    awaiting_press_.reset();
    return std::nullopt;
}

std::optional<EventError> Session::on_touch(const Event& e, bool adjust) {
    const char* article = adjust ? procedure().adjust : procedure().touch_move;
    if (!article)
        return refuse(Code::no_such_rule,
                      std::string(rules().name) + " has no touch-move rule: there are no pieces to touch");
    const Color toucher = to_move();
    if (e.side && *e.side != toucher)
        return refuse(Code::out_of_turn, "out of turn: only the player having the move, " + side_title(toucher) +
                                             ", can " + (adjust ? "adjust pieces (" : "touch a piece with intent (") +
                                             article + ")");
    if (!is_ok(e.square))
        return refuse(Code::missing_field, std::string(adjust ? "adjust" : "touch") + " needs a square, e.g. \"g1\"");
    const Position& pos = record_.current();
    if (pos.piece_at(e.square) == Piece::none)
        return refuse(Code::no_piece, "there is no piece on " + to_string(e.square));

    start_clock_if_needed(e.at_ms);
    if (adjust) {
        note(side_title(toucher) + " adjusts the " + piece_on(pos, e.square) + " (" + article + ").");
        return std::nullopt;
    }
    if (std::find(touched_.begin(), touched_.end(), e.square) == touched_.end()) touched_.push_back(e.square);
    if (procedure().claim_right_lost) claim_right_lost_ = true;
    // Every touch with intent is on the scoresheet notes (it binds the move: 4.3).
    std::string text = side_title(toucher) + " touches the " + piece_on(pos, e.square) + " (" + article + ")";
    if (offer_ && offer_->by != toucher) {
        text += ": " + side_title(offer_->by) + "'s draw offer lapses (" + procedure().offer + ")";
        offer_.reset();
    }
    note(text + ".");
    return std::nullopt;
}

std::optional<EventError> Session::on_offer(const Event& e) {
    const Color by = e.side ? *e.side : awaiting_press_ ? *awaiting_press_ : to_move();
    if (offer_) {
        if (offer_->by == by) return refuse(Code::offer_pending, side_title(by) + "'s draw offer is still pending");
        return refuse(Code::offer_pending,
                      side_title(offer_->by) + " has offered a draw: " + side_title(by) + " may accept or decline it");
    }
    if (auto err = check_offers_allowed(by, e.consent)) return err;

    start_clock_if_needed(e.at_ms);
    const bool regular = awaiting_press_ == by;
    offer_ = Offer{by, record_.size() - 1, !regular, false};
    if (regular) {
        moves_.back().offer_by = by;
        note(side_title(by) + " offers a draw (" + procedure().offer + ").");
    } else {
        note("(=) " + side_title(by) + " offers a draw at an irregular moment; the offer stands (" +
             procedure().offer_irregular + ").");
    }
    return std::nullopt;
}

std::optional<EventError> Session::on_answer(const Event& e, bool accept) {
    if (!offer_) return refuse(Code::no_offer, "no draw offer is pending");
    const Color responder = ~offer_->by;
    if (e.side && *e.side != responder)
        return refuse(Code::out_of_turn, side_title(offer_->by) + " made the offer; only " + side_title(responder) +
                                             " can " + (accept ? "accept" : "decline") + " it");
    if (accept && rules().agreement_needs_a_move_each && record_.plies_played() < 2)
        return refuse(Code::not_allowed_now,
                      std::string(procedure().agreement) +
                          ": a draw by agreement needs both players to have made at least one move");

    start_clock_if_needed(e.at_ms);
    if (accept) {
        const std::string how = offer_->by_claim ? "'s claim, which is also a draw offer" : "'s offer";
        finish(EndKind::agreement, "1/2-1/2", procedure().agreement,
               "Drawn by agreement: " + side_title(responder) + " accepted " + side_title(offer_->by) + how + ".",
               e.at_ms);
    } else {
        note(side_title(responder) + " declines " + side_title(offer_->by) + "'s draw offer.");
        offer_.reset();
    }
    return std::nullopt;
}

std::optional<EventError> Session::on_pause(const Event& e, bool pause) {
    if (!clock_) return refuse(Code::no_clock, "this game has no clock");
    if (pause) {
        if (clock_->started() && clock_->paused()) return refuse(Code::already_paused, "the clock is already paused");
        start_clock_if_needed(e.at_ms);
        clock_->pause(e.at_ms);
        return std::nullopt;
    }
    if (!clock_->paused()) return refuse(Code::not_paused, "the clock is not paused");
    if (quickplay_pending_ && !quickplay_postponed_)
        return refuse(Code::quickplay_pending, "a quickplay-finish claim awaits the arbiter's ruling");
    clock_->resume(e.at_ms);
    return std::nullopt;
}

}  // namespace arbiter
