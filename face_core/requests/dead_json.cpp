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
    /// A time as append_micros writes it (at most 32 bytes).
    void micros(double us) {
        std::string text;
        append_micros(text, us);
        put(std::string_view(text).substr(0, 32));
    }
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

/// The answers a side at a time: white's and black's, nullptr for a side not asked.
struct Asked {
    const DeadAnswer* side[2] = {nullptr, nullptr};
    explicit Asked(const std::vector<DeadAnswer>& answers) {
        for (const DeadAnswer& a : answers) side[a.side == Color::white ? 0 : 1] = &a;
    }
};

/// The dead answer's members after "fen", in their order, written once for two sinks: TextSink
/// (the text, as dump() would write it, for `dead --batch`) and JsonSink (the JSON value for every
/// other face). Each member is named twice: its text with the comma and the colon around it (for
/// the text, which writes it as one piece) and its bare key (for the value).
template <class Sink>
void write_verdicts(Sink& w, const std::vector<DeadAnswer>& answers, bool timing) {
    using namespace std::string_view_literals;  // (the lengths of the literals known here)
    const Asked asked(answers);
    auto per_side = [&](std::string_view raw, std::string_view key, auto value) {
        w.open_sides(raw, key);  // ,"key":{"white":
        for (int c = 0; c < 2; ++c) {
            w.side(c);
            if (asked.side[c])
                value(*asked.side[c]);
            else
                w.null();
        }
        w.close_sides();
    };
    const auto dead = dead_of(answers);
    w.member(",\"dead\":"sv, "dead"sv);
    if (dead)
        w.boolean(*dead);
    else
        w.null();
    for (int c = 0; c < 2; ++c) {
        if (c == 0)
            w.member(",\"white\":"sv, "white"sv);
        else
            w.member(",\"black\":"sv, "black"sv);
        if (asked.side[c])
            w.name(name_view(asked.side[c]->verdict.answer));
        else
            w.null();
    }
    per_side(",\"can_checkmate\":{\"white\":"sv, "can_checkmate"sv,
             [&](const DeadAnswer& a) { w.name(yes_no_unknown(a.verdict.answer)); });
    per_side(",\"proof\":{\"white\":"sv, "proof"sv, [&](const DeadAnswer& a) { w.name(name_view(a.verdict.proof)); });
    per_side(",\"reason\":{\"white\":"sv, "reason"sv, [&](const DeadAnswer& a) { w.string(a.verdict.reason); });
    per_side(",\"nodes\":{\"white\":"sv, "nodes"sv, [&](const DeadAnswer& a) { w.number(a.verdict.nodes); });
    per_side(",\"helpmate\":{\"white\":"sv, "helpmate"sv, [&](const DeadAnswer& a) {
        if (a.verdict.answer != MateAbility::can_checkmate) {
            w.null();
            return;
        }
        w.open_list();
        for (const std::string& m : a.san) w.item(m);
        w.close_list();
    });
    if (timing)
        per_side(",\"microseconds\":{\"white\":"sv, "microseconds"sv, [&](const DeadAnswer& a) { w.micros(a.micros); });
}

/// The text, through a RawOut.
struct TextSink {
    RawOut& w;
    bool first_item = true;
    void member(std::string_view raw, std::string_view) noexcept { w.put(raw); }
    void open_sides(std::string_view raw, std::string_view) noexcept { w.put(raw); }
    void side(int c) noexcept {
        if (c) w.put(std::string_view(",\"black\":"));
    }
    void close_sides() noexcept { w.put('}'); }
    void null() noexcept { w.put(std::string_view("null")); }
    void boolean(bool b) noexcept { w.put(b ? std::string_view("true") : std::string_view("false")); }
    void name(std::string_view v) noexcept { w.name(v); }
    void string(std::string_view v) noexcept { w.string(v); }
    void number(std::uint64_t n) noexcept { w.number(n); }
    void micros(double us) { w.micros(us); }
    void open_list() noexcept {
        w.put('[');
        first_item = true;
    }
    void item(std::string_view v) noexcept {
        if (!first_item) w.put(',');
        first_item = false;
        w.string(v);
    }
    void close_list() noexcept { w.put(']'); }
};

/// The JSON value: each member or side sets the slot its value goes to.
struct JsonSink {
    Json& root;
    Json* sides = nullptr;
    Json* slot = nullptr;
    void member(std::string_view, std::string_view key) { slot = &root[std::string(key)]; }
    void open_sides(std::string_view, std::string_view key) { sides = &(root[std::string(key)] = Json::object()); }
    void side(int c) { slot = &(*sides)[c ? "black" : "white"]; }
    void close_sides() noexcept {}
    void null() { *slot = nullptr; }
    void boolean(bool b) { *slot = b; }
    void name(std::string_view v) { *slot = std::string(v); }
    void string(std::string_view v) { *slot = std::string(v); }
    void number(std::uint64_t n) { *slot = n; }
    void micros(double us) { *slot = us; }
    void open_list() { *slot = Json::array(); }
    void item(std::string_view v) { slot->push_back(std::string(v)); }
    void close_list() noexcept {}
};

void append_verdicts(std::string& out, const std::vector<DeadAnswer>& answers, bool timing) {
    // The room: the keys, names and numbers take under 400 bytes, the times under 100; a string at
    // most 6 bytes a byte.
    std::size_t room = 512 + (timing ? 128 : 0);
    for (const DeadAnswer& a : answers) {
        room += 6 * a.verdict.reason.size() + 2;
        for (const std::string& m : a.san) room += 6 * m.size() + 3;
    }
    RawOut raw(out, room);
    TextSink sink{raw};
    write_verdicts(sink, answers, timing);
}

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

Json dead_json(const Position& pos, const std::vector<DeadAnswer>& answers, bool timing) {
    Json root = Json::object();
    root["fen"] = to_fen(pos);
    JsonSink sink{root};
    write_verdicts(sink, answers, timing);
    return root;
}

}  // namespace arbiter::face
