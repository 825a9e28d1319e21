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

/// The winner's pawns blocked head-on by a loser's pawn, and the squares diagonally in front of
/// them (where each could take something and so change file).
struct Levers {
    Bitboard fronts;   // diagonally in front of a blocked pawn of the winner
    Bitboard squares;  // those of them where a loser's pawn could take a unit of the winner
};
Levers levers(const Position& pos, Color winner) noexcept {
    const Bitboard ours = pos.pieces(winner, PieceType::pawn), theirs = pos.pieces(~winner, PieceType::pawn);
    const Bitboard blocked = ours & theirs.shifted(winner == Color::white ? -8 : 8);
    const Bitboard fronts = pawn_attacks_of_set(winner, blocked);
    return {fronts, fronts & pawn_attacks_of_set(~winner, theirs) & ~pos.pieces(~winner)};
}

/// Attacks of the winner on a set of squares (occupancy `occ`).
Bitboard attacked_squares(const Position& pos, Color by, Bitboard squares, Bitboard occ) noexcept {
    Bitboard out;
    for (Square s : squares)
        if (pos.attacked_by(by, s, occ)) out |= s;
    return out;
}

class Guided : public DiscrepancySearch<Guided> {
public:
    Guided(const Position& root, Color winner, std::uint64_t node_limit, int variant)
        : DiscrepancySearch(winner, node_limit),
          variant_(variant & 3),
          eager_((variant & 4) != 0),
          lever_((variant & 8) != 0 && levers(root, winner).squares) {
        plan(root);
    }
    /// What the variant changes about the plan: equal for two variants that search alike.
    [[nodiscard]] std::uint64_t plan_key() const noexcept {
        std::uint64_t h = corners_.bits ^ (clear_.bits * 0x9E3779B97F4A7C15ULL);
        h = h * 31 + static_cast<std::uint64_t>(index(anchor_) + 1);
        return (h * 8 + (anchored_ ? 4u : 0u) + (blockers_needed_ ? 2u : 0u) + (eager_ ? 1u : 0u)) * 2 +
               (lever_ ? 1u : 0u);
    }

private:
    friend class DiscrepancySearch<Guided>;
    void plan(const Position& root);
    std::size_t rank_moves(const Position& pos, const MoveList& moves, Ranked* out) const noexcept;
    /// What the ranking of one node works out once for all its moves.
    struct NodeMaps {
        Bitboard zone;     // the loser's king and the squares around it
        Bitboard open;     // those around it that are neither the loser's own nor attacked
        Bitboard threats;  // what the winner attacks with the loser's king off the board (right
                           // within two steps of that king)
        Bitboard guarded;  // what the loser attacks (with the occupancy as it is)
    };
    /// What the scoring of the winner's moves works out once per node.
    struct Node {
        const Position& pos;
        const NodeMaps& maps;
        Square target;  // where the mate is to happen: the loser's king, or the chosen corner
        Bitboard zone;  // that square and those around it
        Bitboard occ;
        Levers levers{};              // with the lever plan
        Square lever = Square::none;  // the lever square the winner's pieces head for, if any
    };
    /// (Each scoring loop is compiled for the anchored plans and for the others, `A`.)
    template <PieceType PT, bool A>
    Ranked* score_run(const Node& node, const Move* first, const Move* last, Ranked* out) const noexcept;
    template <bool A>
    Ranked* loser_run(const Node& node, PieceType pt, const Move* first, const Move* last, Ranked* out) const noexcept;
    template <bool A>
    Ranked* piece_run(const Node& node, bool winner_moves, const Move* m, const Move* end, Ranked* o) const noexcept;
    Ranked* loser_king_run(const Node& node, const Move* first, const Move* last, Ranked* out) const noexcept;
    /// The score of the loser's capture `m` (of the unit on `to`, or en passant).
    [[nodiscard]] static int loser_capture(const Position& pos, Move m) noexcept {
        return 30 + (m.is_en_passant() || type_of(pos.piece_at(m.to())) == PieceType::pawn ? 0 : 10);
    }
    [[nodiscard]] int open_flights(const Position& pos, Square k, Bitboard occ) const noexcept;
    /// What the loser attacks once a piece has left `from`: what it attacks now, and the squares
    /// its sliders that see `from` reach through it. (A piece that lands on a square does not
    /// shield that square, so this is pos.attacked_by(loser_, to, occ2) for every move from
    /// `from`.)
    [[nodiscard]] Bitboard loser_attacks_from(const Position& pos, const NodeMaps& maps, Square from,
                                              Bitboard occ) const noexcept {
        return maps.guarded | lines_through(pos, loser_, from, occ, occ ^ Bitboard(from));
    }

    int variant_;
    bool eager_;                    // the winner's king heads for the pawns to clear before anything else
    bool lever_;                    // the lever plan: a piece is given where a loser's pawn takes it and a
                                    // blocked pawn of the winner takes that pawn in turn
    Bitboard corners_;              // where the loser's king is led
    bool queen_ = false;            // the winner has a queen (its king then walks at a third of the weight)
    bool anchored_ = false;         // the winner has no queen, rook or free pawn: mate in a corner
    bool blockers_needed_ = false;  // ... and its pieces cannot mate without the loser's help
    Square anchor_ = Square::none;  // when anchored: the corner of the mate
    std::array<std::uint8_t, 64> loser_king_walk_{};   // when anchored: king-walk distance to the corner
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
    queen_ = bool(root.pieces(winner_, PieceType::queen));
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
    // The loser's king is led to the corner only where the winner mates there; with mating
    // material of its own, the winner mates it where it stands (the walk stays zero).
    if (anchored_) loser_king_walk_ = king_walk(root, loser_, corners_);
    // Variants 2 and 3 send the winner's king first after the pawns that block its own.
    clear_ = variant_ >= 2 ? pawns_to_clear(root, winner_) : Bitboard();
    if (clear_) clear_walk_ = king_walk(root, winner_, clear_);
}

// Squares next to k that the loser's king could flee to: not its own units, not attacked.
int Guided::open_flights(const Position& pos, Square k, Bitboard occ) const noexcept {
    const Bitboard around = king_attacks(k) & ~pos.pieces(loser_);
    return around.count() - attacked_squares(pos, winner_, around, occ ^ Bitboard(k)).count();
}

// The ranking at a node: how much each move helps towards a mate (lower is better). The loser's
// king's zone, its open flight squares and the squares the winner attacks are worked out once
// for all the moves, and what depends on the moving piece once for all its moves (a piece's
// moves come together in the list): each run of moves of one piece is scored by a loop made for
// its kind.
std::size_t Guided::rank_moves(const Position& pos, const MoveList& moves, Ranked* out) const noexcept {
    const Square lk = pos.king_square(loser_);
    const Bitboard occ = pos.occupied();
    const Bitboard around = king_attacks(lk) & ~pos.pieces(loser_);
    const bool winner_moves = pos.turn() == winner_;
    // (Only the squares within two steps of the loser's king are asked about. The winner's moves
    // look at the open flight squares only in the anchored plans: elsewhere both stay empty.)
    const bool flights = !winner_moves || anchored_;
    const Bitboard threats = flights ? attacks_near(pos, winner_, occ ^ Bitboard(lk), two_steps(lk)) : Bitboard();
    const NodeMaps maps{king_attacks(lk) | lk, flights ? around & ~threats : Bitboard(), threats,
                        winner_moves ? attack_map(pos, loser_, occ) : Bitboard()};
    Node node{pos, maps, anchored_ ? anchor_ : lk, anchored_ ? king_attacks(anchor_) | anchor_ : maps.zone, occ};
    if (lever_) {
        node.levers = levers(pos, winner_);
        if (node.levers.squares) node.lever = node.levers.squares.first();
    }
    const Move* m = moves.begin();
    const Move* const end = moves.end();
    Ranked* o = out;
    // Each run function scores the moves from `m` on while they are of one piece, and returns
    // where it stopped writing (one score per move: the next run starts at the same index).
    while (m != end) {
        o = anchored_ ? piece_run<true>(node, winner_moves, m, end, o)
                      : piece_run<false>(node, winner_moves, m, end, o);
        m = moves.begin() + (o - out);
    }
    return static_cast<std::size_t>(o - out);
}

// The moves of the piece that moves first from `m` on, by the loop made for its kind.
template <bool A>
Guided::Ranked* Guided::piece_run(const Node& node, bool winner_moves, const Move* m, const Move* end,
                                  Ranked* o) const noexcept {
    const PieceType pt = type_of(node.pos.piece_at(m->from()));
    if (!winner_moves)
        return pt == PieceType::king ? loser_king_run(node, m, end, o) : loser_run<A>(node, pt, m, end, o);
    switch (pt) {
        case PieceType::pawn: return score_run<PieceType::pawn, A>(node, m, end, o);
        case PieceType::knight: return score_run<PieceType::knight, A>(node, m, end, o);
        case PieceType::bishop: return score_run<PieceType::bishop, A>(node, m, end, o);
        case PieceType::rook: return score_run<PieceType::rook, A>(node, m, end, o);
        case PieceType::queen: return score_run<PieceType::queen, A>(node, m, end, o);
        default: return score_run<PieceType::king, A>(node, m, end, o);
    }
}

// The loser's moves of one piece other than its king (from `first` on, while they are of the
// piece on its square, up to `last`).
template <bool A>
Guided::Ranked* Guided::loser_run(const Node& node, PieceType pt, const Move* first, const Move* last,
                                  Ranked* out) const noexcept {
    const Position& pos = node.pos;
    const Square from = first->from();
    const int near_before = node.zone.contains(from) ? 1 : 0;
    const int away = pt == PieceType::knight ? knight_moves(from, node.target) : chebyshev(from, node.target);
    const int weight = blockers_needed_ ? 5 : 3;
    // With mating material of the winner's own: a piece (not a pawn) that stops guarding the
    // squares around its king that the winner attacks lets the mate in.
    const Bitboard contested = A || pt == PieceType::pawn ? Bitboard() : node.maps.threats & node.maps.zone;
    const int guards = contested ? (attacks(pt, from, node.occ) & contested).count() : 0;
    for (const Move* mp = first; mp != last && mp->from() == from; ++mp) {
        const Move m = *mp;
        const Square to = m.to();
        if (pos.piece_at(to) != Piece::none || m.is_en_passant()) {
            *out++ = Ranked{m, pt == PieceType::pawn && node.levers.squares.contains(to) ? -20 : loser_capture(pos, m)};
            continue;
        }
        if (m.is_promotion()) {
            // (Not on the mating corner itself, where the loser's king is to stand.)
            const PieceType p = m.promoted();
            *out++ = Ranked{m, A && to == anchor_ ? 6
                               : blockers_needed_ ? (p == PieceType::queen ? 4 : -8)
                                                  : (p == PieceType::queen ? 2 : 4)};
            continue;
        }
        // A unit next to its own king closes a flight square; one leaving it reopens it. With
        // blockers needed, units head for the squares around the chosen corner.
        const int near_after = node.zone.contains(to) ? 1 : 0;
        int s = -weight * (near_after - near_before);
        if (A && !near_after)
            s += (pt == PieceType::knight ? knight_moves(to, node.target) : chebyshev(to, node.target)) - away;
        if (pt == PieceType::pawn && blockers_needed_ && !near_before) s -= 2;
        if (contested) s += 5 * ((attacks(pt, to, (node.occ ^ Bitboard(from)) | to) & contested).count() - guards);
        *out++ = Ranked{m, s};
    }
    return out;
}

// The loser's king moves: towards the mating corner (in the anchored plans), and into fewer open
// flight squares.
Guided::Ranked* Guided::loser_king_run(const Node& node, const Move* first, const Move* last,
                                       Ranked* out) const noexcept {
    const Position& pos = node.pos;
    const Square from = first->from();
    const int open = node.maps.open.count();
    const Bitboard free = ~pos.pieces(loser_) & ~node.maps.threats;
    for (const Move* mp = first; mp != last && mp->from() == from; ++mp) {
        const Move m = *mp;
        const Square to = m.to();
        if (!m.is_castling() && pos.piece_at(to) != Piece::none) {
            *out++ = Ranked{m, loser_capture(pos, m)};
            continue;
        }
        int s;
        if (m.is_castling()) {
            const Square kto = Position::castle_king_to(loser_, from, to);
            const Bitboard occ2 =
                (((node.occ ^ Bitboard(from)) | kto) ^ Bitboard(to)) | Position::castle_rook_to(loser_, from, to);
            s = 3 * (loser_king_walk_[index(kto)] - loser_king_walk_[index(from)]) +
                2 * (open_flights(pos, kto, occ2) - open);
        } else {
            // (A plain king move leaves the occupancy the winner attacks through as in `threats`.)
            s = 3 * (loser_king_walk_[index(to)] - loser_king_walk_[index(from)]) +
                2 * ((king_attacks(to) & free).count() - open);
        }
        *out++ = Ranked{m, s};
    }
    return out;
}

// The winner's moves of one piece of kind PT (from `first` on, while they are of the piece on
// its square, up to `last`):
// pressure on the square of the mate and the flight squares around it (with mating material of
// the winner's own, the squares around the loser's king alone, its open flights no more than the
// others); a piece left where the loser can take it is likely lost (no bonus for a check as such:
// while the king has flight squares it simply steps away; with mating material of its own, a piece
// en prise costs little, but one that gives check from there is taken or stepped away from, and
// costs much); each piece heads for the mate (the king, in the variants that clear pawns first,
// for the pawns that keep the winner's pawns from promoting: in the eager variants, while some are
// left, each step towards them outweighs its pressure on the loser's king; with a queen, the king
// walks at a third of the weight); pawns advance and promote; captures help.
template <PieceType PT, bool A>
Guided::Ranked* Guided::score_run(const Node& node, const Move* first, const Move* last, Ranked* out) const noexcept {
    const Position& pos = node.pos;
    const Square from = first->from();
    const Bitboard before = PT == PieceType::pawn ? pawn_attacks(winner_, from) : attacks(PT, from, node.occ);
    // (What a piece attacks now is never an open flight square: those are the ones the winner
    // does not attack.)
    const int base = 2 * (before & node.zone).count();
    // The piece's own way towards the mate, from where it stands (the king keeps two squares
    // away from the loser's).
    int away = 0;
    if constexpr (PT == PieceType::king) {
        away = clear_ ? clear_walk_[index(from)]
                      : std::max(2, A ? int(winner_king_walk_[index(from)]) : chebyshev(from, node.target));
    } else if constexpr (PT == PieceType::knight) {
        away = knight_moves(from, node.target);
    } else if constexpr (PT != PieceType::pawn) {
        away = chebyshev(from, node.target);
    }
    // With the lever plan, the winner's pieces head for the lever square instead, and one given
    // there is not lost but the point.
    const Square lever = PT == PieceType::king || PT == PieceType::pawn ? Square::none : node.lever;
    const int lever_away = lever != Square::none ? chebyshev(from, lever) : 0;
    const int clear_weight = eager_ && (clear_ & pos.pieces(loser_, PieceType::pawn)) ? 6 : 3;
    // A piece left where the loser can take it is likely lost (not a pawn, which is not worth
    // the detour, nor the king, which cannot move there).
    const Bitboard guarded = PT == PieceType::king ? Bitboard() : loser_attacks_from(pos, node.maps, from, node.occ);
    const Bitboard theirs = pos.pieces(loser_);
    const std::uint8_t* knight_row = PT == PieceType::knight ? knight_moves_to(node.target) : nullptr;
    for (const Move* mp = first; mp != last && mp->from() == from; ++mp) {
        const Move m = *mp;
        const Square to = m.to();
        if (PT == PieceType::king && m.is_castling()) {
            *out++ = Ranked{m, 6};
            continue;
        }
        const Bitboard occ2 = (node.occ ^ Bitboard(from)) | to;
        Bitboard after;
        bool hanging = false;  // (only pieces other than the king hang)
        int s = base;
        if constexpr (PT == PieceType::pawn) {
            if (m.is_promotion()) {
                const PieceType now = m.promoted();
                after = attacks(now, to, occ2);
                hanging = guarded.contains(to);
                s -= now == PieceType::queen ? 12 : now == PieceType::knight ? 6 : 2;
            } else {
                after = pawn_attacks(winner_, to);
                s -= 1 + relative_rank(winner_, rank_of(to)) / 2;
                if (node.levers.fronts.contains(to) && theirs.contains(to)) s -= 20;  // the lever's last step
            }
        } else if constexpr (PT == PieceType::king) {
            after = king_attacks(to);
            const int d1 = clear_ ? clear_walk_[index(to)]
                                  : std::max(2, A ? int(winner_king_walk_[index(to)]) : chebyshev(to, node.target));
            s += (clear_ ? clear_weight : queen_ ? 1 : 3) * (d1 - away);
        } else {
            after = attacks(PT, to, occ2);
            hanging = guarded.contains(to);
            if (lever != Square::none) {
                s += 2 * (chebyshev(to, lever) - lever_away) - (to == lever ? 10 : 0);
                hanging = hanging && to != lever;
            } else {
                s += (PT == PieceType::knight ? int(knight_row[index(to)]) : chebyshev(to, node.target)) - away;
            }
        }
        s -= (A ? 3 * (after & node.maps.open).count() : 0) + 2 * (after & node.zone).count();
        if (hanging) s += A ? 5 : after.contains(node.target) ? 11 : 1;
        s -= (A ? 2 : 4) * int(theirs.contains(to) || (PT == PieceType::pawn && m.is_en_passant()));
        *out++ = Ranked{m, s};
    }
    return out;
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
