// notation.hpp — moves as text: Standard Algebraic Notation (read and write, tolerant of
// annotations, "0-0" and "e.p.") and UCI long algebraic notation (Chess960-aware). Errors are
// values that keep syntax, illegal and ambiguous moves apart and point at the offending byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/expected.hpp"
#include "arbiter/move.hpp"
#include "arbiter/names.hpp"
#include "arbiter/position.hpp"

namespace arbiter {

struct MoveError {
    enum class Kind {
        syntax,     ///< the text is not a move in that notation
        illegal,    ///< well-formed, but no legal move matches
        ambiguous,  ///< well-formed, but several legal moves match
    };
    Kind kind;
    std::size_t offset;  ///< byte offset in the move text where the problem was found
    std::string message;
};

/// Stable name of a kind: "syntax", "illegal", "ambiguous".
template <>
struct EnumNames<MoveError::Kind> {
    static constexpr auto names = std::to_array<const char*>({"syntax", "illegal", "ambiguous"});
};
static_assert(enum_count<MoveError::Kind> == std::size_t(MoveError::Kind::ambiguous) + 1);
constexpr const char* kind_name(MoveError::Kind k) noexcept { return enum_name(k); }

/// SAN of the legal move `m`, with "+" or "#" when it checks or mates.
[[nodiscard]] std::string to_san(const Position& pos, Move m);
/// SAN without the check suffix (cheaper: the move is not played).
[[nodiscard]] std::string to_san_plain(const Position& pos, Move m);
/// to_san of each move of a line of legal moves played from `pos` (each move made once: the
/// check and mate marks read from the position it leads to).
[[nodiscard]] std::vector<std::string> to_san_line(Position pos, std::span<const Move> line);
/// Parses SAN such as "Nbd7", "exd6 e.p.", "e8=Q+", "O-O", "0-0-0", "Qh5!?". Piece letters are
/// upper case; the check suffix is not verified. Errors: MoveError.
Expected<Move, MoveError> parse_san(const Position& pos, std::string_view san);

/// What a SAN text says before it is matched with a position's legal moves (parse_san reads it
/// so): the kind of the piece moved, the origin's file and rank where the text gives them (-1
/// otherwise; a pawn's file always, "e4" being a push from the e-file), the destination and the
/// promotion piece (PieceType::none); castling as the king with `castling` set (and no squares).
struct SanParts {
    enum class Castling : std::uint8_t { none, kingside, queenside };
    PieceType piece = PieceType::pawn;
    int from_file = -1;
    int from_rank = -1;
    Square to = Square::none;
    PieceType promotion = PieceType::none;
    Castling castling = Castling::none;
};
/// Reads SAN without a position. Errors: MoveError (kind syntax), as parse_san gives them.
Expected<SanParts, MoveError> san_parts(std::string_view san);

/// UCI text: "e2e4", "e7e8q"; castling as king-to-target ("e1g1") in standard chess and
/// king-to-rook ("e1h1") in Chess960; "0000" for the null move.
[[nodiscard]] std::string to_uci(const Position& pos, Move m);
/// Parses UCI, accepting both castling forms. Errors: MoveError.
Expected<Move, MoveError> parse_uci(const Position& pos, std::string_view uci);

/// SAN or UCI, whichever the text is, or figurine SAN (FIDE Laws, Appendix C.13: "♘f3", "b8=♕",
/// either colour's figures; a pawn's figure stands for no letter): how every face reads a move a
/// person enters. PGN movetext is read by parse_san alone. Errors: MoveError (from SAN unless the
/// text is UCI-shaped; for figurine text, its offset and quoted words are the text's as written).
Expected<Move, MoveError> parse_move(const Position& pos, std::string_view text);

}  // namespace arbiter
