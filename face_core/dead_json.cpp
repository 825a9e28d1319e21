// dead_json.cpp — the analysis behind `arbiter dead` and its JSON.
#include "dead_json.hpp"

#include <chrono>

#include "text.hpp"

namespace arbiter::face {

Position composed_fen_or_throw(const std::string& fen) {
    auto pos = composed_position_from_fen(fen);
    if (!pos) throw InputError(Code::bad_fen, pos.error().describe(), "fen", pos.error().offset);
    return *pos;
}

std::vector<Color> sides_of(const std::string& side) {
    if (side == "white") return {Color::white};
    if (side == "black") return {Color::black};
    return {Color::white, Color::black};
}

namespace {
std::vector<std::string> san_line(Position pos, const std::vector<Move>& line) {
    std::vector<std::string> out;
    out.reserve(line.size());
    for (Move m : line) {
        out.push_back(to_san(pos, m));
        pos.play_unchecked(m);
    }
    return out;
}
}  // namespace

std::vector<DeadAnswer> analyse_dead(const HelpmateAnalyzer& analyzer, const Position& pos,
                                     const std::vector<Color>& sides) {
    std::vector<DeadAnswer> out;
    for (Color c : sides) {
        const auto start = std::chrono::steady_clock::now();
        DeadAnswer a{c, analyzer.can_checkmate(pos, c), {}};
        a.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        a.san = san_line(pos, a.verdict.line);
        out.push_back(std::move(a));
    }
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
/// A string as dump() writes it (compact, UTF-8 kept): quotes and backslashes escaped, control
/// characters as \b \t \n \f \r or \u00XX. For the analysis's own ASCII strings (FEN, SAN,
/// reasons); text from the input goes through the JSON library.
void append_string(std::string& out, std::string_view s) {
    out += '"';
    // The text between the characters that need escaping goes in whole (most often all of it).
    std::size_t plain = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && c != '"' && c != '\\') continue;
        out.append(s, plain, i - plain);
        plain = i + 1;
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            static constexpr char hex[] = "0123456789abcdef";
            switch (c) {
                case '\b': out += "\\b"; break;
                case '\t': out += "\\t"; break;
                case '\n': out += "\\n"; break;
                case '\f': out += "\\f"; break;
                case '\r': out += "\\r"; break;
                default:
                    out += "\\u00";
                    out += hex[u >> 4];
                    out += hex[u & 15];
            }
        }
    }
    out.append(s, plain, s.size() - plain);
    out += '"';
}
}  // namespace

void append_dead_members(std::string& out, const Position& pos, const std::vector<DeadAnswer>& answers, bool timing) {
    using namespace std::string_view_literals;  // (the lengths of the literals known here)
    const DeadAnswer* asked[2] = {nullptr, nullptr};
    for (const DeadAnswer& a : answers) asked[a.side == Color::white ? 0 : 1] = &a;
    auto per_side = [&](std::string_view key, auto value) {
        out += ",\""sv;
        out += key;
        out += "\":{"sv;
        for (int c = 0; c < 2; ++c) {
            out += c == 0 ? "\"white\":"sv : ",\"black\":"sv;
            if (asked[c])
                value(*asked[c]);
            else
                out += "null"sv;
        }
        out += '}';
    };
    out += "\"fen\":"sv;
    append_string(out, to_fen(pos));
    const auto dead = dead_of(answers);
    out += ",\"dead\":"sv;
    out += dead ? (*dead ? "true"sv : "false"sv) : "null"sv;
    for (int c = 0; c < 2; ++c) {
        out += c == 0 ? ",\"white\":"sv : ",\"black\":"sv;
        if (asked[c])
            append_string(out, mate_ability_name(asked[c]->verdict.answer));
        else
            out += "null"sv;
    }
    per_side("can_checkmate", [&](const DeadAnswer& a) { append_string(out, yes_no_unknown(a.verdict.answer)); });
    per_side("proof", [&](const DeadAnswer& a) { append_string(out, mate_proof_name(a.verdict.proof)); });
    per_side("reason", [&](const DeadAnswer& a) { append_string(out, a.verdict.reason); });
    per_side("nodes", [&](const DeadAnswer& a) { out += std::to_string(a.verdict.nodes); });
    per_side("helpmate", [&](const DeadAnswer& a) {
        if (a.verdict.answer != MateAbility::can_checkmate) {
            out += "null"sv;
            return;
        }
        out += '[';
        for (std::size_t i = 0; i < a.san.size(); ++i) {
            if (i) out += ',';
            append_string(out, a.san[i]);
        }
        out += ']';
    });
    if (timing) per_side("microseconds", [&](const DeadAnswer& a) { out += dump(Json(a.micros)); });
}

}  // namespace arbiter::face
