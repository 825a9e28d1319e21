// bishops.cpp — the corner plan of bishops of one colour (docs/unwinnability.md).
//
// Bishops of one colour never attack a square of the other colour, so they can only mate a king
// standing on their own colour whose flight squares of the other colour are all held by the
// king's own units. The only such king with few of those squares is one in a corner of the
// bishops' colour: its two orthogonal neighbours (the other colour) must hold the loser's own
// units, its diagonal neighbour must be covered, and a bishop checks along the long diagonal.
// When the winner's mobile material is nothing but bishops of one colour (its pawns blocked
// head-on, its knights shut in by its own units), that is the mate to aim for, however many
// bishops there are: the loser's king walks to the corner while the bishops keep off its way,
// the loser's pieces of the other colour come to the two blocking squares, and a bishop checks.
// The guided search, whose pieces head for the loser's king, crowds the corner instead.
//
// The search is the guided search's limited discrepancy search with a ranking of its own; it
// finds mates only (its line is replayed like any other), so it needs no proof of soundness.
#include <algorithm>
#include <array>

#include "arbiter/attacks.hpp"
#include "arbiter/movegen.hpp"
#include "impl.hpp"

namespace arbiter::detail {
namespace {

/// Moves a unit of type t needs from a to b on an empty board (pawns: never).
int unit_distance(PieceType t, Square a, Square b) noexcept {
    if (a == b) return 0;
    const bool line = file_of(a) == file_of(b) || rank_of(a) == rank_of(b);
    switch (t) {
        case PieceType::bishop: return bishop_distance(a, b);
        case PieceType::knight: return knight_moves(a, b);
        case PieceType::rook: return line ? 1 : 2;
        case PieceType::queen: return line || bishop_distance(a, b) == 1 ? 1 : 2;
        default: return 8;
    }
}

/// The mating corner: the corner, its two orthogonal neighbours (to be held by the loser's own
/// units), its diagonal neighbour, and the long diagonal the check comes along.
struct Corner {
    Square x = Square::none, o1 = Square::none, o2 = Square::none, d = Square::none;
    Bitboard diagonal;
    explicit Corner(Square c) : x(c) {
        const int f = file_of(c), r = rank_of(c), df = f == 0 ? 1 : -1, dr = r == 0 ? 1 : -1;
        o1 = make_square(f + df, r);
        o2 = make_square(f, r + dr);
        d = make_square(f + df, r + dr);
        for (int k = 1; k < 8; ++k) diagonal |= make_square(f + k * df, r + k * dr);
    }
    [[nodiscard]] Bitboard blocks() const noexcept { return Bitboard(o1) | o2; }
};

/// The winner's bishops when they are its only mobile material and all of one colour: no queen
/// or rook, every pawn blocked head-on by a loser's pawn, every knight without a square to go to
/// (all its squares hold its own units). Empty otherwise.
Bitboard lone_bishops(const Position& pos, Color winner) noexcept {
    const Bitboard ours = pos.pieces(winner);
    if (ours & (pos.pieces(PieceType::queen) | pos.pieces(PieceType::rook))) return {};
    const Bitboard pawns = pos.pieces(winner, PieceType::pawn);
    const Bitboard blockers = pos.pieces(~winner, PieceType::pawn).shifted(winner == Color::white ? -8 : 8);
    if (pawns & ~blockers) return {};
    for (Square n : pos.pieces(winner, PieceType::knight))
        if (knight_attacks(n) & ~ours) return {};
    const Bitboard bishops = pos.pieces(winner, PieceType::bishop);
    if ((bishops & Bitboard::light_squares()) != bishops && (bishops & Bitboard::dark_squares()) != bishops) return {};
    return bishops;
}

/// The squares of the colour of the winner's lone_bishops (empty when there are none).
Bitboard bishops_colour(const Position& pos, Color winner) noexcept {
    const Bitboard bishops = lone_bishops(pos, winner);
    if (!bishops) return {};
    return (bishops & Bitboard::light_squares()) ? Bitboard::light_squares() : Bitboard::dark_squares();
}

/// The loser's units that could stand on a blocking square (of the colour the bishops lack).
Bitboard blockers_of(const Position& pos, Color loser, Bitboard colour) noexcept {
    return pos.pieces(loser) & (pos.pieces(PieceType::knight) | pos.pieces(PieceType::rook) |
                                pos.pieces(PieceType::queen) | (pos.pieces(PieceType::bishop) & ~colour));
}

/// The corners of the bishops' colour, best first: nearer the loser's king, away from the
/// winner's king (which may not stand next to the mated king).
std::array<Square, 2> ranked_corners(const Position& pos, Color winner, Bitboard colour) noexcept {
    std::array<std::pair<int, Square>, 2> r{};
    std::size_t n = 0;
    for (Square c : (Bitboard(Square::a1) | Square::h1 | Square::a8 | Square::h8) & colour) {
        const int cost = chebyshev(c, pos.king_square(~winner)) + (chebyshev(c, pos.king_square(winner)) <= 2 ? 16 : 0);
        r[n++] = {cost, c};
    }
    if (r[1] < r[0]) std::swap(r[0], r[1]);
    return {r[0].second, r[1].second};
}

class BishopCorner : public DiscrepancySearch<BishopCorner> {
public:
    BishopCorner(const Position& root, Color winner, std::uint64_t limit, Square corner)
        : DiscrepancySearch(winner, limit), corner_(corner) {
        colour_ = Bitboard::light_squares().contains(corner) ? Bitboard::light_squares() : Bitboard::dark_squares();
        walk_ = king_walk(root, loser_, Bitboard(corner));  // round the pawns, as they hardly move here
    }

private:
    friend class DiscrepancySearch<BishopCorner>;
    std::size_t rank_moves(const Position& pos, const MoveList& moves, Ranked* out) const noexcept;
    int score(const Position& pos, Move m, Bitboard keep) const noexcept;

    Corner corner_;
    Bitboard colour_;  // the squares of the bishops' colour
    std::array<std::uint8_t, 64> walk_{};
};

// How a move serves the plan (lower is better). `keep` holds the squares the loser's king still
// needs free and unattacked: its next steps towards the corner, and the corner itself.
int BishopCorner::score(const Position& pos, Move m, Bitboard keep) const noexcept {
    const Square from = m.from(), to = m.to();
    const PieceType pt = type_of(pos.piece_at(from));
    const Square lk = pos.king_square(loser_);
    const Square x = corner_.x;
    if (pos.is_capture(m)) return pos.turn() == winner_ ? 20 : 30;  // units lost are blockers or bishops lost
    if (m.is_castling()) return 12;
    if (pos.turn() == winner_) {
        if (pt == PieceType::king) return 4 + std::max(2, chebyshev(to, x)) - std::max(2, chebyshev(from, x));
        if (pt == PieceType::pawn) return 3;
        // A piece keeps off the king's way (its next steps and the corner) until the king is
        // in the corner; then it heads for the long diagonal to give the check.
        const Bitboard occ = pos.occupied(), occ2 = (occ ^ Bitboard(from)) | to;
        const Bitboard before = attacks(pt, from, occ) | from, after = attacks(pt, to, occ2) | to;
        int s = 2 + 3 * ((after & keep).count() - (before & keep).count());
        if (lk == x) {
            // With both blocking squares held, a check along the diagonal is the mate (or close
            // to it); before that, a check only drives the king out again.
            const bool ready = (pos.pieces(loser_) & corner_.blocks()) == corner_.blocks();
            if (ready && corner_.diagonal.contains(to) && !corner_.diagonal.contains(from)) s -= 4;
            if (!ready && after.contains(x)) s += 6;
        }
        return s;
    }
    if (pt == PieceType::king) return 3 * (walk_[index(to)] - walk_[index(from)]);
    // A unit standing on the king's next step makes way; none steps onto one.
    int s = 4 * ((keep.contains(to) ? 1 : 0) - (keep.contains(from) ? 1 : 0));
    if (pt == PieceType::pawn) return s + 6;  // a tempo (the pawns of these positions are mostly blocked)
    const bool blocker = pt != PieceType::bishop || !colour_.contains(from);
    if (!blocker) return s + 5;
    // A blocker heads for a blocking square not yet held; once there it stays. Before the king
    // is in the corner, being one move away is as good as being there (the king may need to
    // pass).
    const Bitboard held = pos.pieces(loser_) & corner_.blocks();
    if (held.contains(from)) return s + 12;
    const Bitboard free = corner_.blocks() & ~held;
    int d0 = 8, d1 = 8;
    for (Square b : free) {
        d0 = std::min(d0, unit_distance(pt, from, b));
        d1 = std::min(d1, unit_distance(pt, to, b));
    }
    if (lk != x) d0 = std::max(d0, 1), d1 = std::max(d1, 1);
    return s + 2 + 3 * (d1 - d0) - (lk == x && d1 == 0 ? 6 : 0);
}

// The ranking at a node; `keep` (see score) is worked out once for all the moves.
std::size_t BishopCorner::rank_moves(const Position& pos, const MoveList& moves, Ranked* out) const noexcept {
    const Square lk = pos.king_square(loser_);
    Bitboard keep;
    if (lk != corner_.x) {
        keep = Bitboard(corner_.x);
        for (Square s : king_attacks(lk))
            if (walk_[index(s)] < walk_[index(lk)]) keep |= s;
    }
    std::size_t n = 0;
    for (Move m : moves) out[n++] = Ranked{m, score(pos, m, keep)};
    return n;
}

}  // namespace

bool bishop_corner_plan(const Position& pos, Color winner) noexcept {
    const Bitboard colour = bishops_colour(pos, winner);
    return colour && !blockers_of(pos, ~winner, colour).empty();
}

SearchOutcome search_bishop_corner(const Position& pos, Color winner, std::uint64_t node_limit, int variant) {
    const Bitboard colour = bishops_colour(pos, winner);
    if (!colour) return {};
    const std::array<Square, 2> corners = ranked_corners(pos, winner, colour);
    BishopCorner s(pos, winner, node_limit, corners[static_cast<std::size_t>(variant & 1)]);
    return s.run(pos);
}

}  // namespace arbiter::detail
