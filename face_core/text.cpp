// text.cpp — text as it enters and leaves every face: UTF-8 checks, messages made printable
// (control and invalid bytes escaped), FEN read tolerantly.
#include <charconv>
#include <iostream>

#include "text.hpp"

#include "arbiter/text.hpp"

namespace arbiter::face {

std::string printable(std::string_view text) { return arbiter::printable(text); }

std::size_t utf8_sequence_length(std::string_view s) noexcept { return arbiter::utf8_length_at(s, 0); }

bool is_utf8(std::string_view text) noexcept { return arbiter::is_utf8(text); }

void require_utf8(std::string_view what, const std::string& text) {
    if (!is_utf8(text))
        throw InputError(Code::not_utf8, std::string(what) + ": '" + printable(text) + "' is not valid UTF-8 text",
                         std::string(what));
}

Code move_error_code(MoveError::Kind kind) noexcept {
    switch (kind) {
        case MoveError::Kind::syntax: return Code::bad_move;
        case MoveError::Kind::illegal: return Code::illegal_move;
        case MoveError::Kind::ambiguous: return Code::ambiguous_move;
    }
    return Code::bad_move;
}

Position fen_or_throw(const std::string& fen) {
    FenReadOptions options;
    options.tolerant = true;
    auto pos = position_from_fen(fen, options);
    if (!pos) throw InputError(Code::bad_fen, pos.error().describe(), "fen", pos.error().offset);
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
