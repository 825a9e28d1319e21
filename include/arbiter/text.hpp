// text.hpp — text in messages: UTF-8 checked byte by byte, shown as text where it is text (control
// bytes and bytes that are not UTF-8 escaped as \xNN), and long input cut to a short excerpt, so
// that a message never echoes megabytes of what it refuses. Used by the library's own messages
// (SAN, PGN) and by every face (face_core/text.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace arbiter {

/// Length of the valid UTF-8 sequence at s[i] (1 for ASCII), or 0 when the bytes there are not
/// UTF-8 (a stray continuation byte, a cut sequence, an overlong form, a surrogate, > U+10FFFF).
std::size_t utf8_length_at(std::string_view s, std::size_t i) noexcept;

/// True when every byte of `text` belongs to a valid UTF-8 sequence.
bool is_utf8(std::string_view text) noexcept;

/// `text` made safe for a one-line message: control bytes and bytes that are not UTF-8 become
/// \xNN; valid UTF-8 is kept.
std::string printable(std::string_view text);

/// printable(text), cut after about `max` bytes (at a character's end) when it is longer, with
/// its length said: "aaaaaaaa… (10000000 bytes)". For input echoed in a message.
std::string excerpt(std::string_view text, std::size_t max = 48);

}  // namespace arbiter
