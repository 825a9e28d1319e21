// movegen_impl.hpp — the legal move generator, written once and instantiated for sinks that
// either list moves or only count them (perft's bulk counting). Private to the library.
#pragma once

#include "arbiter/attacks.hpp"
#include "arbiter/move.hpp"
#include "arbiter/position.hpp"

namespace arbiter::detail {

/// Lists moves.
struct ListSink {
    MoveList& out;
    void targets(Square from, Bitboard to) noexcept {
        for (Square t : to) out.push_back(Move::normal(from, t));
    }
    void pawn_moves(Bitboard to, int delta) noexcept {
        for (Square t : to) out.push_back(Move::normal(t - delta, t));
    }
    void promotions(Bitboard to, int delta) noexcept {
        for (Square t : to) promotion(t - delta, t);
    }
    void promotion(Square from, Square to) noexcept {
        out.push_back(Move::promotion(from, to, PieceType::queen));
        out.push_back(Move::promotion(from, to, PieceType::rook));
        out.push_back(Move::promotion(from, to, PieceType::bishop));
        out.push_back(Move::promotion(from, to, PieceType::knight));
    }
    void move(Move m) noexcept { out.push_back(m); }
    static constexpr bool stop_early = false;
    [[nodiscard]] bool done() const noexcept { return false; }
};

/// Counts moves with popcounts.
struct CountSink {
    std::uint64_t n = 0;
    void targets(Square, Bitboard to) noexcept { n += static_cast<unsigned>(to.count()); }
    void pawn_moves(Bitboard to, int) noexcept { n += static_cast<unsigned>(to.count()); }
    void promotions(Bitboard to, int) noexcept { n += 4u * static_cast<unsigned>(to.count()); }
    void promotion(Square, Square) noexcept { n += 4; }
    void move(Move) noexcept { ++n; }
    static constexpr bool stop_early = false;
    [[nodiscard]] bool done() const noexcept { return false; }
};

/// Stops at the first legal move.
struct AnySink : CountSink {
    static constexpr bool stop_early = true;
    [[nodiscard]] bool done() const noexcept { return n != 0; }
};

/// Keeps the first legal move, the one ListSink would list first, and stops there (the moves
/// offered before the generator next asks done() are ignored).
struct FirstSink {
    std::optional<Move> first;
    void targets(Square from, Bitboard to) noexcept {
        if (!first && to) first = Move::normal(from, to.first());
    }
    void pawn_moves(Bitboard to, int delta) noexcept {
        if (!first && to) first = Move::normal(to.first() - delta, to.first());
    }
    void promotions(Bitboard to, int delta) noexcept {
        if (!first && to) first = Move::promotion(to.first() - delta, to.first(), PieceType::queen);
    }
    void promotion(Square from, Square to) noexcept {
        if (!first) first = Move::promotion(from, to, PieceType::queen);
    }
    void move(Move m) noexcept {
        if (!first) first = m;
    }
    static constexpr bool stop_early = true;
    [[nodiscard]] bool done() const noexcept { return first.has_value(); }
};

struct PositionAccess;

/// What side `by` attacks with occupancy `occ`, right on the squares of `zone` only (elsewhere
/// some attacks may be missing): the sliders whose empty-board rays cannot reach the zone are
/// left out.
inline Bitboard attacks_near(const Position& pos, Color by, Bitboard occ, Bitboard zone) noexcept {
    const Bitboard pawns = pos.pieces(by, PieceType::pawn);
    const int up = by == Color::white ? 8 : -8;
    Bitboard out = king_attacks(pos.king_square(by)) | (pawns & ~Bitboard::file(0)).shifted(up - 1) |
                   (pawns & ~Bitboard::file(7)).shifted(up + 1);
    for (Square s : pos.pieces(by, PieceType::knight)) out |= knight_attacks(s);
    const Bitboard queens = pos.pieces(by, PieceType::queen);
    for (Square s : pos.pieces(by, PieceType::bishop) | queens)
        if (bishop_rays(s) & zone) out |= bishop_attacks(s, occ);
    for (Square s : pos.pieces(by, PieceType::rook) | queens)
        if (rook_rays(s) & zone) out |= rook_attacks(s, occ);
    return out;
}

// Castling (Chess960 rules cover the standard game), for a side not in check: every square the
// king and rook pass over or land on is empty but for the two of them; no square the king
// crosses or lands on is attacked once king and rook have left their squares.
template <Color Us, class Sink>
inline void generate_castling(const Position& pos, Sink& sink) noexcept {
    constexpr Color Them = ~Us;
    const Square ksq = pos.king_square(Us);
    const Bitboard occ = pos.occupied();
    for (Square rook : pos.castling_rooks(Us)) {
        const Square kto = Position::castle_king_to(Us, ksq, rook);
        const Square rto = Position::castle_rook_to(Us, ksq, rook);
        const Bitboard path = between(ksq, kto) | kto | between(rook, rto) | rto;
        if ((path & ~(ksq | rook)) & occ) continue;
        const Bitboard o = occ ^ ksq ^ rook;
        bool safe = true;
        for (Square s : between(ksq, kto) | kto) {
            if (pos.attacked_by(Them, s, o)) {
                safe = false;
                break;
            }
        }
        if (safe) sink.move(Move::castling(ksq, rook));
    }
}

template <Color Us, class Sink>
inline void generate(const Position& pos, Sink& sink) noexcept {
    constexpr Color Them = ~Us;
    constexpr int up = Us == Color::white ? 8 : -8;
    constexpr Bitboard rank3 = Bitboard::rank(Us == Color::white ? 2 : 5);
    constexpr Bitboard rank7 = Bitboard::rank(Us == Color::white ? 6 : 1);
    constexpr Bitboard not_a = ~Bitboard::file(0);
    constexpr Bitboard not_h = ~Bitboard::file(7);

    const Bitboard occ = pos.occupied();
    const Bitboard ours = pos.pieces(Us);
    const Bitboard theirs = pos.pieces(Them);
    const Square ksq = pos.king_square(Us);
    const Bitboard their_rq = theirs & (pos.pieces(PieceType::rook) | pos.pieces(PieceType::queen));
    const Bitboard their_bq = theirs & (pos.pieces(PieceType::bishop) | pos.pieces(PieceType::queen));

    const Bitboard checkers =
        ((pawn_attacks(Us, ksq) & pos.pieces(PieceType::pawn)) | (knight_attacks(ksq) & pos.pieces(PieceType::knight)) |
         (bishop_attacks(ksq, occ) & their_bq) | (rook_attacks(ksq, occ) & their_rq)) &
        theirs;

    // King moves: each target must be safe with the king lifted off its square. What the other
    // side attacks is worked out for the squares around the king at once (attacks_near: only
    // the sliders that could reach them at all), instead of five tests per square.
    {
        const Bitboard zone = king_attacks(ksq) & ~ours;
        const Bitboard safe = zone & ~attacks_near(pos, Them, occ ^ ksq, zone);
        sink.targets(ksq, safe);
        if constexpr (Sink::stop_early)
            if (sink.done()) return;
    }
    if (checkers.more_than_one()) return;

    const Bitboard target = checkers ? (between(ksq, checkers.first()) | checkers) : ~ours;

    // Pinned pieces: exactly one of our pieces between the king and an enemy slider.
    Bitboard pinned;
    {
        const Bitboard snipers =
            (rook_attacks(ksq, Bitboard()) & their_rq) | (bishop_attacks(ksq, Bitboard()) & their_bq);
        for (Square s : snipers) {
            const Bitboard b = between(ksq, s) & occ;
            if (!b.more_than_one() && (b & ours)) pinned |= b;
        }
    }

    const Bitboard knights = pos.pieces(Us, PieceType::knight) & ~pinned;
    for (Square s : knights) sink.targets(s, knight_attacks(s) & target);

    const Bitboard queens = pos.pieces(Us, PieceType::queen);
    const Bitboard diag = (pos.pieces(Us, PieceType::bishop) | queens);
    const Bitboard orth = (pos.pieces(Us, PieceType::rook) | queens);
    for (Square s : diag & ~pinned) sink.targets(s, bishop_attacks(s, occ) & target);
    for (Square s : orth & ~pinned) sink.targets(s, rook_attacks(s, occ) & target);
    if (pinned) {
        for (Square s : diag& pinned) sink.targets(s, bishop_attacks(s, occ) & target & line(ksq, s));
        for (Square s : orth& pinned) sink.targets(s, rook_attacks(s, occ) & target & line(ksq, s));
    }
    if constexpr (Sink::stop_early)
        if (sink.done()) return;

    // Pawns not pinned, in bulk.
    const Bitboard pawns = pos.pieces(Us, PieceType::pawn);
    const Bitboard empty = ~occ;
    {
        const Bitboard free = pawns & ~pinned;
        const Bitboard normal = free & ~rank7;
        const Bitboard promo = free & rank7;
        const Bitboard single = normal.shifted(up) & empty;
        const Bitboard dbl = (single & rank3).shifted(up) & empty & target;
        sink.pawn_moves(single & target, up);
        sink.pawn_moves(dbl, 2 * up);
        // Captures towards the a-file (left) and the h-file (right), from White's view.
        constexpr int left = up - 1;
        constexpr int right = up + 1;
        sink.pawn_moves((normal & not_a).shifted(left) & theirs & target, left);
        sink.pawn_moves((normal & not_h).shifted(right) & theirs & target, right);
        if (promo) {
            sink.promotions(promo.shifted(up) & empty & target, up);
            sink.promotions((promo & not_a).shifted(left) & theirs & target, left);
            sink.promotions((promo & not_h).shifted(right) & theirs & target, right);
        }
    }
    // Pinned pawns, one by one, along their pin line.
    for (Square s : pawns& pinned) {
        const Bitboard pin = line(ksq, s);
        Bitboard to = pawn_attacks(Us, s) & theirs & target & pin;
        const Square one = s + up;
        if (!occ.contains(one) && pin.contains(one)) {
            if (target.contains(one)) to |= one;
            if (rank3.contains(one) && !occ.contains(one + up) && target.contains(one + up)) to |= one + up;
        }
        if (rank7.contains(s)) {
            for (Square t : to) sink.promotion(s, t);
        } else {
            sink.targets(s, to);
        }
    }

    // En passant: rare, so tested exactly by removing both pawns.
    const Square ep = pos.ep_square();
    if (ep != Square::none) {
        const Square captured = ep - up;
        for (Square from : pawn_attacks(Them, ep) & pawns) {
            const Bitboard o = (occ ^ from ^ captured) | ep;
            const Bitboard attackers = ((pawn_attacks(Us, ksq) & pos.pieces(PieceType::pawn) & ~Bitboard(captured)) |
                                        (knight_attacks(ksq) & pos.pieces(PieceType::knight)) |
                                        (bishop_attacks(ksq, o) & their_bq) | (rook_attacks(ksq, o) & their_rq)) &
                                       theirs;
            if (!attackers) sink.move(Move::en_passant(from, ep));
        }
    }

    if (!checkers) generate_castling<Us>(pos, sink);
}

template <class Sink>
inline void generate(const Position& pos, Sink& sink) noexcept {
    if (pos.turn() == Color::white)
        generate<Color::white>(pos, sink);
    else
        generate<Color::black>(pos, sink);
}

}  // namespace arbiter::detail
