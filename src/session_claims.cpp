// session_claims.cpp — the session's handlers for claims: a draw claimed by threefold repetition
// or the 50-move rule (9.2, 9.3, 9.5; US Chess 9G/14C) and the quickplay-finish claim and ruling.
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

// What a draw claim rests on: who claims, the record it is judged on and the written move.
struct Session::ClaimBasis {
    bool after_move = false;  ///< US Chess 9G1: made after the move, before the clock press
    Color claimant = Color::white;
    std::optional<GameRecord> before;  ///< after_move: the record with the move taken back
    std::optional<Move> intended;
    std::string written;  ///< the written move as given (or the move already made)
    std::optional<MoveError> written_error;

    [[nodiscard]] const GameRecord& judged(const GameRecord& record) const { return before ? *before : record; }
};

namespace {

// The claim refused before it is judged: the right to claim on this move was lost (9.4).
ClaimVerdict lost_right_verdict(ClaimKind kind, Color claimant, std::optional<Move> intended,
                                const std::string& written, const Position& judged, const std::vector<Square>& touched,
                                const char* article) {
    ClaimVerdict v;
    v.kind = kind;
    v.claimant = claimant;
    v.intended = intended;
    v.intended_san = intended ? to_san(judged, *intended) : written;
    v.article = article;
    Message why = touched.empty() ? Message("claim.lost_right.a_piece")
                                  : Message("claim.lost_right.piece")
                                        .message("piece", piece_message(type_of(judged.piece_at(touched.front()))))
                                        .text("square", to_string(touched.front()));
    why.message("side", side_message(claimant)).article("article", article);
    v.reason = english_text(why);
    v.reason_message = std::move(why);
    return v;
}

// The claim judged incorrect without looking further: its written move is illegal or ambiguous.
ClaimVerdict written_error_verdict(ClaimKind kind, Color claimant, const std::string& written, const MoveError& error,
                                   const char* article) {
    ClaimVerdict v;
    v.kind = kind;
    v.claimant = claimant;
    v.intended = Move::null();
    v.intended_san = written;
    v.article = article;
    v.reason_message = Message(std::string("claim.written.") + kind_name(error.kind)).move("move", written);
    v.reason = english_text(v.reason_message);
    return v;
}

}  // namespace

// Whether a claim is in order now, and what it rests on; the refusal otherwise.
Expected<Session::ClaimBasis, EventError> Session::claim_basis(const Event& e) const {
    const RuleSet& rs = rules();
    const DrawEffect effect =
        e.claim == ClaimKind::threefold ? threefold_effect(rs, config_.options) : fifty_effect(rs, config_.options);
    if (effect == DrawEffect::none)
        return Unexpected(refuse(Code::no_such_rule, rs.name + std::string(" has no such claim")));
    if (!e.move.empty() && !rs.intended_move_claims)
        return Unexpected(refuse(Code::no_such_rule, std::string(rs.name) + " has no claims with a written move"));
    if (quickplay_pending_ && !quickplay_postponed_)
        return Unexpected(
            refuse(Code::quickplay_pending,
                   "a quickplay-finish claim by " + side_title(*quickplay_pending_) + " awaits the arbiter's ruling"));

    // US Chess 9G1/14C4: the claim stays in order after the move is made, until the clock is
    // pressed; it then rests on the move just made.
    ClaimBasis b;
    b.after_move = rs.claim_right_ends == ClaimRightEnds::pressing_the_clock && awaiting_press_ &&
                   (!e.side || *e.side == *awaiting_press_);
    b.claimant = to_move();
    if (b.after_move) {
        b.claimant = *awaiting_press_;
    } else {
        if (e.side && *e.side != b.claimant)
            return Unexpected(refuse(Code::out_of_turn, "out of turn: only the player having the move, " +
                                                            side_title(b.claimant) + ", may claim"));
        if (awaiting_press_ && rs.claim_right_ends == ClaimRightEnds::pressing_the_clock)
            return Unexpected(
                refuse(Code::clock_not_pressed, side_title(*awaiting_press_) + " has not yet pressed the clock, so " +
                                                    side_title(b.claimant) + " is not yet on move (9G1)"));
    }

    // The record the claim is judged on, and the written move.
    if (b.after_move) {
        b.before.emplace(record_);
        b.before->pop();
    }
    const GameRecord& judged = b.judged(record_);
    b.written = e.move;
    if (b.after_move) {
        b.intended = record_.move(record_.size() - 1);
        if (!e.move.empty()) {
            auto m = parse_move(judged.current(), e.move);
            if (!m || *m != *b.intended)
                return Unexpected(refuse(Code::written_move_fixed,
                                         "the move " + moves_.back().san +
                                             " is already made; a claim before pressing the clock rests on it (9G1)"));
        }
        b.written = moves_.back().san;
    } else if (!e.move.empty()) {
        auto m = parse_move(judged.current(), e.move);
        if (!m && m.error().kind == MoveError::Kind::syntax)
            return Unexpected(
                refuse(Code::not_a_move, "the written move '" + e.move + "' is not a move: " + m.error().message));
        if (m)
            b.intended = *m;
        else
            b.written_error = m.error();
    }
    if (must_play_ && !e.move.empty() &&
        (!b.intended || to_san(judged.current(), *b.intended) != must_play_->written) && e.move != must_play_->written)
        return Unexpected(
            refuse(Code::written_move_fixed, "the written move " + must_play_->written + " cannot be changed"));
    return b;
}

// An admissible claim found incorrect: the penalty (9.5.3), the written move that must now be
// played (9.4), the claim standing as a draw offer (9.1.2.3); the words for the scoresheet.
std::string Session::rule_incorrect_claim(const Event& e, const ClaimBasis& b, ClaimRuling& ruling) {
    const RuleSet& rs = rules();
    const ProcedureRules& pr = procedure();
    const Color claimant = b.claimant;
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
    if (!b.after_move && !e.move.empty()) {
        const GameRecord& judged = b.judged(record_);
        MustPlay mp;
        mp.written = b.intended ? to_san(judged.current(), *b.intended) : b.written;
        mp.legal = b.intended.has_value();
        if (b.intended) {
            mp.allowed = {*b.intended};
        } else {
            mp.allowed = moves_of_written_piece(judged.current(), judged.legal_moves_now(), b.written);
        }
        must_play_ = mp;
    }
    // 9.1.2.3: the claim is also a draw offer (not where the event forbids offers yet).
    if (!offer_ && !check_offers_allowed(claimant, false)) offer_ = Offer{claimant, record_.size() - 1, false, true};
    std::string text;
    if (p.added_ms > 0) text += " " + side_title(~claimant) + " receives " + ms_text(p.added_ms);
    if (p.deducted_ms > 0) text += " and " + side_title(claimant) + " loses " + ms_text(p.deducted_ms);
    if (p.added_ms > 0 || p.deducted_ms > 0) text += std::string(" (") + p.article + ").";
    if (must_play_) text += " The written move must now be played.";
    return text;
}

std::optional<EventError> Session::on_claim(const Event& e) {
    auto basis = claim_basis(e);
    if (!basis) return basis.error();
    const ClaimBasis& b = *basis;
    const GameRecord& judged = b.judged(record_);

    start_clock_if_needed(e.at_ms);
    if (clock_ && !clock_->paused()) clock_->pause(e.at_ms);  // 9.5.1

    ClaimRuling ruling;
    ruling.at_ms = e.at_ms;
    ruling.ply = record_.size() - 1;
    ClaimVerdict& v = ruling.verdict;
    const Articles& art = rules().articles;
    const char* kind_article = e.claim == ClaimKind::threefold
                                   ? (b.written.empty() ? art.threefold_now : art.threefold_intended)
                                   : (b.written.empty() ? art.fifty_now : art.fifty_intended);
    const char* lost_article = procedure().claim_right_lost;
    if (claim_right_lost_ && lost_article && !b.after_move) {
        ruling.admissible = false;
        v = lost_right_verdict(e.claim, b.claimant, b.intended, b.written, judged.current(), touched_, lost_article);
    } else if (b.written_error) {
        v = written_error_verdict(e.claim, b.claimant, b.written, *b.written_error, kind_article);
    } else {
        v = evaluate_claim(judged, e.claim, b.intended);
    }

    std::string text = side_title(b.claimant) + " claims a draw by " +
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
    if (ruling.admissible)
        text += "incorrect. " + v.reason + rule_incorrect_claim(e, b, ruling);
    else
        text += "not admissible. " + v.reason;
    last_ruling_ = ruling;
    note(text);
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

}  // namespace arbiter
