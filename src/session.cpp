// session.cpp — the live game: events, the claim procedure, penalties, flag falls and endings.
#include "arbiter/session.hpp"

#include <algorithm>

#include "arbiter/fen.hpp"
#include "arbiter/flag.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/touch_move.hpp"

namespace arbiter {

namespace {

std::string win_for(Color c) { return c == Color::white ? "1-0" : "0-1"; }

using Code = EventError::Code;

EventError refuse(Code code, std::string message) { return EventError{code, std::move(message)}; }

std::string automatic_reason(const Termination& t, const Position& pos) {
    const std::string mover = side_title(~pos.turn());
    switch (t.kind) {
        case TerminationKind::checkmate: return "Checkmate: " + mover + " wins.";
        case TerminationKind::stalemate:
            return "Stalemate: " + side_title(pos.turn()) + " has no legal move and is not in check.";
        case TerminationKind::dead_position:
            return "Dead position: neither player can checkmate by any series of legal moves.";
        case TerminationKind::seventy_five_moves:
            return "75 moves by each player without a pawn move or capture: the game is drawn without a claim.";
        case TerminationKind::fivefold_repetition:
            return "The same position has stood five times: the game is drawn without a claim.";
        case TerminationKind::threefold_repetition:
            return "The same position has stood three times: the platform declares the draw.";
        case TerminationKind::fifty_moves:
            return "50 moves by each player without a pawn move or capture: the platform declares the draw.";
    }
    return "";
}

std::string ms_text(std::int64_t ms) {
    if (ms % 60'000 == 0) return std::to_string(ms / 60'000) + (ms == 60'000 ? " minute" : " minutes");
    return format_clock(ms);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The events in force

void EventLog::push_back(const Event& e) {
    tail_.push_back(e);
    if (tail_.size() < block_events) return;
    auto blocks = std::make_shared<Blocks>();
    blocks->reserve((blocks_ ? blocks_->size() : 0) + 1);
    if (blocks_) *blocks = *blocks_;
    blocks->push_back(std::make_shared<const Block>(tail_.begin(), tail_.end()));  // no room to spare
    blocks_ = std::move(blocks);
    full_events_ += block_events;
    tail_.clear();
}

std::size_t EventLog::heap_bytes() const noexcept {
    std::size_t n = tail_.capacity() * sizeof(Event);
    if (blocks_) {
        n += sizeof(Blocks) + blocks_->capacity() * sizeof(Blocks::value_type);
        for (const auto& b : *blocks_) n += sizeof(Block) + b->capacity() * sizeof(Event);
    }
    return n;
}

// ---------------------------------------------------------------------------------------------
// Creation

Session::Session(SessionConfig config, GameRecord record)
    : config_(std::move(config)), record_(std::move(record)), analyzer_(&record_.analyzer()) {
    if (config_.time_control) clock_.emplace(*config_.time_control);
}

Expected<Session, EventError> Session::create(SessionConfig config, const Unwinnability* analyzer) {
    Position start;
    if (!config.start_fen.empty()) {
        FenReadOptions fo;
        fo.tolerant = true;
        auto pos = position_from_fen(config.start_fen, fo);
        if (!pos) return Unexpected(refuse(Code::bad_start_position, "start position: " + pos.error().describe()));
        start = *pos;
    }
    if (config.time_control && !config.time_category_given)
        config.options.time_category = derive_time_category(*config.time_control);
    GameRecord record(start, rule_set(config.rules), config.options, analyzer);
    Session s(std::move(config), std::move(record));
    if (const auto& t = s.record_.termination())
        s.finish(end_kind_of(t->kind), t->result, t->article, automatic_reason(*t, s.record_.current()), 0);
    return s;
}

std::optional<std::int64_t> Session::clock_ms(Color side) const noexcept {
    if (!clock_) return std::nullopt;
    return clock_->remaining(side, last_at_);
}

// ---------------------------------------------------------------------------------------------
// Dispatch

std::optional<EventError> Session::apply(const Event& e) {
    if (e.at_ms < 0) return refuse(Code::bad_value, "at_ms must not be negative");
    if (events_ > 0 && e.at_ms < last_at_)
        return refuse(Code::time_goes_back, "at_ms " + std::to_string(e.at_ms) +
                                                " is earlier than the previous event's (" + std::to_string(last_at_) +
                                                ")");
    // A correction and a note for the scoresheet are still possible once the game has ended.
    if (end_ && e.type != EventType::retract && e.type != EventType::note)
        return refuse(Code::game_over, "the game has already ended (" + std::string(end_kind_name(end_->kind)) + ", " +
                                           end_->article + ", " + end_->result + "); nothing after that changes it");
    std::optional<EventError> err;
    switch (e.type) {
        case EventType::start: err = on_start(e); break;
        case EventType::move: err = on_move(e); break;
        case EventType::press: err = on_press(e); break;
        case EventType::touch: err = on_touch(e, false); break;
        case EventType::adjust: err = on_touch(e, true); break;
        case EventType::offer: err = on_offer(e); break;
        case EventType::accept: err = on_answer(e, true); break;
        case EventType::decline: err = on_answer(e, false); break;
        case EventType::claim: err = on_claim(e); break;
        case EventType::resign: err = on_resign(e); break;
        case EventType::flag: err = on_flag(e); break;
        case EventType::illegal_move: err = on_illegal_move(e); break;
        case EventType::illegal_position: err = on_illegal_position(e); break;
        case EventType::declare: err = on_declare(e); break;
        case EventType::quickplay_claim: err = on_quickplay_claim(e); break;
        case EventType::quickplay_ruling: err = on_quickplay_ruling(e); break;
        case EventType::pause: err = on_pause(e, true); break;
        case EventType::resume: err = on_pause(e, false); break;
        case EventType::set_clock: err = on_set_clock(e); break;
        case EventType::add_time: err = on_add_time(e); break;
        case EventType::forfeit: err = on_forfeit(e); break;
        case EventType::note: err = on_note(e); break;
        case EventType::retract: return on_retract(e);  // counts itself
    }
    if (err) return err;
    ++events_;
    last_at_ = e.at_ms;
    in_force_.push_back(e);
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Shared steps

void Session::start_clock_if_needed(std::int64_t at) {
    if (clock_ && !clock_->started()) clock_->start(to_move(), at);
}

void Session::note(std::string text) { notes_.push_back({record_.size() - 1, std::move(text)}); }

void Session::end_turn_state() {
    touched_.clear();
    claim_right_lost_ = false;
    must_play_.reset();
}

void Session::finish(EndKind kind, std::string result, std::string article, std::string reason, std::int64_t at) {
    if (clock_) clock_->stop(at);
    note(reason);
    end_ = SessionEnd{kind, std::move(result), std::move(article), std::move(reason), record_.size() - 1, at};
    offer_.reset();
    must_play_.reset();
    awaiting_press_.reset();
    quickplay_pending_.reset();
    quickplay_postponed_ = false;
}

void Session::penalise(Penalty& p, std::int64_t at) {
    if (!clock_) return;
    if (p.added_ms > 0) clock_->add(~p.side, p.added_ms, at);
    if (p.deducted_ms > 0) clock_->set(p.side, clock_->remaining(p.side, at) - p.deducted_ms, at);
}

bool Session::opponent_can_mate(Color loser, std::string& why) const {
    const MateVerdict v = analyzer_->can_checkmate(record_.current(), ~loser);
    why = v.reason;
    return v.answer != MateAbility::cannot_checkmate;
}

std::optional<EventError> Session::check_offers_allowed(Color side, bool consent, bool with_move) const {
    const int n = config_.options.no_offers_before_move;
    if (n <= 0 || consent) return std::nullopt;
    const std::uint32_t ply = record_.game_ply(record_.size() - 1) + (with_move ? 1u : 0u);
    const int made = static_cast<int>((ply + (side == Color::white ? 1u : 0u)) / 2);
    if (made >= n) return std::nullopt;
    const char* art = procedure().offer_ban ? procedure().offer_ban : "the event's regulations";
    return refuse(Code::offers_forbidden, "the event's regulations forbid draw offers and agreement before move " +
                                              std::to_string(n) + " (" + art + ") unless the arbiter consents; " +
                                              side_title(side) + " has made " + std::to_string(made) +
                                              (made == 1 ? " move" : " moves"));
}

std::optional<EventError> Session::check_move_obligations(Move m) const {
    if (must_play_) {
        if (must_play_->allowed.empty() ||
            std::find(must_play_->allowed.begin(), must_play_->allowed.end(), m) != must_play_->allowed.end())
            return std::nullopt;
        return refuse(
            Code::move_obligation,
            std::string(procedure().incorrect_claim) + ": after the incorrect claim the written move " +
                must_play_->written +
                (must_play_->legal ? " must be played" : " is illegal, so another move with that piece must be made"));
    }
    if (touched_.empty() || !procedure().touch_move) return std::nullopt;
    const MoveObligation o = touch_obligation(record_.current(), touched_, procedure().touch_move);
    if (o.allowed.empty() || std::find(o.allowed.begin(), o.allowed.end(), m) != o.allowed.end()) return std::nullopt;
    return refuse(Code::move_obligation, o.reason);
}

// ---------------------------------------------------------------------------------------------
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

std::optional<EventError> Session::on_claim(const Event& e) {
    const RuleSet& rs = rules();
    const ProcedureRules& pr = procedure();
    const DrawEffect effect =
        e.claim == ClaimKind::threefold ? threefold_effect(rs, config_.options) : fifty_effect(rs, config_.options);
    if (effect == DrawEffect::none) return refuse(Code::no_such_rule, std::string(rs.name) + " has no such claim");
    if (!e.move.empty() && !rs.intended_move_claims)
        return refuse(Code::no_such_rule, std::string(rs.name) + " has no claims with a written move");
    if (quickplay_pending_ && !quickplay_postponed_)
        return refuse(Code::quickplay_pending, "a quickplay-finish claim by " + side_title(*quickplay_pending_) +
                                                   " awaits the arbiter's ruling");

    // US Chess 9G1/14C4: the claim stays in order after the move is made, until the clock is
    // pressed; it then rests on the move just made.
    const bool after_move = rs.claim_right_ends == ClaimRightEnds::pressing_the_clock && awaiting_press_ &&
                            (!e.side || *e.side == *awaiting_press_);
    Color claimant = to_move();
    if (after_move) {
        claimant = *awaiting_press_;
    } else {
        if (e.side && *e.side != claimant)
            return refuse(Code::out_of_turn,
                          "out of turn: only the player having the move, " + side_title(claimant) + ", may claim");
        if (awaiting_press_ && rs.claim_right_ends == ClaimRightEnds::pressing_the_clock)
            return refuse(Code::clock_not_pressed, side_title(*awaiting_press_) +
                                                       " has not yet pressed the clock, so " + side_title(claimant) +
                                                       " is not yet on move (9G1)");
    }

    // The record the claim is judged on, and the written move.
    std::optional<GameRecord> before;
    if (after_move) {
        before.emplace(record_);
        before->pop();
    }
    const GameRecord& judged = before ? *before : record_;
    std::optional<Move> intended;
    std::string written = e.move;
    std::optional<MoveError> written_error;
    if (after_move) {
        intended = record_.move(record_.size() - 1);
        if (!e.move.empty()) {
            auto m = parse_move(judged.current(), e.move);
            if (!m || *m != *intended)
                return refuse(Code::written_move_fixed,
                              "the move " + moves_.back().san +
                                  " is already made; a claim before pressing the clock rests on it (9G1)");
        }
        written = moves_.back().san;
    } else if (!e.move.empty()) {
        auto m = parse_move(judged.current(), e.move);
        if (!m && m.error().kind == MoveError::Kind::syntax)
            return refuse(Code::not_a_move, "the written move '" + e.move + "' is not a move: " + m.error().message);
        if (m)
            intended = *m;
        else
            written_error = m.error();
    }
    if (must_play_ && !e.move.empty() && (!intended || to_san(judged.current(), *intended) != must_play_->written) &&
        e.move != must_play_->written)
        return refuse(Code::written_move_fixed, "the written move " + must_play_->written + " cannot be changed");

    start_clock_if_needed(e.at_ms);
    if (clock_ && !clock_->paused()) clock_->pause(e.at_ms);  // 9.5.1

    ClaimRuling ruling;
    ruling.at_ms = e.at_ms;
    ruling.ply = record_.size() - 1;
    ClaimVerdict& v = ruling.verdict;
    const Articles& art = rs.articles;
    const char* kind_article = e.claim == ClaimKind::threefold
                                   ? (written.empty() ? art.threefold_now : art.threefold_intended)
                                   : (written.empty() ? art.fifty_now : art.fifty_intended);
    if (claim_right_lost_ && pr.claim_right_lost && !after_move) {
        ruling.admissible = false;
        v.kind = e.claim;
        v.claimant = claimant;
        v.intended = intended;
        v.intended_san = intended ? to_san(judged.current(), *intended) : written;
        v.article = pr.claim_right_lost;
        std::string what = "a piece";
        if (!touched_.empty()) what = "the " + piece_on(judged.current(), touched_.front());
        v.reason = side_title(claimant) + " touched " + what +
                   " with intent before claiming and so lost the right to claim on this move (" + pr.claim_right_lost +
                   "); the right returns on " + side_title(claimant) + "'s next move.";
    } else if (written_error) {
        v.kind = e.claim;
        v.claimant = claimant;
        v.intended = Move::null();
        v.intended_san = written;
        v.article = kind_article;
        v.reason = "The written move " + written + " is " + kind_name(written_error->kind) +
                   " here, so no claim can rest on it.";
    } else {
        v = evaluate_claim(judged, e.claim, intended);
    }

    std::string text = side_title(claimant) + " claims a draw by " +
                       (e.claim == ClaimKind::threefold ? "threefold repetition" : "the 50-move rule") +
                       (v.intended_san.empty() ? "" : " with the written move " + v.intended_san) + " (" + v.article +
                       "): ";
    if (v.correct) {
        last_ruling_ = ruling;
        finish(e.claim == ClaimKind::threefold ? EndKind::threefold_repetition : EndKind::fifty_moves, "1/2-1/2",
               v.article, v.reason, e.at_ms);
        notes_.back().text = text + "correct. " + v.reason;
        return std::nullopt;
    }
    if (ruling.admissible) {
        Penalty p{claimant, 0, 0, e.claim == ClaimKind::threefold ? pr.incorrect_claim : pr.incorrect_fifty_claim};
        p.added_ms = 1000LL * incorrect_claim_penalty_seconds(rs, config_.options);
        if (rs.claimant_time_deduction && clock_) {
            // FIDE 2005 9.5(b): more than 2 minutes left → half of it, at most 3 minutes; more
            // than 1 minute → down to 1 minute; otherwise nothing [I for the boundaries].
            const std::int64_t left = clock_->remaining(claimant, e.at_ms);
            if (left > 120'000)
                p.deducted_ms = std::min<std::int64_t>(left / 2, 180'000);
            else if (left > 60'000)
                p.deducted_ms = left - 60'000;
        }
        penalise(p, e.at_ms);
        ruling.penalty = p;
        if (!after_move && !e.move.empty()) {
            MustPlay mp;
            mp.written = intended ? to_san(judged.current(), *intended) : written;
            mp.legal = intended.has_value();
            if (intended) {
                mp.allowed = {*intended};
            } else {
                mp.allowed = moves_of_written_piece(judged.current(), judged.legal_moves_now(), written);
            }
            must_play_ = mp;
        }
        // 9.1.2.3: the claim is also a draw offer (not where the event forbids offers yet).
        if (!offer_ && !check_offers_allowed(claimant, false))
            offer_ = Offer{claimant, record_.size() - 1, false, true};
        text += "incorrect. " + v.reason;
        if (p.added_ms > 0) text += " " + side_title(~claimant) + " receives " + ms_text(p.added_ms);
        if (p.deducted_ms > 0) text += " and " + side_title(claimant) + " loses " + ms_text(p.deducted_ms);
        if (p.added_ms > 0 || p.deducted_ms > 0) text += std::string(" (") + p.article + ").";
        if (must_play_) text += " The written move must now be played.";
    } else {
        text += "not admissible. " + v.reason;
    }
    last_ruling_ = ruling;
    note(text);
    return std::nullopt;
}

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

std::optional<EventError> Session::on_quickplay_claim(const Event& e) {
    const ProcedureRules& pr = procedure();
    if (!pr.quickplay) return refuse(Code::no_such_rule, std::string(rules().name) + " has no quickplay-finish claim");
    if (pr.quickplay_needs_announcement && !config_.quickplay_finish)
        return refuse(Code::not_allowed_now,
                      std::string(pr.quickplay) + " applies only when announced before the event (quickplay_finish)");
    const Color claimant = e.side ? *e.side : to_move();
    if (claimant != to_move())
        return refuse(Code::out_of_turn, "only the player having the move may make a quickplay-finish claim");
    if (quickplay_pending_)
        return refuse(Code::quickplay_pending,
                      "a quickplay-finish claim by " + side_title(*quickplay_pending_) + " is already pending");
    if (!clock_) return refuse(Code::no_clock, "a quickplay-finish claim needs a clock");
    if (config_.options.time_category == TimeCategory::blitz)
        return refuse(Code::not_allowed_now, std::string(pr.quickplay) + " does not apply to blitz games");
    if (clock_->period(claimant).bonus != Bonus::none)
        return refuse(Code::not_allowed_now,
                      std::string(pr.quickplay) + " applies only to games without increment or delay");
    if (!clock_->in_last_period(claimant))
        return refuse(Code::not_allowed_now, std::string(pr.quickplay) + " applies only in the last period");
    if (clock_->flag_down(claimant, e.at_ms))
        return refuse(Code::flag_fallen, side_title(claimant) + "'s flag has already fallen");
    if (clock_->remaining(claimant, e.at_ms) >= 120'000)
        return refuse(Code::not_allowed_now,
                      "a quickplay-finish claim needs less than two minutes on the claimant's clock; " +
                          side_title(claimant) + " has " + format_clock(clock_->remaining(claimant, e.at_ms)));

    start_clock_if_needed(e.at_ms);
    if (!clock_->paused()) clock_->pause(e.at_ms);
    quickplay_pending_ = claimant;
    quickplay_postponed_ = false;
    if (pr.quickplay_claim_is_offer && !offer_ && !check_offers_allowed(claimant, false))
        offer_ = Offer{claimant, record_.size() - 1, false, true};
    note(side_title(claimant) + " claims a draw with less than two minutes left (" + pr.quickplay +
         "): the opponent cannot win, or is making no effort to win, by normal means.");
    return std::nullopt;
}

std::optional<EventError> Session::on_quickplay_ruling(const Event& e) {
    const ProcedureRules& pr = procedure();
    if (!quickplay_pending_) return refuse(Code::no_quickplay_claim, "no quickplay-finish claim awaits a ruling");
    if (e.decision == QuickplayDecision::postpone && quickplay_postponed_)
        return refuse(Code::not_allowed_now, "the decision is already postponed");
    if (e.added_ms && (*e.added_ms < 0 || *e.added_ms > 86'400'000))
        return refuse(Code::bad_value, "added_ms must be between 0 and 86400000 (a day)");
    if (quickplay_postponed_ && e.decision == QuickplayDecision::reject)
        return refuse(Code::not_allowed_now,
                      "after postponing, the arbiter declares the result later: a draw, or play goes on to its end");
    const Color claimant = *quickplay_pending_;
    start_clock_if_needed(e.at_ms);
    if (e.decision == QuickplayDecision::draw) {
        finish(EndKind::quickplay_finish, "1/2-1/2", pr.quickplay,
               "The arbiter agrees that " + side_title(~claimant) +
                   " cannot win, or was making no effort to win, by normal means: the game is drawn.",
               e.at_ms);
        return std::nullopt;
    }
    Penalty p{claimant, e.added_ms ? *e.added_ms : 1000LL * pr.quickplay_penalty_s, 0, pr.quickplay};
    penalise(p, e.at_ms);
    if (e.decision == QuickplayDecision::postpone) {
        quickplay_postponed_ = true;
        note("The arbiter postpones the decision; " + side_title(~claimant) + " receives " + ms_text(p.added_ms) +
             " and the game continues (" + pr.quickplay + ").");
    } else {
        quickplay_pending_.reset();
        note("The arbiter rejects the claim; " + side_title(~claimant) + " receives " + ms_text(p.added_ms) + " (" +
             pr.quickplay + ").");
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

// ---------------------------------------------------------------------------------------------
// The arbiter's decisions and corrections

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

// ---------------------------------------------------------------------------------------------
// Summary

std::vector<ActionCheck> Session::actions() const {
    const std::int64_t at = last_at_;
    const Color mover = to_move();
    auto refusal = [&](Event e) -> std::optional<EventError> {
        e.at_ms = at;
        Session copy = *this;
        return copy.apply(e);
    };
    auto event = [](EventType type, std::optional<Color> side = std::nullopt) {
        Event e;
        e.type = type;
        e.side = side;
        return e;
    };
    std::vector<ActionCheck> out;
    out.reserve(action_names.size());
    for (const char* name : action_names) {
        const std::string_view n = name;
        std::optional<EventError> why;
        if (n == "move") {
            // Some legal move the session accepts (touch-move and a written move to be played
            // narrow them); else why the first is refused.
            const MoveList legal = legal_moves(record_.current());
            why = EventError{Code::illegal_move, "there is no legal move"};
            for (std::size_t i = 0; i < legal.size(); ++i) {
                Event e = event(EventType::move, mover);
                e.move = to_uci(record_.current(), legal[i]);
                auto err = refusal(e);
                if (!err) {
                    why.reset();
                    break;
                }
                const bool obligation = err->code == Code::move_obligation;
                if (i == 0) why = std::move(err);
                if (!obligation) break;  // refused whatever the move (game over, a ruling awaited, …)
            }
        } else if (n == "touch") {
            Event e = event(EventType::touch, mover);
            e.square = record_.current().king_square(mover);
            why = refusal(e);
        } else if (n == "claim_threefold" || n == "claim_fifty") {
            Event e = event(EventType::claim);
            e.claim = n == "claim_fifty" ? ClaimKind::fifty : ClaimKind::threefold;
            why = refusal(e);
        } else if (n == "flag") {
            why = refusal(event(EventType::flag, mover));
            if (why && !refusal(event(EventType::flag, ~mover))) why.reset();
        } else {
            // The others are one event each, by the side to move or by the side the session infers.
            struct Plain {
                std::string_view name;
                EventType type;
                bool by_mover;
            };
            static constexpr Plain plain[] = {
                {"offer", EventType::offer, false},
                {"accept", EventType::accept, false},
                {"decline", EventType::decline, false},
                {"claim_quickplay", EventType::quickplay_claim, false},
                {"resign", EventType::resign, true},
                {"pause", EventType::pause, false},
                {"resume", EventType::resume, false},
                {"illegal_move", EventType::illegal_move, false},
                {"illegal_position", EventType::illegal_position, false},
            };
            const auto* p =
                std::find_if(std::begin(plain), std::end(plain), [&](const Plain& x) { return x.name == n; });
            if (p != std::end(plain)) why = refusal(event(p->type, p->by_mover ? std::optional(mover) : std::nullopt));
        }
        out.push_back(ActionCheck{name, std::move(why)});
    }
    return out;
}

std::string Session::summary(bool texts) const {
    std::string s = encode(config_) + "\n";
    s += to_fen(record_.current()) + "\n";
    for (const auto& m : moves_) {
        s += m.san + "@" + std::to_string(m.made_at);
        if (m.clock_ms) s += "/" + std::to_string(*m.clock_ms);
        if (m.offer_by) s += std::string("(=)") + (*m.offer_by == Color::white ? "w" : "b");
        s += " ";
    }
    s += "\n";
    if (end_)
        s += std::string("end ") + end_kind_name(end_->kind) + " " + end_->result + " " + end_->article + " " +
             std::to_string(end_->ply) + " " + std::to_string(end_->at_ms) + (texts ? " " + end_->reason : "") + "\n";
    if (clock_) {
        for (Color c : {Color::white, Color::black}) {
            const auto fell = clock_->flag_fell_at(c, last_at_);
            s += "clock " + std::string(name(c)) + " " + std::to_string(clock_->remaining(c, last_at_)) + " fell " +
                 (fell ? std::to_string(*fell) : "-") + " moves " + std::to_string(clock_->moves_completed(c)) +
                 " period " + std::to_string(clock_->period_index(c)) + "\n";
        }
        s += std::string("running ") + (clock_->running() ? std::string(name(*clock_->running())) : "-") +
             (clock_->paused() ? " paused" : "") + "\n";
    }
    if (offer_)
        s += "offer " + std::string(name(offer_->by)) + " " + std::to_string(offer_->ply) +
             (offer_->irregular ? " irregular" : "") + (offer_->by_claim ? " claim" : "") + "\n";
    if (last_ruling_) {
        const auto& r = *last_ruling_;
        s += std::string("ruling ") + claim_kind_name(r.verdict.kind) + " " + std::string(name(r.verdict.claimant)) +
             " " + r.verdict.intended_san + " " + (r.verdict.correct ? "correct" : "incorrect") + " " +
             r.verdict.article + " " + (r.admissible ? "" : "inadmissible ") + std::to_string(r.at_ms) +
             (texts ? " " + r.verdict.reason : "");
        if (r.penalty)
            s += " penalty " + std::to_string(r.penalty->added_ms) + "/" + std::to_string(r.penalty->deducted_ms);
        s += "\n";
    }
    if (must_play_) {
        s += "must " + must_play_->written;
        for (Move m : must_play_->allowed) s += " " + std::to_string(m.raw());
        s += "\n";
    }
    s += "touched";
    for (Square t : touched_) s += " " + to_string(t);
    s += claim_right_lost_ ? " lost\n" : "\n";
    if (awaiting_press_) s += "awaiting " + std::string(name(*awaiting_press_)) + "\n";
    if (quickplay_pending_)
        s += "quickplay " + std::string(name(*quickplay_pending_)) + (quickplay_postponed_ ? " postponed" : "") + "\n";
    s += "illegal " + std::to_string(illegal_[0]) + " " + std::to_string(illegal_[1]) + "\n";
    if (texts)
        for (const auto& n : notes_) s += "note " + std::to_string(n.ply) + " " + n.text + "\n";
    s += "events " + std::to_string(events_) + " at " + std::to_string(last_at_) + "\n";
    return s;
}

std::uint64_t Session::digest() const {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (unsigned char c : summary(false)) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

}  // namespace arbiter
