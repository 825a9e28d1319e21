// text.hpp — text as it enters and leaves every face: UTF-8 checks, messages made printable
// (control and invalid bytes escaped), the error code of a move that does not read, a FEN read
// tolerantly or refused with the field and byte at fault.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "arbiter/arbiter.hpp"
#include "errors.hpp"

namespace arbiter::face {

/// Text made safe for a one-line message: control bytes and bytes that are not UTF-8 become
/// \xNN; valid UTF-8 is kept.
std::string printable(std::string_view text);
/// Length of the UTF-8 sequence at the start of `s`, or 0 when it is not valid UTF-8.
std::size_t utf8_sequence_length(std::string_view s) noexcept;
/// True when every byte of `text` belongs to a valid UTF-8 sequence.
bool is_utf8(std::string_view text) noexcept;
/// Throws InputError "WHAT: 'text' is not valid UTF-8 text" unless `text` is UTF-8.
void require_utf8(std::string_view what, const std::string& text);

/// The error code of a move that does not read: bad_move (syntax), illegal_move, ambiguous_move.
Code move_error_code(MoveError::Kind kind) noexcept;

/// Parses a FEN for the command line (tolerant of missing counters) or throws InputError
/// naming the field and byte.
Position fen_or_throw(const std::string& fen);

/// Where the face core's warnings go (a FEN read with no castling field, …): nowhere unless a face
/// sets it. The command line writes them on stderr; a library face (Python, JavaScript) keeps
/// quiet, as a library should. Set once, before any work starts.
std::function<void(std::string_view)>& warning_sink();

}  // namespace arbiter::face
