// guided.cpp — the guided search (search_helpmate) looks for a mate, and only for a mate: a
// depth-first search over both sides' moves (the loser cooperates) where each move is ranked by
// how much it brings the position closer to a mating pattern. The best move of a position is
// free; lower ranked moves spend a "discrepancy" budget, which grows by one per iteration
// (limited discrepancy search). Iteration 0 is a single greedy line; later ones deviate from it
// in more and more places. A transposition table cuts positions already searched with as much
// budget.
#include <algorithm>
#include <array>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "impl.hpp"

namespace arbiter::detail {
namespace {

/// Attacks of the winner on a set of squares (occupancy `occ`).
Bitboard attacked_squares(const Position& pos, Color by, Bitboard squares, Bitboard occ) noexcept {
    Bitboard out;
    for (Square s : squares)
        if (pos.attacked_by(by, s, occ)) out |= s;
    return out;
}

/// Every square a side attacks (occupancy `occ`): the union of what attacked_by tests square by
/// square, computed once for many squares.
Bitboard attack_map(const Position& pos, Color by, Bitboard occ) noexcept {
    Bitboard out;
    for (Square s : pos.pieces(by)) {
        const PieceType t = type_of(pos.piece_at(s));
        out |= t == PieceType::pawn ? pawn_attacks(by, s) : attacks(t, s, occ);
    }
    return out;
}

class Guided : public DiscrepancySearch<Guided> {
public:
    Guided(const Position& root, Color winner, std::uint64_t node_limit, int variant)
        : DiscrepancySearch(winner, node_limit), variant_(variant & 3), eager_(variant >= 4) {
        plan(root);
    }
    /// What the variant changes about the plan: equal for two variants that search alike.
    [[nodiscard]] std::uint64_t plan_key() const noexcept {
        std::uint64_t h = corners_.bits ^ (clear_.bits * 0x9E3779B97F4A7C15ULL);
        h = h * 31 + static_cast<std::uint64_t>(index(anchor_) + 1);
        return h * 8 + (anchored_ ? 4u : 0u) + (blockers_needed_ ? 2u : 0u) + (eager_ ? 1u : 0u);
    }

private:
    friend class DiscrepancySearch<Guided>;
    void plan(const Position& root);
    std::size_t rank_moves(const Position& pos, const MoveList& moves, Ranked* out) const noexcept;
    /// What the ranking of one node works out once for all its moves.
    struct NodeMaps {
        Bitboard zone;     // the loser's king and the squares around it
        Bitboard open;     // those around it that are neither the loser's own nor attacked
        Bitboard threats;  // what the winner attacks with the loser's king off the board
        Bitboard guarded;  // what the loser attacks (with the occupancy as it is)
    };
    int score(const Position& pos, Move m, const NodeMaps& maps, Bitboard before) const noexcept;
    [[nodiscard]] int open_flights(const Position& pos, Square k, Bitboard occ) const noexcept;
    /// pos.attacked_by(loser_, to, occ2) after a move from `from` to `to`, from the loser's
    /// attacks as they are: the move can only open a line through `from`.
    [[nodiscard]] bool loser_attacks(const Position& pos, const NodeMaps& maps, Square from, Square to,
                                     Bitboard occ2) const noexcept {
        if (maps.guarded.contains(to)) return true;
        if (!queen_attacks(from, Bitboard()).contains(to)) return false;
        const Bitboard queens = pos.pieces(loser_, PieceType::queen);
        return bool(bishop_attacks(to, occ2) & (pos.pieces(loser_, PieceType::bishop) | queens)) ||
               bool(rook_attacks(to, occ2) & (pos.pieces(loser_, PieceType::rook) | queens));
    }

    int variant_;
    bool eager_;                    // the winner's king heads for the pawns to clear before anything else
    Bitboard corners_;              // where the loser's king is led
    bool anchored_ = false;         // the winner has no queen, rook or free pawn: mate in a corner
    bool blockers_needed_ = false;  // ... and its pieces cannot mate without the loser's help
    Square anchor_ = Square::none;  // when anchored: the corner of the mate
    std::array<std::uint8_t, 64> loser_king_walk_{};   // king-walk distance to the mating corner(s)
    std::array<std::uint8_t, 64> winner_king_walk_{};  // when anchored: to the corner
    Bitboard clear_;                                   // the loser's pawns to take first
    std::array<std::uint8_t, 64> clear_walk_{};        // king-walk distance to them
};

void Guided::plan(const Position& root) {
    const Bitboard ours = root.pieces(winner_) & ~root.pieces(PieceType::king);
    const Bitboard heavy = root.pieces(PieceType::queen) | root.pieces(PieceType::rook);
    // Odd variants count a pawn with an enemy pawn right in front of it as no mating material
    // (it may stay blocked for ever); even ones count it (its blocker may be taken).
    const Bitboard our_pawns = root.pieces(winner_, PieceType::pawn);
    const Bitboard free_pawns =
        variant_ % 2 ? our_pawns & ~root.pieces(loser_, PieceType::pawn).shifted(winner_ == Color::white ? -8 : 8)
                     : our_pawns;
    const Bitboard minors = ours & (root.pieces(PieceType::knight) | root.pieces(PieceType::bishop));
    const Bitboard bishops = root.pieces(winner_, PieceType::bishop);
    const bool one_colour =
        (bishops & Bitboard::light_squares()) == bishops || (bishops & Bitboard::dark_squares()) == bishops;
    anchored_ = !(ours & heavy) && !free_pawns;
    blockers_needed_ = anchored_ && (!minors.more_than_one() || (minors == bishops && one_colour));
    // Single-coloured bishops mate only in a corner of their colour.
    corners_ = Bitboard(Square::a1) | Square::h1 | Square::a8 | Square::h8;
    if (bishops && !(minors & ~bishops) && !(ours & heavy)) {
        if ((bishops & Bitboard::light_squares()) == bishops)
            corners_ &= Bitboard::light_squares();
        else if ((bishops & Bitboard::dark_squares()) == bishops)
            corners_ &= Bitboard::dark_squares();
    }
    const Square lk = root.king_square(loser_);
    // Without enough material of its own, the winner mates in one chosen corner, and every
    // unit heads there; otherwise the winner's units head for the loser's king wherever it is.
    // Corners are ranked by how far the loser's king and its would-be blockers are (a pawn only
    // gets near a corner on its promotion side), avoiding the winner's own king; variants 0-1
    // take the first, 2-3 the second, and so on.
    if (anchored_) {
        std::array<std::pair<int, Square>, 4> ranked{};
        int n = 0;
        for (Square c : corners_) {
            int cost = 2 * chebyshev(c, lk) + (chebyshev(c, root.king_square(winner_)) <= 1 ? 8 : 0);
            for (Square u : root.pieces(loser_) & ~root.pieces(PieceType::king)) {
                const bool pawn = type_of(root.piece_at(u)) == PieceType::pawn;
                const bool reachable = !pawn || relative_rank(loser_, rank_of(c)) == 7;
                cost += reachable ? std::min(chebyshev(u, c), 4) : 4;
            }
            ranked[n++] = {cost, c};
        }
        for (int i = 1; i < n; ++i)  // (insertion sort: std::sort trips a GCC 12 bounds warning here)
            for (int j = i; j > 0 && ranked[j] < ranked[j - 1]; --j) std::swap(ranked[j], ranked[j - 1]);
        anchor_ = ranked[static_cast<std::size_t>(variant_ / 2 % n)].second;
        corners_ = Bitboard(anchor_);
        winner_king_walk_ = king_walk(root, winner_, Bitboard(anchor_));
    }
    loser_king_walk_ = king_walk(root, loser_, corners_);
    // Variants 2 and 3 send the winner's king first after the pawns that block its own.
    clear_ = variant_ >= 2 ? pawns_to_clear(root, winner_) : Bitboard();
    if (clear_) clear_walk_ = king_walk(root, winner_, clear_);
}

// Squares next to k that the loser's king could flee to: not its own units, not attacked.
int Guided::open_flights(const Position& pos, Square k, Bitboard occ) const noexcept {
    const Bitboard around = king_attacks(k) & ~pos.pieces(loser_);
    return around.count() - attacked_squares(pos, winner_, around, occ ^ Bitboard(k)).count();
}

// How much a move helps towards a mate (lower is better). `zone` is the loser's king and the
// squares around it; `open` those around it that are neither the loser's own nor attacked;
// `threats` the squares the winner attacks with the loser's king off the board.
[[gnu::always_inline]] inline int Guided::score(const Position& pos, Move m, const NodeMaps& maps,
                                                Bitboard before) const noexcept {
    Bitboard zone = maps.zone;
    const Bitboard open = maps.open, threats = maps.threats;
    const Square from = m.from(), to = m.to();
    const PieceType pt = type_of(pos.piece_at(from));
    // Where the mate is to happen: around the loser's king, or in the chosen corner.
    const Square lk = anchored_ ? anchor_ : pos.king_square(loser_);
    if (anchored_) zone = king_attacks(lk) | lk;
    const Bitboard occ = pos.occupied();
    const bool capture = pos.is_capture(m);
    int s = 0;
    if (pos.turn() == winner_) {
        if (m.is_castling()) return 6;
        const PieceType now = m.is_promotion() ? m.promoted() : pt;
        const Bitboard occ2 = (occ ^ Bitboard(from)) | to;
        auto hits = [&](PieceType t, Square sq, Bitboard o) {
            return t == PieceType::pawn ? pawn_attacks(winner_, sq) : attacks(t, sq, o);
        };
        const Bitboard after = hits(now, to, occ2);
        // Pressure on the king's square and its flight squares.
        s -= 3 * ((after & open).count() - (before & open).count());
        s -= 2 * ((after & zone).count() - (before & zone).count());
        // A piece left where the loser can take it is likely lost. (No bonus for a check as
        // such: while the king has flight squares it simply steps away.)
        const bool hanging =
            now != PieceType::pawn && now != PieceType::king && loser_attacks(pos, maps, from, to, occ2);
        if (hanging) s += 5;
        if (pt == PieceType::king && clear_) {
            // First take the pawns that keep the winner's pawns from promoting; in the eager
            // variants, while some are left, each step towards them outweighs the king's
            // pressure on the loser's king.
            const int weight = eager_ && (clear_ & pos.pieces(loser_, PieceType::pawn)) ? 6 : 3;
            s += weight * (clear_walk_[index(to)] - clear_walk_[index(from)]);
        } else if (pt == PieceType::king) {
            const int d0 = anchored_ ? winner_king_walk_[index(from)] : chebyshev(from, lk);
            const int d1 = anchored_ ? winner_king_walk_[index(to)] : chebyshev(to, lk);
            s += 3 * (std::max(2, d1) - std::max(2, d0));
        } else if (pt == PieceType::knight && !m.is_promotion()) {
            s += knight_moves(to, lk) - knight_moves(from, lk);
        } else if (pt != PieceType::pawn) {
            s += chebyshev(to, lk) - chebyshev(from, lk);
        }
        if (m.is_promotion()) {
            s -= now == PieceType::queen ? 12 : now == PieceType::knight ? 6 : 2;
        } else if (pt == PieceType::pawn) {
            s -= 1 + relative_rank(winner_, rank_of(to)) / 2;
        }
        if (capture) s -= 2;
        return s;
    }
    // The loser.
    if (capture) {
        const Square victim = m.is_en_passant() ? to - (loser_ == Color::white ? 8 : -8) : to;
        return 30 + (type_of(pos.piece_at(victim)) == PieceType::pawn ? 0 : 10);
    }
    if (pt == PieceType::king) {
        const Square kto = m.is_castling() ? Position::castle_king_to(loser_, from, to) : to;
        Bitboard occ2 = (occ ^ Bitboard(from)) | kto;
        if (m.is_castling()) occ2 = (occ2 ^ Bitboard(to)) | Position::castle_rook_to(loser_, from, to);
        s += 3 * (loser_king_walk_[index(kto)] - loser_king_walk_[index(from)]);
        // (A plain king move leaves the occupancy the winner attacks through as in `threats`.)
        const int flights = m.is_castling() ? open_flights(pos, kto, occ2)
                                            : (king_attacks(kto) & ~pos.pieces(loser_) & ~threats).count();
        s += 2 * (flights - open.count());
        return s;
    }
    if (m.is_promotion()) {
        const PieceType p = m.promoted();
        return blockers_needed_ ? (p == PieceType::queen ? 4 : -8) : (p == PieceType::queen ? 2 : 4);
    }
    // A unit next to its own king closes a flight square; one leaving it reopens it. With
    // blockers needed, units head for the squares around the chosen corner.
    const int near_before = zone.contains(from) ? 1 : 0, near_after = zone.contains(to) ? 1 : 0;
    s -= (blockers_needed_ ? 5 : 3) * (near_after - near_before);
    if (anchored_ && !near_after) {
        s += pt == PieceType::knight ? knight_moves(to, lk) - knight_moves(from, lk)
                                     : chebyshev(to, lk) - chebyshev(from, lk);
    }
    if (pt == PieceType::pawn && blockers_needed_ && !near_before) s -= 2;
    return s;
}

// The ranking at a node: the loser's king's zone, its open flight squares and the squares the
// winner attacks are worked out once for all the moves.
std::size_t Guided::rank_moves(const Position& pos, const MoveList& moves, Ranked* out) const noexcept {
    const Square lk = pos.king_square(loser_);
    const Bitboard zone = king_attacks(lk) | lk;
    const Bitboard around = king_attacks(lk) & ~pos.pieces(loser_);
    const Bitboard threats = attack_map(pos, winner_, pos.occupied() ^ Bitboard(lk));
    const bool winner_moves = pos.turn() == winner_;
    const NodeMaps maps{zone, around & ~threats, threats,
                        winner_moves ? attack_map(pos, loser_, pos.occupied()) : Bitboard()};
    // What the moving piece attacks before its move, once per piece (the moves of a piece come
    // together).
    Square from = Square::none;
    Bitboard before;
    std::size_t n = 0;
    for (Move m : moves) {
        if (winner_moves && m.from() != from) {
            from = m.from();
            const PieceType pt = type_of(pos.piece_at(from));
            before = pt == PieceType::pawn ? pawn_attacks(winner_, from) : attacks(pt, from, pos.occupied());
        }
        out[n++] = Ranked{m, score(pos, m, maps, before)};
    }
    return n;
}

}  // namespace

SearchOutcome search_helpmate(const Position& pos, Color winner, std::uint64_t node_limit, int variant) {
    Guided s(pos, winner, node_limit, variant);
    return s.run(pos);
}

std::uint64_t guided_plan(const Position& pos, Color winner, int variant) {
    return Guided(pos, winner, 0, variant).plan_key();
}

}  // namespace arbiter::detail
