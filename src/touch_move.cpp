// touch_move.cpp — the move obligations of touch-move (4.3, 4.4) and of an illegal written move.
#include "arbiter/touch_move.hpp"

#include "arbiter/notation.hpp"

namespace arbiter {

namespace {

// The square of the piece a move captures, or none.
Square captured_square(const Position& pos, Move m) {
    if (m.is_en_passant()) return m.to() + (pos.turn() == Color::white ? -8 : 8);
    return pos.is_capture(m) ? m.to() : Square::none;
}

// Moves of the piece standing on `s` (castling counts as a move of the king only, 3.8.2).
std::vector<Move> moves_of(const MoveList& legal, Square s, Square no_castling_with = Square::none) {
    std::vector<Move> out;
    for (Move m : legal)
        if (m.from() == s && !(m.is_castling() && m.to() == no_castling_with)) out.push_back(m);
    return out;
}

// Moves that capture the piece standing on `s`.
std::vector<Move> captures_of(const Position& pos, const MoveList& legal, Square s) {
    std::vector<Move> out;
    for (Move m : legal)
        if (captured_square(pos, m) == s) out.push_back(m);
    return out;
}

}  // namespace

std::string piece_on(const Position& pos, Square s) {
    return std::string(piece_name(type_of(pos.piece_at(s)))) + " on " + to_string(s);
}

// Articles 4.3 and 4.4: what a player who touched `touched` (in order) with intent must do.
MoveObligation touch_obligation(const Position& pos, const std::vector<Square>& touched, const char* article) {
    const MoveList legal = legal_moves(pos);
    const Color us = pos.turn();
    const std::string who = side_title(us) + " touched the ";
    std::vector<Square> own, theirs;
    for (Square s : touched) (color_of(pos.piece_at(s)) == us ? own : theirs).push_back(s);

    // 4.4.1 / 4.4.3: the king and then a rook with a castling right.
    if (own.size() >= 2 && type_of(pos.piece_at(own[0])) == PieceType::king &&
        (pos.castling_rooks(us) & own[1]).any()) {
        const Square king = own[0], rook = own[1];
        const Move castle = Move::castling(king, rook);
        if (legal.contains(castle))
            return {{castle},
                    "4.4.1: " + who + "king and then the rook on " + to_string(rook) + " and must castle on that side"};
        auto king_moves = moves_of(legal, king);
        if (!king_moves.empty())
            return {king_moves, "4.4.3: " + who + "king and then the rook on " + to_string(rook) +
                                    "; castling with it is illegal, so another king move must be made"};
        return {};
    }
    // 4.4.2: a rook and then the king: no castling on that side.
    Square no_castle = Square::none;
    if (own.size() >= 2 && type_of(pos.piece_at(own[0])) == PieceType::rook &&
        type_of(pos.piece_at(own[1])) == PieceType::king)
        no_castle = own[0];

    if (!own.empty() && !theirs.empty()) {
        std::vector<Move> both;
        for (Move m : legal)
            if (m.from() == own[0] && captured_square(pos, m) == theirs[0]) both.push_back(m);
        if (!both.empty())
            return {both, std::string(article) + ".3: " + who + piece_on(pos, own[0]) + " and the " +
                              piece_on(pos, theirs[0]) + " and must capture it with that piece"};
    }
    for (Square s : touched) {
        const bool mine = color_of(pos.piece_at(s)) == us;
        auto moves = mine ? moves_of(legal, s, no_castle) : captures_of(pos, legal, s);
        if (moves.empty()) continue;
        const std::string clause = !own.empty() && !theirs.empty() ? ".3" : mine ? ".1" : ".2";
        return {moves, std::string(article) + clause + ": " + who + piece_on(pos, s) + " with intent and must " +
                           (mine ? "move it" : "capture it")};
    }
    return {};  // 4.3.4: nothing touched can be moved or captured
}

std::vector<Move> moves_of_written_piece(const Position& pos, const MoveList& legal, std::string_view written) {
    std::vector<Square> origins;
    const Color us = pos.turn();
    const auto from = written.size() >= 4 ? parse_square(written.substr(0, 2)) : std::nullopt;
    if (from && parse_square(written.substr(2, 2))) {  // UCI: the origin square
        if (pos.piece_at(*from) != Piece::none && color_of(pos.piece_at(*from)) == us) origins.push_back(*from);
    } else if (const auto san = san_parts(written)) {
        if (san->castling != SanParts::Castling::none) {
            origins.push_back(pos.king_square(us));
        } else {
            for (Square s : pos.pieces(us, san->piece))
                if ((san->from_file < 0 || file_of(s) == san->from_file) &&
                    (san->from_rank < 0 || rank_of(s) == san->from_rank))
                    origins.push_back(s);
        }
    }
    std::vector<Move> out;
    for (Square s : origins)
        for (Move m : moves_of(legal, s)) out.push_back(m);
    return out;
}

}  // namespace arbiter
