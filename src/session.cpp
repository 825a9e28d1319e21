// session.cpp — the live game: the events in force, creation, dispatch of each event to its
// handler, the steps the handlers share, and the summary. The handlers themselves, by concept:
// session_play.cpp (moves, the clock, touches, offers), session_claims.cpp (draw claims and
// quickplay-finish claims), session_endings.cpp (resignation, flag fall, illegal moves, declared
// results) and session_arbiter.cpp (the arbiter's clock settings, forfeits, notes, corrections).
#include "arbiter/session.hpp"

#include <algorithm>

#include "arbiter/fen.hpp"
#include "arbiter/flag.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/touch_move.hpp"
#include "session_impl.hpp"

namespace arbiter {

namespace session_detail {

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

}  // namespace session_detail

using namespace session_detail;

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
