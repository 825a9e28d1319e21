// dead_json.cpp — the analysis behind `arbiter dead` and its JSON.
#include "requests/dead_json.hpp"

#include <array>
#include <charconv>
#include <chrono>
#include <cstring>

#include "json/rules_json.hpp"
#include "text.hpp"

namespace arbiter::face {

Position composed_fen_or_throw(std::string_view fen) {
    auto pos = composed_position_from_fen(fen);
    if (!pos) throw InputError(Code::bad_fen, pos.error().describe(), "fen", pos.error().offset);
    return *pos;
}

Position composed_fen_or_throw(std::string_view fen, std::string& written) {
    auto pos = composed_position_from_fen(fen, written);
    if (!pos) throw InputError(Code::bad_fen, pos.error().describe(), "fen", pos.error().offset);
    return *pos;
}

std::span<const Color> sides_of(std::string_view side) {
    static constexpr Color both[] = {Color::white, Color::black};
    if (side == "white") return {both, 1};
    if (side == "black") return {both + 1, 1};
    return both;
}

void analyse_dead(const HelpmateAnalyzer& analyzer, const Position& pos, std::span<const Color> sides, bool timed,
                  std::vector<DeadAnswer>& out) {
    out.resize(sides.size());
    for (std::size_t i = 0; i < sides.size(); ++i) {
        DeadAnswer& a = out[i];
        a.side = sides[i];
        const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
        a.verdict = analyzer.can_checkmate(pos, a.side);
        a.micros =
            timed ? std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() : 0;
        a.san.clear();
        if (!a.verdict.line.empty()) a.san = to_san_line(pos, a.verdict.line);
    }
}

std::vector<DeadAnswer> analyse_dead(const HelpmateAnalyzer& analyzer, const Position& pos,
                                     std::span<const Color> sides) {
    std::vector<DeadAnswer> out;
    analyse_dead(analyzer, pos, sides, true, out);
    return out;
}

std::optional<bool> dead_of(const std::vector<DeadAnswer>& answers) {
    for (const DeadAnswer& a : answers)
        if (a.verdict.answer == MateAbility::can_checkmate) return false;
    if (answers.size() < 2) return std::nullopt;
    for (const DeadAnswer& a : answers)
        if (a.verdict.answer != MateAbility::cannot_checkmate) return std::nullopt;
    return true;
}

Json dead_json(const Position& pos, const std::vector<DeadAnswer>& answers, bool timing) {
    // One writer for the keys and their order: the value is the text `dead --batch` writes.
    std::string text = "{";
    append_dead_members(text, pos, answers, timing);
    text += '}';
    return Json::parse(text);
}

namespace {
/// Writes into a string past its end, in room made once (the string is cut back to what was
/// written when the writer goes): a line of some 400 bytes is some 40 pieces, and appending
/// each to the string (a test of its room, a call to copy) cost more than the rest of the line.
class RawOut {
public:
    RawOut(std::string& s, std::size_t room) : s_(s), start_(s.size()) {
        s_.resize(start_ + room);
        p_ = s_.data() + start_;
    }
    RawOut(const RawOut&) = delete;
    RawOut& operator=(const RawOut&) = delete;
    ~RawOut() { s_.resize(static_cast<std::size_t>(p_ - s_.data())); }

    void put(char c) noexcept { *p_++ = c; }
    void put(std::string_view v) noexcept {
        std::memcpy(p_, v.data(), v.size());
        p_ += v.size();
    }
    void number(std::uint64_t n) noexcept { p_ = std::to_chars(p_, p_ + 20, n).ptr; }
    /// A name of the analysis's own (an answer, a proof, yes/no/unknown: ASCII letters and
    /// underscores, nothing to escape) as a JSON string.
    void name(std::string_view v) noexcept {
        put('"');
        put(v);
        put('"');
    }
    /// A string as dump() writes it (compact, UTF-8 kept): quotes and backslashes escaped,
    /// control characters as \b \t \n \f \r or \u00XX; at most 6 bytes a byte and 2 more. For
    /// the analysis's own strings (SAN, reasons); text from the input goes through the JSON
    /// library.
    void string(std::string_view s) noexcept {
        put('"');
        for (const char c : s) {
            const auto u = static_cast<unsigned char>(c);
            if (u >= 0x20 && c != '"' && c != '\\') {
                *p_++ = c;
                continue;
            }
            *p_++ = '\\';
            switch (c) {
                case '"': *p_++ = '"'; break;
                case '\\': *p_++ = '\\'; break;
                case '\b': *p_++ = 'b'; break;
                case '\t': *p_++ = 't'; break;
                case '\n': *p_++ = 'n'; break;
                case '\f': *p_++ = 'f'; break;
                case '\r': *p_++ = 'r'; break;
                default: {
                    static constexpr char hex[] = "0123456789abcdef";
                    put("u00");
                    *p_++ = hex[u >> 4];
                    *p_++ = hex[u & 15];
                }
            }
        }
        put('"');
    }

private:
    std::string& s_;
    std::size_t start_;
    char* p_;
};

/// An enum's name as a view, its length known (enum_name's text, measured once).
template <class E>
std::string_view name_view(E e) noexcept {
    static const auto table = [] {
        std::array<std::string_view, enum_count<E>> t{};
        for (std::size_t i = 0; i < t.size(); ++i) t[i] = enum_name(static_cast<E>(i));
        return t;
    }();
    const auto i = static_cast<std::size_t>(e);
    return i < table.size() ? table[i] : std::string_view(enum_name(e));
}

void append_number(std::string& out, std::uint64_t n) {
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}
}  // namespace

void append_micros(std::string& out, double micros) {
    // A time measured in nanoseconds is a whole number of thousandths: written as its decimal
    // digits with the point put in, trailing zeros dropped, ".0" for a whole number, which is the
    // shortest text that reads back as the same double, as the JSON library writes it (tested
    // against it); anything else goes through the library.
    const double thousandths = micros * 1000;
    if (micros >= 0 && thousandths < 1e15) {
        const auto k = static_cast<std::uint64_t>(thousandths + 0.5);
        if (static_cast<double>(k) / 1000 == micros) {
            append_number(out, k / 1000);
            out += '.';
            unsigned frac = static_cast<unsigned>(k % 1000);
            if (frac == 0) {
                out += '0';
            } else {
                char digits[3] = {static_cast<char>('0' + frac / 100), static_cast<char>('0' + frac / 10 % 10),
                                  static_cast<char>('0' + frac % 10)};
                std::size_t n = 3;
                while (digits[n - 1] == '0') --n;
                out.append(digits, n);
            }
            return;
        }
    }
    out += dump(Json(micros));
}

namespace {
/// The members after "fen": "dead", the verdicts and the per-side objects.
void append_verdicts(std::string& out, const std::vector<DeadAnswer>& answers, bool timing);
}  // namespace

void append_dead_members(std::string& out, const Position& pos, const std::vector<DeadAnswer>& answers, bool timing) {
    out += "\"fen\":\"";  // (a FEN has nothing to escape)
    append_fen(out, pos);
    out += '"';
    append_verdicts(out, answers, timing);
}

void append_dead_members(std::string& out, std::string_view fen, const std::vector<DeadAnswer>& answers, bool timing) {
    out += "\"fen\":\"";
    out += fen;
    out += '"';
    append_verdicts(out, answers, timing);
}

namespace {
/// append_verdicts but "microseconds", written through one RawOut.
void append_verdicts_untimed(std::string& out, const std::vector<DeadAnswer>& answers) {
    using namespace std::string_view_literals;  // (the lengths of the literals known here)
    const DeadAnswer* asked[2] = {nullptr, nullptr};
    // The room: the keys, names and numbers take under 400 bytes; a string at most 6 bytes a byte.
    std::size_t room = 512;
    for (const DeadAnswer& a : answers) {
        asked[a.side == Color::white ? 0 : 1] = &a;
        room += 6 * a.verdict.reason.size() + 2;
        for (const std::string& m : a.san) room += 6 * m.size() + 3;
    }
    RawOut w(out, room);
    auto per_side = [&](std::string_view key_and_white, auto value) {
        w.put(key_and_white);  // ,"key":{"white":
        for (int c = 0; c < 2; ++c) {
            if (c) w.put(",\"black\":"sv);
            if (asked[c])
                value(*asked[c]);
            else
                w.put("null"sv);
        }
        w.put('}');
    };
    const auto dead = dead_of(answers);
    w.put(",\"dead\":"sv);
    w.put(dead ? (*dead ? "true"sv : "false"sv) : "null"sv);
    for (int c = 0; c < 2; ++c) {
        w.put(c == 0 ? ",\"white\":"sv : ",\"black\":"sv);
        if (asked[c])
            w.name(name_view(asked[c]->verdict.answer));
        else
            w.put("null"sv);
    }
    per_side(",\"can_checkmate\":{\"white\":"sv,
             [&](const DeadAnswer& a) { w.name(yes_no_unknown(a.verdict.answer)); });
    per_side(",\"proof\":{\"white\":"sv, [&](const DeadAnswer& a) { w.name(name_view(a.verdict.proof)); });
    per_side(",\"reason\":{\"white\":"sv, [&](const DeadAnswer& a) { w.string(a.verdict.reason); });
    per_side(",\"nodes\":{\"white\":"sv, [&](const DeadAnswer& a) { w.number(a.verdict.nodes); });
    per_side(",\"helpmate\":{\"white\":"sv, [&](const DeadAnswer& a) {
        if (a.verdict.answer != MateAbility::can_checkmate) {
            w.put("null"sv);
            return;
        }
        w.put('[');
        for (std::size_t i = 0; i < a.san.size(); ++i) {
            if (i) w.put(',');
            w.string(a.san[i]);
        }
        w.put(']');
    });
}

void append_verdicts(std::string& out, const std::vector<DeadAnswer>& answers, bool timing) {
    append_verdicts_untimed(out, answers);
    if (!timing) return;
    const DeadAnswer* asked[2] = {nullptr, nullptr};
    for (const DeadAnswer& a : answers) asked[a.side == Color::white ? 0 : 1] = &a;
    out += ",\"microseconds\":{\"white\":";
    for (int c = 0; c < 2; ++c) {
        if (c) out += ",\"black\":";
        if (asked[c])
            append_micros(out, asked[c]->micros);
        else
            out += "null";
    }
    out += '}';
}
}  // namespace

}  // namespace arbiter::face
