// notation.hpp — moves as text: Standard Algebraic Notation (read and write, tolerant of
// annotations, "0-0" and "e.p.") and UCI long algebraic notation (Chess960-aware). Errors are
// values that keep syntax, illegal and ambiguous moves apart and point at the offending byte.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "arbiter/expected.hpp"
#include "arbiter/move.hpp"
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
const char* kind_name(MoveError::Kind k) noexcept;

/// SAN of the legal move `m`, with "+" or "#" when it checks or mates.
[[nodiscard]] std::string to_san(const Position& pos, Move m);
/// SAN without the check suffix (cheaper: the move is not played).
[[nodiscard]] std::string to_san_plain(const Position& pos, Move m);
/// Parses SAN such as "Nbd7", "exd6 e.p.", "e8=Q+", "O-O", "0-0-0", "Qh5!?". Piece letters are
/// upper case; the check suffix is not verified. Errors: MoveError.
Expected<Move, MoveError> parse_san(const Position& pos, std::string_view san);

/// UCI text: "e2e4", "e7e8q"; castling as king-to-target ("e1g1") in standard chess and
/// king-to-rook ("e1h1") in Chess960; "0000" for the null move.
[[nodiscard]] std::string to_uci(const Position& pos, Move m);
/// Parses UCI, accepting both castling forms. Errors: MoveError.
Expected<Move, MoveError> parse_uci(const Position& pos, std::string_view uci);

/// SAN or UCI, whichever the text is. Errors: MoveError (from SAN unless the text is UCI-shaped).
Expected<Move, MoveError> parse_move(const Position& pos, std::string_view text);

}  // namespace arbiter
