// touch_move.hpp — the move obligations of a player at the board, as pure rules about a
// position: what must be moved after touching pieces with intent (Articles 4.3 and 4.4, US Chess
// 10), and the moves of the piece a written move names (after an incorrect claim whose written
// move is illegal: "another move with that piece", FIDE 9.5.3, US Chess 14C6). The session
// (session.hpp) keeps what was touched and applies these.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "arbiter/movegen.hpp"
#include "arbiter/position.hpp"

namespace arbiter {

/// What a player must do: the moves allowed (empty: any legal move) and why.
struct MoveObligation {
    std::vector<Move> allowed;
    std::string reason;  ///< e.g. "4.3.1: White touched the knight on g1 with intent and must move it"
};

/// Articles 4.3 and 4.4 for the player to move in `pos`, who touched the pieces on `touched`
/// with intent, in that order: the king and then a rook with a castling right (castle, else
/// another king move), a rook and then the king (no castling with that rook), an own piece and
/// an opponent's (capture it with that piece), else the first touched piece that can move or be
/// captured. `article` is the rule set's touch-move article ("4.3"), whose clause is appended
/// (".1", ".2", ".3"). No obligation (allowed empty) when nothing touched can move or be taken
/// (4.3.4).
MoveObligation touch_obligation(const Position& pos, const std::vector<Square>& touched, const char* article);

/// The legal moves (of `legal`, the legal moves of `pos`) of the piece a written move names,
/// legal or not: for UCI its origin square, for castling the king, for other SAN the pieces of
/// the player to move of its kind that match its disambiguation (a pawn: its file). Read with
/// the SAN parser (san_parts); empty when the text is not a move.
std::vector<Move> moves_of_written_piece(const Position& pos, const MoveList& legal, std::string_view written);

/// "knight on g1": the piece standing on `s` and the square.
std::string piece_on(const Position& pos, Square s);

}  // namespace arbiter
