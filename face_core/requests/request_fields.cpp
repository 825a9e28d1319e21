// request_fields.cpp — the keys of a JSON request read into typed fields (request_fields.hpp).
#include "requests/request_fields.hpp"

#include <cmath>

#include "requests/option_table.hpp"
#include "text.hpp"

namespace arbiter::face {

Fields::Fields(const Json& j, const std::set<std::string>& allowed) : j_(j) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (allowed.count(it.key())) continue;
        std::string list;
        for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
        throw FieldError("unknown key \"" + it.key() + "\" (expected one of: " + list + ")", it.key());
    }
}

void Fields::text(const char* key, std::string& out) const {
    if (!has(key)) return;
    if (!j_.at(key).is_string()) bad(key, "a string");
    out = j_.at(key).get<std::string>();
}

void Fields::flag(const char* key, bool& out) const {
    if (!has(key)) return;
    if (!j_.at(key).is_boolean()) bad(key, "true or false");
    out = j_.at(key).get<bool>();
}

long long Fields::whole_number(const char* key, long long lo, long long hi) const {
    const Json& v = j_.at(key);
    const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
    // A whole number too large for an integer (1e30) is out of range, not of the wrong type.
    if (v.is_number_float() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>()))
        throw InputError(Code::bad_value, "\"" + std::string(key) + "\" is out of range: " + range, key);
    if (!v.is_number_integer()) bad(key, "a whole number from " + range);
    // A JSON number that is not negative reads as unsigned: both ends are checked either way.
    const bool out = v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi) ||
                                                  (lo > 0 && v.get<std::uint64_t>() < static_cast<std::uint64_t>(lo))
                                            : v.get<long long>() < lo || v.get<long long>() > hi;
    if (out) throw InputError(Code::bad_value, "\"" + std::string(key) + "\" is out of range: " + range, key);
    return v.get<long long>();
}

void Fields::texts(const char* key, std::vector<std::string>& out) const {
    if (!has(key)) return;
    const Json& v = j_.at(key);
    if (!v.is_array()) bad(key, "an array of strings");
    for (const auto& s : v) {
        if (!s.is_string()) bad(key, "an array of strings");
        out.push_back(s.get<std::string>());
    }
}

void Fields::bad(const char* key, const std::string& what) {
    throw FieldError("\"" + std::string(key) + "\" must be " + what, key);
}

std::set<std::string> with_rule_keys(std::set<std::string> keys) {
    for (const auto& spec : rule_option_table()) keys.emplace(spec.name);
    return keys;
}

void read_rules(const Fields& f, RuleInput& in) {
    for (const auto& spec : rule_option_table()) {
        const std::string key(spec.name);
        switch (spec.kind) {
            case OptionKind::choice: f.text(key.c_str(), in.*spec.text); break;
            case OptionKind::boolean:
                if (f.has(key.c_str())) {
                    bool value = false;
                    f.flag(key.c_str(), value);
                    in.*spec.typed = value;
                }
                break;
            case OptionKind::list: f.texts(key.c_str(), in.*spec.texts); break;
            case OptionKind::flag: f.flag(key.c_str(), in.*spec.on); break;
        }
    }
}

std::set<std::string> position_keys(std::set<std::string> more) {
    more.insert({"fen", "moves", "pgn", "game", "ply"});
    return more;
}

GameInput read_position(const Fields& f) {
    GameInput in;
    f.text("fen", in.fen);
    f.text("moves", in.moves);
    f.text("pgn", in.pgn_text);
    in.fen_given = f.has("fen");
    in.moves_given = f.has("moves");
    in.pgn_given = f.has("pgn");
    if (in.pgn_given) {
        in.pgn = "pgn";
        in.pgn_inline = true;
    }
    if (!in.pgn_given && (f.has("game") || f.has("ply")))
        throw InputError(Code::bad_usage, "\"game\" and \"ply\" apply to a game given as \"pgn\"",
                         f.has("game") ? "game" : "ply");
    f.number("game", in.game, 1, max_game_number);
    f.number("ply", in.ply, 0, max_game_ply);
    for (const char* key : {"fen", "moves", "pgn"}) {
        std::string text;
        f.text(key, text);
        require_utf8(key, text);
    }
    return in;
}

}  // namespace arbiter::face
