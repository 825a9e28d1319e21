// text.cpp — text as it enters and leaves every face: UTF-8 checks, messages made printable
// (control and invalid bytes escaped), FEN read tolerantly.
#include <charconv>
#include <iostream>

#include "text.hpp"

namespace arbiter::face {

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    static constexpr char hex[] = "0123456789abcdef";
    auto escape = [&](unsigned char c) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
    };
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7F)
                escape(c);
            else
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        const std::size_t n = utf8_sequence_length(text.substr(i));
        if (n == 0) {
            escape(c);
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::size_t utf8_sequence_length(std::string_view s) noexcept {
    if (s.empty()) return 0;
    const auto c = static_cast<unsigned char>(s[0]);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        cp = c & 0x1Fu;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0Fu;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    if (s.size() < n) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3Fu);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

bool is_utf8(std::string_view text) noexcept {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text.substr(i));
        if (n == 0) return false;
        i += n;
    }
    return true;
}

void require_utf8(std::string_view what, const std::string& text) {
    if (!is_utf8(text))
        throw InputError("not_utf8", std::string(what) + ": '" + printable(text) + "' is not valid UTF-8 text",
                         std::string(what));
}

const char* move_error_code(MoveError::Kind kind) noexcept {
    switch (kind) {
        case MoveError::Kind::syntax: return "bad_move";
        case MoveError::Kind::illegal: return "illegal_move";
        case MoveError::Kind::ambiguous: return "ambiguous_move";
    }
    return "bad_move";
}

Position fen_or_throw(const std::string& fen) {
    FenReadOptions options;
    options.tolerant = true;
    auto pos = position_from_fen(fen, options);
    if (!pos) throw InputError("bad_fen", pos.error().describe(), "fen", pos.error().offset);
    // Missing counters are common and harmless; a missing castling field silently drops rights.
    std::size_t fields = 0;
    for (std::size_t i = 0; i < fen.size();) {
        i = fen.find_first_not_of(" \t", i);
        if (i == std::string::npos) break;
        ++fields;
        i = fen.find_first_of(" \t", i);
    }
    if (fields < 3 && warning_sink())
        warning_sink()("the FEN has no castling field; read as '-' (no castling rights) and no en passant square");
    return *pos;
}

std::function<void(std::string_view)>& warning_sink() {
    static std::function<void(std::string_view)> sink;
    return sink;
}

}  // namespace arbiter::face
