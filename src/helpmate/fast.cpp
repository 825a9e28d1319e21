// fast.cpp — the sound fast check (FastUnwinnability, HelpmateOptions::Mode::fast): says that a
// side cannot checkmate only with a proof, and answers in about a microsecond on real positions.
//
// It runs the static proofs of the analyzer, each behind a gate that costs a few nanoseconds
// where the proof would fail anyway (docs/unwinnability.md, "The fast check"):
//  1. the game is over (stalemate, or the side asked is checkmated);
//  2. the material rules;
//  3. the forced lines (every line ends within 8 plies in material that cannot mate or a game
//     over), unless both sides have a quiet move that can be taken back: then the line that
//     repeats them never ends, and the forced-line proof would fail after a dozen move lists;
//  4. the blockade proof, where pawns stand head-on and either no side has a queen or rook free
//     to move or a passed pawn free to advance, or some units are locked for ever (locked_units);
//  5. where pawns stand head-on, the side asked has no queen or rook free to move and the
//     position is closed (three pawn pairs head-on and a king in a pen of at most 12 squares,
//     or units locked for ever), an exhaustive search of at most 3,000 positions (a king walk
//     behind locked pawns, a pawn race that ends in stalemate); in an ending of kings and pawns
//     where three pawn pairs stand head-on and every pawn is stopped by a pawn, of at most 12,000 positions.
// Every gate only decides whether a proof is tried; none can make an answer wrong.

#include "arbiter/attacks.hpp"
#include "arbiter/helpmate.hpp"
#include "arbiter/movegen.hpp"
#include "impl.hpp"

namespace arbiter::detail {
namespace {

// The forced lines as the analyzer looks for them (helpmate.cpp), which therefore does not look
// again where the fast check has.
constexpr int fast_line_depth = 8;
constexpr std::uint64_t fast_line_nodes = 400;
constexpr std::uint64_t fast_exhaustive_nodes = 3000;
constexpr std::uint64_t fast_pawn_ending_nodes = 12000;
constexpr int pen_squares = 12;
constexpr int shuffle_tries = 4;

/// A quiet move of a piece (not a pawn) of the side to move from `from` to the empty square
/// `to`, legal in `pos`: the piece attacks `to` and the move leaves its king out of check.
bool quiet_legal(const Position& pos, Square from, Square to) noexcept {
    const Color us = pos.turn();
    const Piece p = pos.piece_at(from);
    if (p == Piece::none || color_of(p) != us || pos.occupied().contains(to)) return false;
    const PieceType t = type_of(p);
    if (t == PieceType::pawn) return false;
    const Bitboard occ = pos.occupied();
    if (!attacks(t, from, occ).contains(to)) return false;
    const Bitboard after = occ ^ Bitboard(from) ^ Bitboard(to);
    const Square king = t == PieceType::king ? to : pos.king_square(us);
    // The moved piece cannot be among the attackers; an enemy piece standing on `to` is excluded
    // above, so the enemy's pieces are as they are.
    return !pos.attacked_by(~us, king, after);
}

/// Calls `f(from, to)` for up to `shuffle_tries` quiet legal piece moves of the side to move,
/// kings first; stops when `f` returns true.
template <typename F>
bool any_quiet_move(const Position& pos, F&& f) noexcept {
    const Color us = pos.turn();
    const Bitboard own = pos.pieces(us), occ = pos.occupied();
    int tries = 0;
    const Bitboard movers =
        (own & pos.pieces(PieceType::king)) | (own & ~pos.pieces(PieceType::pawn) & ~pos.pieces(PieceType::king));
    for (Square from : movers) {
        for (Square to : attacks(type_of(pos.piece_at(from)), from, occ) & ~occ) {
            if (!quiet_legal(pos, from, to)) continue;
            if (f(from, to)) return true;
            if (++tries >= shuffle_tries) return false;
        }
    }
    return false;
}

/// True when the side to move has a quiet piece move, the other side then one too, and both
/// can then be taken back: those four moves repeated make a line on which nothing is taken and
/// every position has a move, so no forced-line proof can succeed. A few dozen nanoseconds
/// where it finds one (nearly every real position); false proves nothing.
bool endless_shuffle(const Position& pos) noexcept {
    return any_quiet_move(pos, [&](Square a, Square b) {
        const Position p1 = pos.after(Move::normal(a, b));
        return any_quiet_move(p1, [&](Square c, Square d) {
            const Position p2 = p1.after(Move::normal(c, d));
            if (!quiet_legal(p2, b, a)) return false;
            const Position p3 = p2.after(Move::normal(b, a));
            return quiet_legal(p3, d, c);
        });
    });
}

constexpr Bitboard file_a{0x0101010101010101ULL}, file_h{0x8080808080808080ULL};

/// Pawns of `c` with no enemy pawn ahead on their file or the next ones.
Bitboard passed(const Position& pos, Color c) noexcept {
    const int back = c == Color::white ? -8 : 8;
    Bitboard span = pos.pieces(~c, PieceType::pawn).shifted(back);
    for (int i = 0; i < 5; ++i) span |= span.shifted(back);
    span |= (span & ~file_h).shifted(1) | (span & ~file_a).shifted(-1);
    return pos.pieces(c, PieceType::pawn) & ~span;
}

/// A queen or rook of `c` with a square to go to.
bool free_heavy_piece(const Position& pos, Color c) noexcept {
    const Bitboard own = pos.pieces(c), occ = pos.occupied();
    for (Square s : own&(pos.pieces(PieceType::queen) | pos.pieces(PieceType::rook)))
        if (attacks(type_of(pos.piece_at(s)), s, occ) & ~own) return true;
    return false;
}

/// True when the king of `c` walks in a pen of at most `limit` squares: its steps around the
/// pawns and the squares the enemy pawns attack.
bool penned_king(const Position& pos, Color c, int limit) noexcept {
    const Bitboard walls = king_walls(pos, c);
    Bitboard region = pos.pieces(c, PieceType::king);
    for (;;) {
        Bitboard next = region;
        for (Square s : region) next |= king_attacks(s) & ~walls;
        if (next == region) return true;
        if (next.count() > limit) return false;
        region = next;
    }
}

/// locked_units(pos).any(), computed once and only when asked.
class LockedOnce {
public:
    explicit LockedOnce(const Position& pos) noexcept : pos_(pos) {}
    bool operator()() noexcept {
        if (state_ < 0) state_ = locked_units(pos_).any() ? 1 : 0;
        return state_ == 1;
    }

private:
    const Position& pos_;
    int state_ = -1;
};

}  // namespace

FastProof fast_unwinnable(const Position& pos, Color winner, bool searches) {
    if (!has_legal_move(pos)) {
        if (!pos.in_check()) return {MateProof::game_over, "stalemate: the game is over"};
        if (pos.turn() == winner) return {MateProof::game_over, "checkmated: the game is over"};
        return {};  // the side asked has already mated: not the fast check's business
    }
    if (const char* why = material_cannot_mate(pos, winner)) return {MateProof::material, why};
    std::uint64_t nodes = 0;
    const bool lines_tried = !endless_shuffle(pos);
    if (lines_tried && all_lines_end(pos, winner, fast_line_depth, nodes, fast_line_nodes))
        return {MateProof::exhaustive_search, "every line soon leaves material that cannot mate", nodes};
    FastProof none{MateProof::none, FastProof{}.reason, nodes, lines_tried, false};
    // The rest needs pawns head-on, and a side asked without a queen or rook free to move (on
    // an open board with one, the blockade proof fails and the search cannot end).
    if (!blockade_candidate(pos) || free_heavy_piece(pos, winner)) return none;
    LockedOnce locked(pos);
    // The blockade proof: on a quiet board (no queen or rook free to move, and every passed pawn
    // stopped by a unit in front of it), or with units locked for ever.
    const Bitboard occ = pos.occupied();
    const bool quiet = !free_heavy_piece(pos, Color::white) && !free_heavy_piece(pos, Color::black) &&
                       !(passed(pos, Color::white).shifted(8) & ~occ).any() &&
                       !(passed(pos, Color::black).shifted(-8) & ~occ).any();
    none.blockade_tried = quiet || locked();
    if (none.blockade_tried && blockade_proof(pos, winner))
        return {MateProof::blockade, "blockade: no unit that could give mate can ever reach a mating pattern", nodes};
    // A small exhaustive search in a closed position: three pawn pairs head-on and a king in a
    // pen, or units locked for ever (a king walk behind locked pawns, a race that stalemates).
    const Bitboard head_on =
        pos.pieces(Color::white, PieceType::pawn).shifted(8) & pos.pieces(Color::black, PieceType::pawn);
    const bool closed = (head_on.count() >= 3 && (penned_king(pos, Color::white, pen_squares) ||
                                                  penned_king(pos, Color::black, pen_squares))) ||
                        locked();
    // Kings and pawns alone, three pairs head-on, every pawn stopped by a pawn: the kings can only walk and take pawns,
    // so the reachable positions are few (a pawn wall usually leaves some 7,000 to 11,000).
    const Bitboard pawns = pos.pieces(PieceType::pawn);
    const bool pawn_ending = (pos.pieces(PieceType::king) | pawns) == pos.occupied() && head_on.count() >= 3 &&
                             !(pos.pieces(Color::white, PieceType::pawn).shifted(8) & ~pawns).any() &&
                             !(pos.pieces(Color::black, PieceType::pawn).shifted(-8) & ~pawns).any();
    if (searches && (closed || pawn_ending)) {
        const SearchOutcome found =
            exhaust_helpmate(pos, winner, pawn_ending ? fast_pawn_ending_nodes : fast_exhaustive_nodes);
        nodes += found.nodes;
        if (found.kind == SearchOutcome::Kind::exhausted)
            return {MateProof::exhaustive_search, "exhaustive search: no reachable position is a mate", nodes};
    }
    none.nodes = nodes;
    return none;
}

}  // namespace arbiter::detail
