// material.cpp — the material rules of the analyzer. Each rule names a class of
// positions closed under legal moves (captures only remove material and no side of the class
// has a pawn that could promote into something else) in which no checkmate position exists;
// docs/unwinnability.md gives the arguments and tests/library/helpmate_material_test.cpp checks them
// exhaustively over every local configuration.
#include "impl.hpp"

namespace arbiter::detail {

const char* material_cannot_mate(const Position& pos, Color winner) noexcept {
    const Color loser = ~winner;
    const Bitboard kings = pos.pieces(PieceType::king);
    const Bitboard ours = pos.pieces(winner) & ~kings;
    if (!ours) return "insufficient material: only a king";

    // The remaining rules need a loser without pawns (a promotion could bring a blocker) and a
    // winner without pawns (a promotion could bring a stronger piece).
    if (pos.pieces(PieceType::pawn)) return nullptr;
    const Bitboard theirs = pos.pieces(loser) & ~kings;

    // A lone knight mates only with a blocker that can neither take it nor leave the king a
    // square; a queen next to the king always can do one or the other.
    const Bitboard knights = pos.pieces(winner, PieceType::knight);
    if (ours == knights && !knights.more_than_one() && (theirs & ~pos.pieces(PieceType::queen)).empty())
        return "insufficient material: a lone knight against a king with at most queens";

    // Bishops on one colour check only on that colour; the squares orthogonally next to the king
    // are of the other colour and need blockers the opponent can never provide: its rooks and
    // queens could always take or interpose, and it has no knight or other-coloured bishop.
    const Bitboard bishops = pos.pieces(winner, PieceType::bishop);
    if (ours == bishops) {
        const Bitboard colour =
            (bishops & Bitboard::light_squares()) ? Bitboard::light_squares() : Bitboard::dark_squares();
        if ((bishops & ~colour).empty() && (theirs & pos.pieces(PieceType::knight)).empty() &&
            (theirs & pos.pieces(PieceType::bishop) & ~colour).empty())
            return "insufficient material: bishops on squares of one colour, and no piece of the "
                   "opponent could block the other colour";
    }
    return nullptr;
}

}  // namespace arbiter::detail
