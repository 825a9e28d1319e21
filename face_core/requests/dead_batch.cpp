// dead_batch.cpp — `dead --batch` (dead_batch.hpp): the lines split, each answered or refused.
#include "requests/dead_batch.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "line_reader.hpp"
#include "requests/dead_json.hpp"
#include "text.hpp"

namespace arbiter::face {
namespace {

/// The bytes a castling field (KQkq, X-FEN and Shredder-FEN file letters) and a counter may hold.
constexpr std::uint8_t castling_byte = 1, digit_byte = 2;
constexpr std::array<std::uint8_t, 256> byte_kinds = [] {
    std::array<std::uint8_t, 256> t{};
    for (char c : std::string_view("KQkqABCDEFGHabcdefgh")) t[static_cast<unsigned char>(c)] |= castling_byte;
    for (char c = '0'; c <= '9'; ++c) t[static_cast<unsigned char>(c)] |= digit_byte;
    return t;
}();

bool all_of(std::string_view s, std::uint8_t kind) {
    if (s.empty()) return false;
    for (char c : s)
        if (!(byte_kinds[static_cast<unsigned char>(c)] & kind)) return false;
    return true;
}

struct BatchLine {
    std::string_view fen;  ///< the FEN: a view of the line, or of `joined`
    std::string_view side;
    std::string id;
    std::string joined;  ///< the FEN's fields joined by one blank, when the line has other blanks
};

// Splits "FEN [white|black|both] [ID…]" into `out` (whose strings keep their room from line to
// line): the FEN is its placement and side to move and then those of castling, en passant,
// halfmove clock and fullmove number that follow in order; tokens are separated by blanks and
// tabs, and joined again by one blank (where they are so already, the FEN is a view of `line`).
void split_line(std::string_view line, BatchLine& out) {
    out.side = {};
    out.id.clear();
    std::size_t i = 0;
    auto next = [&]() -> std::string_view {  // the next token (empty at the end)
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        return line.substr(start, i - start);
    };
    std::string_view fields[6];
    std::size_t count = 0;
    std::string_view t = next();
    for (; count < 2 && !t.empty(); t = next()) fields[count++] = t;
    if (count == 2) {  // both leading fields: the optional ones may follow
        auto field = [&](auto&& looks_like) {
            if (t.empty() || !looks_like(t)) return false;
            fields[count++] = t;
            t = next();
            return true;
        };
        field([](std::string_view f) { return f == "-" || all_of(f, castling_byte); }) && field([](std::string_view f) {
            return f == "-" || (f.size() == 2 && f[0] >= 'a' && f[0] <= 'h' && (f[1] == '3' || f[1] == '6'));
        }) &&
            field([](std::string_view f) { return all_of(f, digit_byte); }) &&
            field([](std::string_view f) { return all_of(f, digit_byte); });
    }
    bool single_blanks = true;  // each field after the first one blank after the one before
    for (std::size_t k = 1; k < count; ++k)
        single_blanks = single_blanks && fields[k].data() == fields[k - 1].data() + fields[k - 1].size() + 1 &&
                        fields[k].data()[-1] == ' ';
    if (count == 0) {
        out.fen = {};
    } else if (single_blanks) {
        out.fen = std::string_view(
            fields[0].data(),
            static_cast<std::size_t>(fields[count - 1].data() + fields[count - 1].size() - fields[0].data()));
    } else {
        out.joined.clear();
        for (std::size_t k = 0; k < count; ++k) {
            if (k) out.joined += ' ';
            out.joined += fields[k];
        }
        out.fen = out.joined;
    }
    if (t == "white" || t == "black" || t == "both") {
        out.side = t;
        t = next();
    }
    for (; !t.empty(); t = next()) {
        if (!out.id.empty()) out.id += ' ';
        out.id += t;
    }
}

void append_number(std::string& out, std::uint64_t n) {
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}

}  // namespace

void dead_batch(const HelpmateAnalyzer& analyzer, ByteSource& src, const std::string& side, bool timing,
                std::ostream& out) {
    LineReader reader(src, dead_batch_max_line_bytes, "dead --batch");
    std::string_view line;  // (a view of the reader's buffer, valid until the next line)
    std::uint64_t number = 0, failed = 0, first_failed = 0;
    // The answers, written straight as JSON text (append_dead_members) and handed to `out` some
    // 64 KiB at a time: everything answered is written before a read error is thrown.
    constexpr std::size_t flush_at = std::size_t{1} << 16;
    std::string text;
    text.reserve(flush_at + 4096);
    auto flush = [&] {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        text.clear();
    };
    BatchLine b;                      // the fields of the line (kept from line to line for their room)
    std::vector<DeadAnswer> answers;  // (likewise)
    struct {
        bool valid = false;
        std::string fen_in, fen_out;  // the FEN as given and as written
        Position pos;
    } last;  // the position of the last line answered, which the next line often asks of again
    auto answer_all = [&] {
        for (LineReader::Got got; (got = reader.next(line)) != LineReader::Got::end;) {
            ++number;
            auto refuse = [&](const char* code, const std::string& message, const std::string& id) {
                Json j{{"line", number}};
                if (!id.empty()) j["id"] = printable(id);
                j["error"] = Json{{"code", code}, {"message", printable(message)}};
                if (!failed++) first_failed = number;
                text += dump(j);
                text += '\n';
            };
            if (got == LineReader::Got::too_long) {
                refuse("line_too_long",
                       "line " + std::to_string(number) + " is longer than " +
                           std::to_string(dead_batch_max_line_bytes) +
                           " bytes, the limit of a batch line (a FEN with a side is under 120); skipped",
                       "");
            } else {
                const auto first = line.find_first_not_of(" \t");
                if (first == std::string_view::npos || line[first] == '#') continue;
                split_line(line.substr(first), b);
                // A line that is not UTF-8 is refused as such, whatever else is wrong with it. A
                // FEN that reads is ASCII, and so are the side and the blanks, so then only the
                // id is checked (the whole line only when the FEN does not read).
                auto not_utf8 = [&] {
                    refuse("not_utf8", "line " + std::to_string(number) + " is not valid UTF-8: " + std::string(line),
                           b.id);
                };
                try {
                    if (!last.valid || b.fen != last.fen_in) {  // (a FEN asked again is read once)
                        last.valid = false;
                        last.pos = composed_fen_or_throw(b.fen, last.fen_out);
                        last.fen_in = b.fen;
                        last.valid = true;
                    }
                } catch (const InputError& e) {
                    if (!is_utf8(line))
                        not_utf8();
                    else
                        refuse("bad_fen", e.message(), b.id);
                    if (text.size() >= flush_at) flush();
                    continue;
                }
                if (!b.id.empty() && !is_utf8(b.id)) {
                    not_utf8();
                } else {
                    const Position& pos = last.pos;
                    analyse_dead(analyzer, pos, sides_of(b.side.empty() ? std::string_view(side) : b.side), timing,
                                 answers);
                    text += "{\"line\":";
                    append_number(text, number);
                    if (!b.id.empty()) {
                        text += ",\"id\":";
                        text += dump(Json(b.id));
                    }
                    text += ',';
                    append_dead_members(text, last.fen_out, answers, timing);
                    text += "}\n";
                }
            }
            if (text.size() >= flush_at) flush();
        }
    };
    try {
        answer_all();
    } catch (...) {  // a read error (or no memory): what was answered is written first
        flush();
        out.flush();
        throw;
    }
    flush();
    out.flush();
    if (failed)
        throw InputError("dead --batch: " + std::to_string(failed) + " of " + std::to_string(number) +
                         (number == 1 ? " line" : " lines") + " failed (the first: line " +
                         std::to_string(first_failed) + "); each has an error object above");
}

}  // namespace arbiter::face
