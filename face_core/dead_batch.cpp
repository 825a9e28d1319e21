// dead_batch.cpp — `dead --batch` (dead_batch.hpp): the lines split, each answered or refused.
#include "dead_batch.hpp"

#include <string_view>

#include "dead_json.hpp"
#include "errors.hpp"
#include "line_reader.hpp"
#include "text.hpp"

namespace arbiter::face {
namespace {

bool all_of(std::string_view s, std::string_view allowed) {
    return !s.empty() && s.find_first_not_of(allowed) == std::string_view::npos;
}

struct BatchLine {
    std::string fen, side, id;
};

// Splits "FEN [white|black|both] [ID…]" into `out` (whose strings keep their room from line to
// line): the FEN is its placement and side to move and then those of castling, en passant,
// halfmove clock and fullmove number that follow in order; tokens are separated by blanks and
// tabs, and joined again by one blank.
void split_line(std::string_view line, BatchLine& out) {
    out.fen.clear();
    out.side.clear();
    out.id.clear();
    std::size_t i = 0;
    auto next = [&]() -> std::string_view {  // the next token (empty at the end)
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        return line.substr(start, i - start);
    };
    std::string_view t = next();
    for (int k = 0; k < 2 && !t.empty(); ++k, t = next()) {
        if (k) out.fen += ' ';
        out.fen += t;
    }
    if (out.fen.find(' ') != std::string::npos) {  // both leading fields: the optional ones may follow
        auto field = [&](auto&& looks_like) {
            if (t.empty() || !looks_like(t)) return false;
            out.fen += ' ';
            out.fen += t;
            t = next();
            return true;
        };
        field([](std::string_view f) { return f == "-" || all_of(f, "KQkqABCDEFGHabcdefgh"); }) &&
            field([](std::string_view f) {
                return f == "-" || (f.size() == 2 && f[0] >= 'a' && f[0] <= 'h' && (f[1] == '3' || f[1] == '6'));
            }) &&
            field([](std::string_view f) { return all_of(f, "0123456789"); }) &&
            field([](std::string_view f) { return all_of(f, "0123456789"); });
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

}  // namespace

void dead_batch(const HelpmateAnalyzer& analyzer, ByteSource& src, const std::string& side, bool timing,
                std::ostream& out) {
    LineReader reader(src, dead_batch_max_line_bytes, "dead --batch");
    std::string line;
    std::uint64_t number = 0, failed = 0, first_failed = 0;
    std::string text;  // an answer, written straight as JSON text (append_dead_members)
    BatchLine b;       // the fields of the line (kept from line to line for their room)
    for (LineReader::Got got; (got = reader.next(line)) != LineReader::Got::end;) {
        ++number;
        Json j;
        auto refuse = [&](const char* code, const std::string& message, const std::string& id) {
            j = Json{{"line", number}};
            if (!id.empty()) j["id"] = printable(id);
            j["error"] = Json{{"code", code}, {"message", printable(message)}};
            if (!failed++) first_failed = number;
        };
        if (got == LineReader::Got::too_long) {
            refuse("line_too_long",
                   "line " + std::to_string(number) + " is longer than " + std::to_string(dead_batch_max_line_bytes) +
                       " bytes, the limit of a batch line (a FEN with a side is under 120); skipped",
                   "");
        } else {
            const auto first = line.find_first_not_of(" \t");
            if (first == std::string::npos || line[first] == '#') continue;
            split_line(std::string_view(line).substr(first), b);
            if (!is_utf8(line)) {
                refuse("not_utf8", "line " + std::to_string(number) + " is not valid UTF-8: " + line, b.id);
            } else {
                try {
                    const Position pos = composed_fen_or_throw(b.fen);
                    const auto answers = analyse_dead(analyzer, pos, sides_of(b.side.empty() ? side : b.side));
                    text.clear();  // (the string keeps its room from line to line)
                    text += "{\"line\":";
                    text += std::to_string(number);
                    if (!b.id.empty()) text += ",\"id\":" + dump(Json(b.id));
                    text += ',';
                    append_dead_members(text, pos, answers, timing);
                    text += "}\n";
                    out << text;
                    continue;
                } catch (const InputError& e) {
                    refuse("bad_fen", e.message(), b.id);
                }
            }
        }
        out << dump(j) << '\n';
    }
    out.flush();
    if (failed)
        throw InputError("dead --batch: " + std::to_string(failed) + " of " + std::to_string(number) +
                         (number == 1 ? " line" : " lines") + " failed (the first: line " +
                         std::to_string(first_failed) + "); each has an error object above");
}

}  // namespace arbiter::face
