// types.hpp — the chess vocabulary every layer shares: colours, piece kinds, pieces, files,
// ranks and squares, as cheap strongly-typed values with constexpr helpers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "arbiter/names.hpp"

namespace arbiter {

enum class Color : std::uint8_t { white = 0, black = 1 };

constexpr Color operator~(Color c) noexcept { return static_cast<Color>(static_cast<int>(c) ^ 1); }
constexpr int index(Color c) noexcept { return static_cast<int>(c); }
template <>
struct EnumNames<Color> {
    static constexpr auto names = std::to_array<const char*>({"white", "black"});
};
static_assert(enum_count<Color> == std::size_t(Color::black) + 1);
/// Stable name: "white" or "black".
constexpr std::string_view name(Color c) noexcept { return enum_name(c); }
/// "White" or "Black", as a sentence names a side.
inline std::string side_title(Color c) { return c == Color::white ? "White" : "Black"; }

/// Piece kinds, ordered as in most engines. `none` marks an empty square.
enum class PieceType : std::uint8_t { pawn = 0, knight, bishop, rook, queen, king, none };

constexpr int index(PieceType t) noexcept { return static_cast<int>(t); }

template <>
struct EnumNames<PieceType> {
    static constexpr auto names = std::to_array<const char*>({"pawn", "knight", "bishop", "rook", "queen", "king"});
};
static_assert(enum_count<PieceType> == std::size_t(PieceType::king) + 1);

/// English name of a piece kind, e.g. "knight"; "piece" for `none`.
constexpr const char* piece_name(PieceType t) noexcept { return t == PieceType::none ? "piece" : enum_name(t); }

/// Upper-case letter of a piece kind as used by SAN and FEN (white): P N B R Q K.
constexpr char piece_letter(PieceType t) noexcept { return "PNBRQK?"[index(t)]; }

/// A coloured piece, packed as (colour << 3) | kind. `Piece::none` marks an empty square.
enum class Piece : std::uint8_t { none = 6 };

constexpr Piece make_piece(Color c, PieceType t) noexcept { return static_cast<Piece>((index(c) << 3) | index(t)); }
constexpr PieceType type_of(Piece p) noexcept { return static_cast<PieceType>(static_cast<int>(p) & 7); }
constexpr Color color_of(Piece p) noexcept { return static_cast<Color>(static_cast<int>(p) >> 3); }
constexpr int index(Piece p) noexcept { return static_cast<int>(p); }

/// FEN letter of a piece: upper case for White, lower case for Black.
constexpr char fen_char(Piece p) noexcept {
    const char c = piece_letter(type_of(p));
    return color_of(p) == Color::white ? c : static_cast<char>(c + ('a' - 'A'));
}

/// Piece from a FEN letter (PNBRQK / pnbrqk), or nullopt.
std::optional<Piece> piece_from_char(char c) noexcept;
/// Piece kind from an upper- or lower-case letter (P N B R Q K), or nullopt.
std::optional<PieceType> piece_type_from_char(char c) noexcept;

using File = int;  ///< 0 = a … 7 = h
using Rank = int;  ///< 0 = 1st rank … 7 = 8th rank

/// Squares a1 = 0 … h8 = 63, rank-major (a1, b1, …, h1, a2, …).
enum class Square : std::uint8_t {
    // clang-format off
    a1, b1, c1, d1, e1, f1, g1, h1,
    a2, b2, c2, d2, e2, f2, g2, h2,
    a3, b3, c3, d3, e3, f3, g3, h3,
    a4, b4, c4, d4, e4, f4, g4, h4,
    a5, b5, c5, d5, e5, f5, g5, h5,
    a6, b6, c6, d6, e6, f6, g6, h6,
    a7, b7, c7, d7, e7, f7, g7, h7,
    a8, b8, c8, d8, e8, f8, g8, h8,
    none
    // clang-format on
};

constexpr int index(Square s) noexcept { return static_cast<int>(s); }
constexpr Square square_at(int i) noexcept { return static_cast<Square>(i); }
constexpr Square make_square(File f, Rank r) noexcept { return static_cast<Square>(r * 8 + f); }
constexpr File file_of(Square s) noexcept { return index(s) & 7; }
constexpr Rank rank_of(Square s) noexcept { return index(s) >> 3; }
constexpr bool is_ok(Square s) noexcept { return index(s) < 64; }
/// The square seen from `c`'s side: a1 for White is a8 for Black.
constexpr Square relative_square(Color c, Square s) noexcept {
    return static_cast<Square>(index(s) ^ (c == Color::white ? 0 : 56));
}
constexpr Rank relative_rank(Color c, Rank r) noexcept { return c == Color::white ? r : 7 - r; }
constexpr Square operator+(Square s, int d) noexcept { return static_cast<Square>(index(s) + d); }
constexpr Square operator-(Square s, int d) noexcept { return static_cast<Square>(index(s) - d); }
/// Light squares have (file + rank) odd; a1 is dark.
constexpr bool is_light(Square s) noexcept { return ((file_of(s) + rank_of(s)) & 1) != 0; }

constexpr char file_char(File f) noexcept { return static_cast<char>('a' + f); }
constexpr char rank_char(Rank r) noexcept { return static_cast<char>('1' + r); }

/// "e4" for Square::e4; "-" for Square::none.
std::string to_string(Square s);
/// Parses "e4"; nullopt for anything else.
std::optional<Square> parse_square(std::string_view text) noexcept;

}  // namespace arbiter
