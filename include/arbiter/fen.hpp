// fen.hpp — Forsyth-Edwards Notation: read (strict, or tolerant of missing fields) into a Setup or
// a Position, and write back, with X-FEN and Shredder-FEN castling for Chess960. Errors name the
// field and the byte offset.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "arbiter/expected.hpp"
#include "arbiter/names.hpp"
#include "arbiter/position.hpp"
#include "arbiter/setup.hpp"

namespace arbiter {

/// The six FEN fields, in order.
enum class FenField { placement, side_to_move, castling, en_passant, halfmove_clock, fullmove_number };

/// Stable name of a field, e.g. "castling".
template <>
struct EnumNames<FenField> {
    static constexpr auto names = std::to_array<const char*>(
        {"placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number"});
};
static_assert(enum_count<FenField> == std::size_t(FenField::fullmove_number) + 1);
constexpr const char* field_name(FenField f) noexcept { return enum_name(f); }

struct FenError {
    enum class Code {
        empty,             ///< nothing but white space
        bad_piece,         ///< a character that is not a piece letter, digit or '/'
        rank_too_long,     ///< a rank describes more than 8 squares
        rank_too_short,    ///< a rank describes fewer than 8 squares
        wrong_rank_count,  ///< not exactly 8 ranks
        bad_side,          ///< side to move is not 'w' or 'b'
        bad_castling,      ///< castling field is not '-' or letters KQkq / A-H / a-h
        bad_en_passant,    ///< en passant field is not '-' or a square on rank 3 or 6
        bad_halfmove,      ///< halfmove clock is not a number in range
        bad_fullmove,      ///< fullmove number is not a number ≥ 1 in range
        missing_field,     ///< fewer fields than required
        extra_field,       ///< text after the last field
        invalid_position,  ///< well-formed, but the position is not legal (see `position`)
    };
    Code code;
    FenField field;
    std::size_t offset;  ///< byte offset into the input where the problem starts
    std::string message;
    PositionError position{};  ///< set when code == invalid_position

    /// One line: "FEN castling field (byte 45): …".
    [[nodiscard]] std::string describe() const;
};

/// Stable name of an error code, e.g. "bad_castling".
template <>
struct EnumNames<FenError::Code> {
    static constexpr auto names = std::to_array<const char*>(
        {"empty", "bad_piece", "rank_too_long", "rank_too_short", "wrong_rank_count", "bad_side", "bad_castling",
         "bad_en_passant", "bad_halfmove", "bad_fullmove", "missing_field", "extra_field", "invalid_position"});
};
static_assert(enum_count<FenError::Code> == std::size_t(FenError::Code::invalid_position) + 1);
constexpr const char* code_name(FenError::Code c) noexcept { return enum_name(c); }

/// The largest halfmove clock and fullmove number a FEN may give (bad_halfmove / bad_fullmove
/// beyond it): a game has at most 17,697 plies under 9.6.2, so a counter read within this range
/// never wraps however long the game goes on.
inline constexpr std::uint32_t max_fen_counter = 1'000'000;

struct FenReadOptions {
    /// Accept FENs whose trailing fields are missing (castling, en passant and the counters
    /// default to "-", "-", 0 and 1) and a fullmove number of 0.
    bool tolerant = false;
    /// Read castling as Chess960 (X-FEN/Shredder letters are always understood).
    bool chess960 = false;
};

/// Parses a FEN into an unvalidated Setup. Errors: FenError (syntax only).
Expected<Setup, FenError> parse_fen(std::string_view fen, FenReadOptions options = {});
/// Parses and validates. Errors: FenError (syntax, or invalid_position).
Expected<Position, FenError> position_from_fen(std::string_view fen, FenReadOptions options = {},
                                               SetupRepairs repairs = {});
/// A composed position for the dead-position question (`dead --fen`): tolerant reading (counters
/// may be missing), surplus pieces and checks no last move could have given accepted, since they
/// do not change what can follow.
Expected<Position, FenError> composed_position_from_fen(std::string_view fen);
/// The same, and `written` the position's FEN as to_fen(position) writes it (made from the text
/// read where it can be: for readers that echo the FEN of every line, such as `dead --batch`).
Expected<Position, FenError> composed_position_from_fen(std::string_view fen, std::string& written);

struct FenWriteOptions {
    enum class Ep { always, legal };
    /// `always` writes the square after every double step (the FEN standard); `legal` only when
    /// an en passant capture is legal.
    Ep ep = Ep::always;
    /// Castling letters: X-FEN (KQkq, file letters only when ambiguous) or Shredder-FEN (files).
    bool shredder = false;
};

std::string to_fen(const Setup& setup, FenWriteOptions options = {});
std::string to_fen(const Position& pos, FenWriteOptions options = {});
/// to_fen's text appended to `out` (for writers that build a line of their own).
void append_fen(std::string& out, const Setup& setup, FenWriteOptions options = {});
void append_fen(std::string& out, const Position& pos, FenWriteOptions options = {});

inline constexpr std::string_view start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace arbiter
