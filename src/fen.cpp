// fen.cpp — FEN reader and writer.
#include "arbiter/fen.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cstring>

namespace arbiter {

std::string FenError::describe() const {
    return std::string("FEN ") + field_name(field) + " field (byte " + std::to_string(offset) + "): " + message;
}

namespace {

struct Token {
    std::string_view text;
    std::size_t offset;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// The first seven blank-separated fields of a FEN (the six of the standard, and a seventh only
/// to say where unexpected text begins), without allocating.
struct Tokens {
    std::array<Token, 7> items;
    std::size_t count = 0;
    [[nodiscard]] bool empty() const noexcept { return count == 0; }
    [[nodiscard]] std::size_t size() const noexcept { return count; }
    const Token& operator[](std::size_t i) const noexcept { return items[i]; }
};

Tokens split(std::string_view s) {
    Tokens out;
    std::size_t i = 0;
    while (i < s.size() && out.count < out.items.size()) {
        while (i < s.size() && is_space(s[i])) ++i;
        if (i >= s.size()) break;
        const std::size_t start = i;
        while (i < s.size() && !is_space(s[i])) ++i;
        out.items[out.count++] = {s.substr(start, i - start), start};
    }
    return out;
}

/// The piece of each FEN letter (PNBRQK, pnbrqk), Piece::none for every other byte.
constexpr std::array<Piece, 256> piece_of_letter = [] {
    std::array<Piece, 256> table{};
    table.fill(Piece::none);
    for (Color c : {Color::white, Color::black})
        for (int t = 0; t < 6; ++t) {
            const Piece p = make_piece(c, static_cast<PieceType>(t));
            table[static_cast<unsigned char>(fen_char(p))] = p;
        }
    return table;
}();

/// The FEN letter of each piece (its index), '?' for the values that are no piece.
constexpr std::array<char, 16> letter_of_piece = [] {
    std::array<char, 16> table{};
    table.fill('?');
    for (Color c : {Color::white, Color::black})
        for (int t = 0; t < 6; ++t) {
            const Piece p = make_piece(c, static_cast<PieceType>(t));
            table[static_cast<std::size_t>(index(p))] = fen_char(p);
        }
    return table;
}();

/// How many squares each placement byte stands for: 1 for a piece letter, its value for a
/// digit 1 to 8, 0 for any other byte.
constexpr std::array<std::uint8_t, 256> squares_of_letter = [] {
    std::array<std::uint8_t, 256> table{};
    for (std::size_t c = 0; c < 256; ++c)
        if (piece_of_letter[c] != Piece::none) table[c] = 1;
    for (int d = 1; d <= 8; ++d) table['0' + d] = static_cast<std::uint8_t>(d);
    return table;
}();

Unexpected<FenError> fail(FenError::Code code, FenField field, std::size_t offset, std::string message) {
    return Unexpected(FenError{code, field, offset, std::move(message), {}});
}

std::string quote(char c) {
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) {
        static const char* hex = "0123456789abcdef";
        return std::string("byte 0x") + hex[(static_cast<unsigned char>(c) >> 4)] + hex[c & 15];
    }
    return std::string("'") + c + "'";
}

}  // namespace

namespace {
/// What the reader saw of the placement: its text, and whether it is written as to_fen writes
/// it (no two digits in a row, which tolerant reading accepts: a valid placement has no other
/// second spelling).
struct PlacementNote {
    std::string_view text;
    bool canonical = true;
};

Expected<Setup, FenError> parse_fen_noting(std::string_view fen, FenReadOptions options, PlacementNote* note) {
    using C = FenError::Code;
    const auto tokens = split(fen);
    if (tokens.empty()) return fail(C::empty, FenField::placement, 0, "the FEN is empty");

    Setup setup;
    // 1. Placement, rank 8 first.
    {
        const Token& t = tokens[0];
        if (note) note->text = t.text;
        int rank = 7, file = 0;
        // Two digits in a row (a refusal, or in tolerant reading a split run of empty squares)
        // are noted without a test per letter: `pairs` gathers them, and a refusal found later
        // in the text gives way to the first of them, which comes before it.
        unsigned last_was_digit = 0, pairs = 0;
        auto first_pair = [&]() -> Unexpected<FenError> {
            std::size_t i = 1;
            while (!(t.text[i] >= '1' && t.text[i] <= '8' && t.text[i - 1] >= '1' && t.text[i - 1] <= '8')) ++i;
            return fail(C::bad_piece, FenField::placement, t.offset + i, "two digits in a row");
        };
        auto refuse = [&](Unexpected<FenError> e) { return pairs && !options.tolerant ? first_pair() : e; };
        for (std::size_t i = 0; i < t.text.size(); ++i) {
            const char c = t.text[i];
            const std::size_t at = t.offset + i;
            if (c == '/') {
                if (file < 8)
                    return refuse(
                        fail(C::rank_too_short, FenField::placement, at,
                             "rank " + std::to_string(rank + 1) + " has only " + std::to_string(file) + " squares"));
                if (rank == 0) return refuse(fail(C::wrong_rank_count, FenField::placement, at, "more than 8 ranks"));
                --rank;
                file = 0;
                last_was_digit = 0;
            } else if (const int width = squares_of_letter[static_cast<unsigned char>(c)]) {
                // A piece or a digit, taken the same way (no test of which: they alternate
                // unpredictably): the letter's piece (none for a digit) goes on the square,
                // and the file moves on by the squares the letter stands for.
                const unsigned digit = c <= '8';
                pairs |= digit & last_was_digit;
                if (file + width > 8)
                    return refuse(fail(C::rank_too_long, FenField::placement, at,
                                       "rank " + std::to_string(rank + 1) + " has more than 8 squares"));
                setup.board[rank * 8 + file] = piece_of_letter[static_cast<unsigned char>(c)];
                file += width;
                last_was_digit = digit;
            } else {
                return refuse(
                    fail(C::bad_piece, FenField::placement, at, "unexpected " + quote(c) + " in the piece placement"));
            }
        }
        if (pairs) {
            if (!options.tolerant) return first_pair();
            if (note) note->canonical = false;
        }
        const std::size_t end = t.offset + t.text.size();
        if (rank > 0)
            return fail(C::wrong_rank_count, FenField::placement, end,
                        "only " + std::to_string(8 - rank) + " ranks, 8 expected");
        if (file < 8)
            return fail(C::rank_too_short, FenField::placement, end,
                        "rank 1 has only " + std::to_string(file) + " squares");
    }

    const std::size_t needed = options.tolerant ? 2 : 6;
    if (tokens.size() < needed) {
        const FenField missing = static_cast<FenField>(tokens.size());
        return fail(C::missing_field, missing, fen.size(),
                    std::string("the ") + field_name(missing) + " field is missing");
    }
    if (tokens.size() > 6)
        return fail(C::extra_field, FenField::fullmove_number, tokens[6].offset,
                    "unexpected text after the fullmove number");

    // 2. Side to move.
    {
        const Token& t = tokens[1];
        if (t.text == "w")
            setup.turn = Color::white;
        else if (t.text == "b")
            setup.turn = Color::black;
        else
            return fail(C::bad_side, FenField::side_to_move, t.offset,
                        "expected 'w' or 'b', found '" + std::string(t.text) + "'");
    }

    // 3. Castling: '-', or KQkq (outermost rook, X-FEN), or file letters (Shredder-FEN).
    setup.chess960 = options.chess960;
    if (tokens.size() > 2 && tokens[2].text != "-") {
        const Token& t = tokens[2];
        for (std::size_t i = 0; i < t.text.size(); ++i) {
            const char c = t.text[i];
            const std::size_t at = t.offset + i;
            const Color color = (c >= 'a' && c <= 'z') ? Color::black : Color::white;
            const Rank back = color == Color::white ? 0 : 7;
            const char lower = static_cast<char>(c | 0x20);
            Square rook;
            if (lower == 'k' || lower == 'q') {
                const bool kingside = lower == 'k';
                // The outermost rook on that side of the king; the standard corner otherwise
                // (validation then reports the missing rook). A rook in the corner is the
                // outermost whatever else stands on the rank (the usual case: no search).
                rook = make_square(kingside ? 7 : 0, back);
                const bool in_corner = setup.board[index(rook)] == make_piece(color, PieceType::rook);
                Bitboard rooks_on_rank;
                int king_file = -1;
                if (!in_corner)
                    for (int f = 0; f < 8; ++f) {
                        const Piece p = setup.board[back * 8 + f];
                        if (p == make_piece(color, PieceType::rook)) rooks_on_rank |= make_square(f, back);
                        if (p == make_piece(color, PieceType::king)) king_file = f;
                    }
                if (king_file >= 0) {
                    for (int f = kingside ? 7 : 0; kingside ? f > king_file : f < king_file; f += kingside ? -1 : 1) {
                        if (rooks_on_rank.contains(make_square(f, back))) {
                            rook = make_square(f, back);
                            break;
                        }
                    }
                }
            } else if (lower >= 'a' && lower <= 'h') {
                rook = make_square(lower - 'a', back);
                setup.chess960 = true;
            } else {
                return fail(C::bad_castling, FenField::castling, at,
                            "unexpected " + quote(c) + " in the castling field");
            }
            if (setup.castling_rooks.contains(rook))
                return fail(C::bad_castling, FenField::castling, at, "castling right " + quote(c) + " given twice");
            setup.castling_rooks |= rook;
        }
    }

    // 4. En passant.
    if (tokens.size() > 3 && tokens[3].text != "-") {
        const Token& t = tokens[3];
        const auto sq = parse_square(t.text);
        if (!sq)
            return fail(C::bad_en_passant, FenField::en_passant, t.offset,
                        "expected '-' or a square, found '" + std::string(t.text) + "'");
        if (rank_of(*sq) != 2 && rank_of(*sq) != 5)
            return fail(C::bad_en_passant, FenField::en_passant, t.offset,
                        "en passant square " + std::string(t.text) + " is not on rank 3 or 6");
        setup.ep_square = *sq;
    }

    // 5 and 6. Counters.
    auto parse_number = [&](std::size_t i, FenField field, C code, std::uint32_t& out) -> std::optional<FenError> {
        const Token& t = tokens[i];
        std::uint32_t v = 0;
        const auto* first = t.text.data();
        const auto* last = first + t.text.size();
        const auto r = std::from_chars(first, last, v);
        // Counters stay far from std::uint32_t's end, so that no game played on wraps them.
        if (r.ec == std::errc::result_out_of_range || (r.ec == std::errc() && v > max_fen_counter))
            return FenError{code,
                            field,
                            t.offset,
                            std::string(field_name(field)) + " '" + std::string(t.text) + "' is too large (at most " +
                                std::to_string(max_fen_counter) + ")",
                            {}};
        if (r.ec != std::errc() || r.ptr != last || t.text[0] == '+')
            return FenError{code,
                            field,
                            t.offset + static_cast<std::size_t>(r.ptr - first),
                            std::string(field_name(field)) + " must be a number, found '" + std::string(t.text) + "'",
                            {}};
        out = v;
        return std::nullopt;
    };
    if (tokens.size() > 4)
        if (auto e = parse_number(4, FenField::halfmove_clock, C::bad_halfmove, setup.halfmove_clock))
            return Unexpected(*e);
    if (tokens.size() > 5) {
        if (auto e = parse_number(5, FenField::fullmove_number, C::bad_fullmove, setup.fullmove_number))
            return Unexpected(*e);
        if (setup.fullmove_number == 0) {
            if (!options.tolerant)
                return fail(C::bad_fullmove, FenField::fullmove_number, tokens[5].offset,
                            "fullmove number must be at least 1");
            setup.fullmove_number = 1;
        }
    }
    return setup;
}
}  // namespace

Expected<Setup, FenError> parse_fen(std::string_view fen, FenReadOptions options) {
    return parse_fen_noting(fen, options, nullptr);
}

namespace {
// How a composed position is read: tolerant, surplus pieces and impossible checks accepted.
constexpr FenReadOptions composed_read{.tolerant = true, .chess960 = false};
constexpr SetupRepairs composed_repairs{.drop_invalid_ep_square = false,
                                        .drop_invalid_castling = false,
                                        .allow_impossible_check = true,
                                        .allow_too_many_pieces = true};
}  // namespace

Expected<Position, FenError> composed_position_from_fen(std::string_view fen) {
    return position_from_fen(fen, composed_read, composed_repairs);
}

namespace {
/// The Position of a Setup read from `fen`, its problems as a FenError pointing into `fen`.
Expected<Position, FenError> validated(std::string_view fen, const Setup& setup, SetupRepairs repairs) {
    auto pos = Position::from_setup(setup, repairs);
    if (!pos) {
        // A single problem that one field alone causes points at that field; anything else
        // points at the placement.
        FenField field = FenField::placement;
        const auto& e = pos.error();
        if (e.problems == static_cast<std::uint32_t>(PositionProblem::invalid_ep_square)) field = FenField::en_passant;
        if (e.problems == static_cast<std::uint32_t>(PositionProblem::invalid_castling_rights))
            field = FenField::castling;
        if (e.problems == static_cast<std::uint32_t>(PositionProblem::opposite_check)) field = FenField::side_to_move;
        const auto tokens = split(fen);
        const auto i = static_cast<std::size_t>(field);
        const std::size_t offset = i < tokens.size() ? tokens[i].offset : 0;
        return Unexpected(FenError{FenError::Code::invalid_position, field, offset, e.message(), e});
    }
    return std::move(pos).value();
}
}  // namespace

Expected<Position, FenError> position_from_fen(std::string_view fen, FenReadOptions options, SetupRepairs repairs) {
    auto setup = parse_fen(fen, options);
    if (!setup) return Unexpected(setup.error());
    return validated(fen, *setup, repairs);
}

namespace {
/// The placement field of `s` written at `out` (at most 71 bytes); returns its end.
char* write_placement(char* out, const Setup& s) noexcept {
    // Pieces visited, not squares, and no test of what comes next: the count of empty squares
    // before a piece is always written and kept only when it is not 0.
    const std::uint64_t occupied = s.occupied().bits;
    for (int rank = 7; rank >= 0; --rank) {
        unsigned row = static_cast<unsigned>(occupied >> (rank * 8)) & 0xFF;
        int file = 0;
        while (row) {
            const int f = std::countr_zero(row);
            row &= row - 1;
            *out = static_cast<char>('0' + f - file);
            out += f > file;
            *out++ = letter_of_piece[index(s.board[rank * 8 + f]) & 15];
            file = f + 1;
        }
        *out = static_cast<char>('0' + 8 - file);
        out += file < 8;
        *out = '/';
        out += rank > 0;
    }
    return out;
}

/// The fields after the placement (" w KQkq - 0 1") appended to `fen`.
void append_after_placement(std::string& fen, const Setup& s, FenWriteOptions options) {
    // Up to the counters into a buffer first (at most 3 + 16 + 3 + 1 bytes).
    char buf[32];
    char* out = buf;
    *out++ = ' ';
    *out++ = s.turn == Color::white ? 'w' : 'b';
    *out++ = ' ';
    if (!s.castling_rooks) {
        *out++ = '-';
    } else {
        for (Color c : {Color::white, Color::black}) {
            const Rank back = c == Color::white ? 0 : 7;
            int king_file = -1;
            for (int f = 0; f < 8; ++f)
                if (s.board[back * 8 + f] == make_piece(c, PieceType::king)) king_file = f;
            auto letter = [&](char base) { return c == Color::white ? base : static_cast<char>(base + ('a' - 'A')); };
            // King side first (K before Q), as the FEN standard orders them.
            for (int f = 7; f >= 0; --f) {
                const Square sq = make_square(f, back);
                if (!s.castling_rooks.contains(sq)) continue;
                const bool kingside = f > king_file;
                bool outermost = true;
                for (int g = kingside ? f + 1 : f - 1; g >= 0 && g < 8; g += kingside ? 1 : -1)
                    if (s.board[back * 8 + g] == make_piece(c, PieceType::rook)) outermost = false;
                if (options.shredder || !outermost || king_file < 0)
                    *out++ = letter(static_cast<char>('A' + f));
                else
                    *out++ = letter(kingside ? 'K' : 'Q');
            }
        }
    }
    *out++ = ' ';
    if (!is_ok(s.ep_square)) {
        *out++ = '-';
    } else {
        *out++ = static_cast<char>('a' + file_of(s.ep_square));
        *out++ = static_cast<char>('1' + rank_of(s.ep_square));
    }
    *out++ = ' ';
    fen.append(buf, out);
    char counters[24];  // two numbers of at most 10 digits with a blank between
    char* c = std::to_chars(counters, counters + 10, s.halfmove_clock).ptr;
    *c++ = ' ';
    c = std::to_chars(c, c + 10, s.fullmove_number).ptr;
    fen.append(counters, c);
}
}  // namespace

void append_fen(std::string& fen, const Setup& s, FenWriteOptions options) {
    char placement[72];
    fen.append(placement, write_placement(placement, s));
    append_after_placement(fen, s, options);
}

void append_fen(std::string& fen, const Position& pos, FenWriteOptions options) {
    Setup s = pos.to_setup();
    if (options.ep == FenWriteOptions::Ep::legal) s.ep_square = pos.legal_ep_square();
    append_fen(fen, s, options);
}

std::string to_fen(const Setup& s, FenWriteOptions options) {
    std::string fen;
    fen.reserve(96);
    append_fen(fen, s, options);
    return fen;
}

std::string to_fen(const Position& pos, FenWriteOptions options) {
    std::string fen;
    fen.reserve(96);
    append_fen(fen, pos, options);
    return fen;
}

Expected<Position, FenError> composed_position_from_fen(std::string_view fen, std::string& written) {
    PlacementNote note;
    auto setup = parse_fen_noting(fen, composed_read, &note);
    if (!setup) return Unexpected(setup.error());
    auto pos = validated(fen, *setup, composed_repairs);
    if (!pos) return pos;
    // A placement read as to_fen writes it is copied; only the fields after it are written.
    written.clear();
    if (note.canonical) {
        written.append(note.text);
        append_after_placement(written, pos->to_setup(), {});
    } else {
        append_fen(written, *pos);
    }
    return pos;
}

}  // namespace arbiter
