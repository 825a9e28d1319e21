// setup.hpp — an unvalidated description of a position (what a FEN says), and the typed list of
// problems that keep a Setup from being a legal Position.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "arbiter/bitboard.hpp"
#include "arbiter/types.hpp"

namespace arbiter {

/// Board, side to move, castling rights, en passant square and counters, as written in a FEN.
/// Nothing is checked: a Setup may describe an impossible position. Turn it into a Position
/// with Position::from_setup.
struct Setup {
    std::array<Piece, 64> board;
    Color turn = Color::white;
    /// Squares of the rooks that keep a castling right (rank 1 for White, rank 8 for Black).
    Bitboard castling_rooks;
    /// The en passant target square as written (the square a pawn just skipped), or none.
    Square ep_square = Square::none;
    std::uint32_t halfmove_clock = 0;
    std::uint32_t fullmove_number = 1;
    /// True when castling must be read as Chess960 (e.g. a Shredder-FEN or a Variant tag).
    bool chess960 = false;

    Setup() { board.fill(Piece::none); }
    /// The standard initial position.
    static Setup standard();
    /// The Chess960 start position with the given index (0 … 959, Scharnagl numbering; 518 is
    /// the standard array).
    static Setup chess960_start(int number);

    friend bool operator==(const Setup&, const Setup&) = default;

    /// The squares of `board` that hold a piece, found eight bytes at a time (for the readers
    /// and writers that visit pieces rather than squares).
    [[nodiscard]] Bitboard occupied() const noexcept;
};

/// One reason a Setup is not a legal Position. The values are bit flags.
enum class PositionProblem : std::uint32_t {
    missing_king = 1u << 0,             ///< a side has no king
    too_many_kings = 1u << 1,           ///< a side has more than one king
    pawns_on_back_rank = 1u << 2,       ///< a pawn stands on the first or last rank
    opposite_check = 1u << 3,           ///< the side not to move is in check
    invalid_ep_square = 1u << 4,        ///< no pawn can just have double-stepped over that square
    invalid_castling_rights = 1u << 5,  ///< a castling right without king and rook in place
    too_many_pieces = 1u << 6,          ///< more than 16 pieces, 8 pawns, or promotions than missing pawns
    impossible_check = 1u << 7,         ///< a check that no legal last move could have given
    invalid_piece = 1u << 8,            ///< a board square holds a value that is not a piece
};

constexpr std::uint32_t operator|(PositionProblem a, PositionProblem b) noexcept {
    return static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b);
}
constexpr std::uint32_t operator|(std::uint32_t a, PositionProblem b) noexcept {
    return a | static_cast<std::uint32_t>(b);
}

/// Stable name of a problem, e.g. "missing_king".
const char* problem_name(PositionProblem p) noexcept;

/// Every problem found in a Setup (never an empty set).
struct PositionError {
    std::uint32_t problems = 0;

    [[nodiscard]] bool has(PositionProblem p) const noexcept { return (problems & static_cast<std::uint32_t>(p)) != 0; }
    /// The problems in declaration order.
    [[nodiscard]] std::vector<PositionProblem> list() const;
    /// A sentence naming every problem, e.g. "invalid position: white has no king; pawn on the
    /// first or last rank".
    [[nodiscard]] std::string message() const;
};

}  // namespace arbiter
