// claims.cpp — threefold and fifty-move claims with evidence, and the draw status.
#include "arbiter/claims.hpp"

#include "arbiter/fen.hpp"
#include "arbiter/message.hpp"
#include "arbiter/movegen.hpp"

namespace arbiter {

namespace {

std::string castling_text(const Position& p) {
    const std::string fen = to_fen(p);
    // The third field of the FEN.
    std::size_t a = fen.find(' ');
    a = fen.find(' ', a + 1);
    const std::size_t b = fen.find(' ', a + 1);
    return fen.substr(a + 1, b - a - 1);
}

CitedPosition cite(const GameRecord& rec, std::size_t i) {
    if (i == 0) return {i, rec.game_ply(i), rec.move_label(i), to_fen(rec.position(i)), {}, false, {}};
    return {i,
            rec.game_ply(i),
            rec.move_label(i),
            to_fen(rec.position(i)),
            rec.san(i),
            false,
            to_uci(rec.position(i - 1), rec.move(i))};
}

CitedPosition cite_intended(const GameRecord& rec, const Position& child, Move m) {
    const std::size_t n = rec.size() - 1;
    const std::string san = to_san(rec.current(), m);
    return {rec.size(), rec.game_ply(n) + 1,     "intended " + rec.move_number_prefix(n) + san, to_fen(child), san,
            true,       to_uci(rec.current(), m)};
}

// The verdict's reason: its message and its English text.
void say(ClaimVerdict& v, Message m) {
    v.reason = english_text(m);
    v.reason_message = std::move(m);
}

Message where(const CitedPosition& c) {
    constexpr std::string_view intended = "intended ";
    if (c.label == "start") return Message("place.start");
    if (c.label.starts_with(intended))
        return Message("place.after_intended").move("move", c.label.substr(intended.size()));
    return Message("place.after").move("move", c.label);
}

std::vector<Message> places(const std::vector<CitedPosition>& cs) {
    std::vector<Message> out;
    for (const auto& c : cs) out.push_back(where(c));
    return out;
}

Message times(std::size_t n) {
    switch (n) {
        case 1: return Message("times.once");
        case 2: return Message("times.twice");
        default: return Message("times.count").number("count", static_cast<std::int64_t>(n));
    }
}

Message plies_as_moves(std::uint32_t plies) {
    if (plies % 2 == 0) return Message("moves.each").number("count", plies / 2);
    return Message("moves.uneven").number("count", plies / 2 + 1).number("other", plies / 2);
}

// Earlier positions with the same placement and side to move that are not the same position.
std::vector<Lookalike> find_lookalikes(const GameRecord& rec, const Position& p) {
    std::vector<Lookalike> out;
    for (std::size_t j = 0; j < rec.size(); ++j) {
        const Position& q = rec.position(j);
        if (q.turn() != p.turn() || !q.same_placement(p) || q.same_position(p)) continue;
        Lookalike l;
        l.position = cite(rec, j);
        l.castling_rights_differ = q.castling_rooks() != p.castling_rooks();
        l.en_passant_differs = q.legal_ep_square() != p.legal_ep_square();
        std::vector<Message> why;
        if (l.castling_rights_differ)
            why.push_back(Message("why.castling").text("then", castling_text(q)).text("now", castling_text(p)));
        if (l.en_passant_differs) {
            const bool then = q.legal_ep_square() != Square::none;
            why.push_back(then ? Message("why.en_passant_then").text("square", to_string(q.legal_ep_square()))
                               : Message("why.en_passant_now").text("square", to_string(p.legal_ep_square())));
        }
        l.why_message =
            why.size() == 1 ? why.front() : Message("why.both").message("first", why[0]).message("second", why[1]);
        l.why = english_text(l.why_message);
        out.push_back(std::move(l));
    }
    return out;
}

ClaimVerdict threefold_verdict(const GameRecord& rec, ClaimVerdict v) {
    const std::size_t n = rec.size() - 1;
    const Articles& art = rec.rules().articles;
    const Position& now = rec.current();
    const std::uint32_t now_count = rec.occurrences(n);
    const Message side = side_message(now.turn());
    Message reason;

    if (!v.intended || now_count >= 3) {
        for (std::size_t i : rec.occurrence_indices(n)) v.occurrences.push_back(cite(rec, i));
        v.lookalikes = find_lookalikes(rec, now);
        v.article = art.threefold_now;
        v.correct = now_count >= 3;
        if (v.correct) {
            reason = Message(v.intended ? "claim.threefold.already" : "claim.threefold.now")
                         .message("side", side)
                         .message("times", times(now_count))
                         .list("places", places(v.occurrences));
        } else if (now_count <= 1) {
            reason = Message("claim.threefold.not_before").message("side", side);
        } else {
            reason = Message("claim.threefold.only")
                         .message("side", side)
                         .message("times", times(now_count))
                         .list("places", places(v.occurrences));
        }
    } else {
        const Move m = *v.intended;
        const Position child = now.after(m);
        const std::uint32_t window = now.is_zeroing(m) ? 0 : rec.no_progress(n) + 1;
        const std::int32_t previous = rec.previous_occurrence_of(child, window);
        const std::uint32_t count = previous < 0 ? 1 : rec.occurrences(static_cast<std::size_t>(previous)) + 1;
        if (previous >= 0)
            for (std::size_t i : rec.occurrence_indices(static_cast<std::size_t>(previous)))
                v.occurrences.push_back(cite(rec, i));
        v.occurrences.push_back(cite_intended(rec, child, m));
        v.lookalikes = find_lookalikes(rec, child);
        v.article = art.threefold_intended;
        v.correct = count >= 3;
        if (v.correct) {
            reason = count == 3 ? Message("claim.threefold.intended.third")
                                : Message("claim.threefold.intended.count").number("count", count);
            reason.move("move", v.intended_san).list("places", places(v.occurrences));
        } else if (count == 1) {
            reason = Message("claim.threefold.intended.not_before").move("move", v.intended_san);
        } else {
            reason = Message("claim.threefold.intended.only")
                         .move("move", v.intended_san)
                         .message("times", times(count))
                         .list("places", places(v.occurrences));
        }
    }
    if (!v.correct && !v.lookalikes.empty()) {
        const auto& l = v.lookalikes.front();
        say(v, Message("claim.threefold.lookalike")
                   .message("reason", std::move(reason))
                   .message("place", where(l.position))
                   .message("why", l.why_message));
    } else {
        say(v, Message("claim.threefold.sentence").message("reason", std::move(reason)));
    }
    return v;
}

ClaimVerdict fifty_verdict(const GameRecord& rec, ClaimVerdict v) {
    const std::size_t n = rec.size() - 1;
    const Articles& art = rec.rules().articles;
    const Position& now = rec.current();
    const std::uint32_t np = rec.no_progress(n);
    const std::uint32_t limit = rec.fifty_limit_plies(now);
    v.required_plies = limit;
    v.no_progress_plies = np;
    if (np <= n) {
        v.count_started = cite(rec, n - np);
    }
    const Message since = !v.count_started ? Message("since.before_setup")
                          : v.count_started->label == "start"
                              ? Message("since.start")
                              : Message("since.move").move("move", v.count_started->label);
    const int tb = rec.rules().fifty_rule_max_tablebase_pieces;
    if (tb > 0 && now.occupied().count() <= tb) {
        v.article = art.fifty_now;
        v.correct = false;
        say(v, Message("claim.fifty.tablebase").number("count", tb).text("rules", std::string(rec.rules().name)));
        return v;
    }
    const Message needed = Message("moves.each").number("count", limit / 2);
    if (np >= limit) {
        v.article = art.fifty_now;
        v.correct = true;
        say(v, Message("claim.fifty.enough")
                   .message("moves", plies_as_moves(np))
                   .message("since", since)
                   .message("needed", needed));
        return v;
    }
    if (!v.intended) {
        v.article = art.fifty_now;
        v.correct = false;
        say(v, Message("claim.fifty.not_enough")
                   .message("moves", plies_as_moves(np))
                   .message("since", since)
                   .message("needed", needed));
        return v;
    }
    const Move m = *v.intended;
    v.article = art.fifty_intended;
    if (now.is_zeroing(m)) {
        v.correct = false;
        v.no_progress_plies = 0;
        say(v, Message(now.is_capture(m) ? "claim.fifty.intended.capture" : "claim.fifty.intended.pawn")
                   .move("move", v.intended_san));
        return v;
    }
    v.no_progress_plies = np + 1;
    if (np + 1 < limit) {
        v.correct = false;
        say(v, Message("claim.fifty.intended.not_enough")
                   .move("move", v.intended_san)
                   .message("moves", plies_as_moves(np + 1))
                   .message("since", since)
                   .message("needed", needed));
        return v;
    }
    if (rec.options().intended_mate_incorrect && is_checkmate(now.after(m))) {
        v.correct = false;
        say(v, Message("claim.fifty.intended.mates").move("move", v.intended_san));
        return v;
    }
    v.correct = true;
    say(v, Message("claim.fifty.intended.completes")
               .move("move", v.intended_san)
               .message("needed", needed)
               .message("since", since));
    return v;
}

}  // namespace

namespace {

// The verdict on a claim whose written move cannot be played: incorrect, under the intended-move
// article, with the evidence as it stands now (the count so far, the occurrences so far), not
// the evidence of an empty claim.
ClaimVerdict unplayable_intended(const GameRecord& rec, ClaimKind kind) {
    ClaimVerdict v = evaluate_claim(rec, kind, std::optional<Move>{});
    v.correct = false;
    v.article =
        kind == ClaimKind::threefold ? rec.rules().articles.threefold_intended : rec.rules().articles.fifty_intended;
    return v;
}

}  // namespace

ClaimVerdict evaluate_claim(const GameRecord& rec, ClaimKind kind, std::optional<Move> intended) {
    ClaimVerdict v;
    v.kind = kind;
    v.claimant = rec.current().turn();
    v.intended = intended;
    if (intended) {
        if (!rec.legal_moves_now().contains(*intended)) {
            v = unplayable_intended(rec, kind);
            v.intended = intended;
            v.intended_san = to_uci(rec.current(), *intended);
            say(v, Message("claim.intended.not_legal").move("move", v.intended_san));
            return v;
        }
        v.intended_san = to_san(rec.current(), *intended);
    }
    if (const auto& t = rec.termination()) {
        v.article = t->article;
        say(v, Message("claim.game_over")
                   .message("termination", termination_message(t->kind))
                   .message("place", where(cite(rec, t->index))));
        return v;
    }
    return kind == ClaimKind::threefold ? threefold_verdict(rec, std::move(v)) : fifty_verdict(rec, std::move(v));
}

ClaimVerdict evaluate_claim(const GameRecord& rec, ClaimKind kind, std::string_view intended) {
    const auto m = parse_move(rec.current(), intended);
    if (m) return evaluate_claim(rec, kind, *m);
    // Written but not playable (illegal, ambiguous, or not a move at all): the claim is incorrect.
    ClaimVerdict v = unplayable_intended(rec, kind);
    v.intended = Move::null();
    v.intended_san = std::string(intended);
    say(v, Message(std::string("claim.intended.") + kind_name(m.error().kind)).move("move", v.intended_san));
    return v;
}

// Could the side to move at the last position claim threefold with some intended move? Only if
// a legal move leads to a position that has stood twice already: one of the positions two,
// four, … plies back in the window (the other side to move) with two occurrences, reached by a
// move that captures nothing and moves no pawn. Such a move changes exactly two squares: from is
// emptied, to is filled by the same piece. (Castling is never it: it gives up castling rights,
// and every earlier position had at least the rights standing now.) A cheap filter in front of
// the loop over every legal move below; it never says no where one exists, and it runs before the
// ended() test, which may have to look for a legal move.
bool quiet_move_to_twice_seen(const GameRecord& rec) {
    if (!rec.twice_seen_in_reach()) return false;
    const std::size_t n = rec.size() - 1;
    const Position& now = rec.current();
    // The candidates stand 4, 6, … plies back within the window: j in [n + 1 - reach, n - 3]
    // with n + 1 - j even. The record chains the twice-seen positions: the latest in reach, then
    // each one before it, and none at all on most plies.
    const std::size_t reach = std::min<std::size_t>(rec.no_progress(n) + 1, n + 1);
    for (std::int32_t t = rec.latest_twice_seen(n - 3); t >= 0 && static_cast<std::size_t>(t) + reach >= n + 1;
         t = t > 0 ? rec.latest_twice_seen(static_cast<std::size_t>(t) - 1) : -1) {
        const std::size_t j = static_cast<std::size_t>(t);
        if ((n + 1 - j) % 2 != 0) continue;
        const Position& then = rec.position(j);
        const Bitboard changed = now.occupied() ^ then.occupied();
        if (changed.count() != 2) continue;
        const Square from = (changed & now.occupied()).first(), to = (changed & then.occupied()).first();
        if (color_of(now.piece_at(from)) != now.turn() || now.piece_at(from) != then.piece_at(to)) continue;
        const Move m = Move::normal(from, to);
        if (now.is_legal(m) && now.after(m).same_position(then)) return true;
    }
    return false;
}

ClaimOptions threefold_options(const GameRecord& rec) {
    ClaimOptions o;
    const std::size_t n = rec.size() - 1;
    const bool now_three = rec.occurrences(n) >= 3;
    if (!now_three && !quiet_move_to_twice_seen(rec)) return o;  // no claim, ended or not
    if (rec.ended()) return o;
    const Position& now = rec.current();
    o.now = now_three;
    for (Move m : rec.legal_moves_now()) {
        if (o.now) {
            o.intended.push_back(m);
            continue;
        }
        if (now.is_zeroing(m)) continue;  // nothing before a pawn move or capture can repeat
        if (rec.count_in_history(now.after(m), rec.no_progress(n) + 1) + 1 >= 3) o.intended.push_back(m);
    }
    return o;
}

ClaimOptions fifty_options(const GameRecord& rec) {
    ClaimOptions o;
    if (rec.ended()) return o;
    const Position& now = rec.current();
    const int tb = rec.rules().fifty_rule_max_tablebase_pieces;
    if (tb > 0 && now.occupied().count() <= tb) return o;
    const std::uint32_t np = rec.no_progress(rec.size() - 1);
    const std::uint32_t limit = rec.fifty_limit_plies(now);
    o.now = np >= limit;
    if (!o.now && np + 1 < limit) return o;
    for (Move m : rec.legal_moves_now()) {
        if (!o.now) {
            if (now.is_zeroing(m)) continue;
            if (rec.options().intended_mate_incorrect && is_checkmate(now.after(m))) continue;
        }
        o.intended.push_back(m);
    }
    return o;
}

DrawStatus draw_status(const GameRecord& rec) {
    DrawStatus s;
    const std::size_t n = rec.size() - 1;
    const Position& pos = rec.current();
    s.fen = to_fen(pos);
    s.side_to_move = pos.turn();
    s.ply = rec.game_ply(n);
    s.no_progress_plies = rec.no_progress(n);
    s.repetition_count = rec.occurrences(n);
    for (std::size_t i : rec.occurrence_indices(n)) s.repetition_plies.push_back(rec.game_ply(i));
    s.termination = rec.termination();
    s.director_may_declare = rec.director_may_declare(n);
    s.threefold = threefold_options(rec);
    s.fifty = fifty_options(rec);
    // The automatic check's own answers (GameRecord::mate_ability), so that `can_checkmate` and
    // the dead-position ending come from one decision.
    s.white_can_checkmate = rec.mate_ability(n, Color::white);
    s.black_can_checkmate = rec.mate_ability(n, Color::black);
    return s;
}

}  // namespace arbiter
