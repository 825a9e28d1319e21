// api_request.cpp — reading a request of the JSON API and answering its errors (api_request.hpp).
#include "api_request.hpp"

#include <algorithm>
#include <charconv>

#include "errors.hpp"
#include "text.hpp"

namespace arbiter::serve {

Response json_response(int status, const Json& j) {
    Response r;
    r.status = status;
    r.body = face::dump(j) + "\n";
    return r;
}

Response error_response(const ApiError& e) {
    Json j{{"error", Json{{"code", e.code}, {"message", face::printable(e.message)}}}};
    if (e.extra.is_object())
        for (auto it = e.extra.begin(); it != e.extra.end(); ++it) j[it.key()] = it.value();
    return json_response(e.status, j);
}

Fields::Fields(const Json& j, const std::set<std::string>& allowed) : j_(j) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (allowed.count(it.key())) continue;
        std::string list;
        for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
        throw ApiError{400, "bad_field", "unknown key \"" + it.key() + "\" (expected one of: " + list + ")"};
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
    if (!v.is_number_integer()) bad(key, "a whole number from " + range);
    if (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)
                               : v.get<long long>() < lo || v.get<long long>() > hi)
        throw ApiError{400, "bad_field", "\"" + std::string(key) + "\" is out of range: " + range};
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
    throw ApiError{400, "bad_field", "\"" + std::string(key) + "\" must be " + what};
}

Json parse_object(const std::string& body) {
    Json j;
    try {
        j = Json::parse(body);
    } catch (const Json::parse_error& e) {
        throw ApiError{400, "bad_json", "the body is not JSON (byte " + std::to_string(e.byte) + "): " + e.what()};
    } catch (const Json::exception& e) {  // a number too large, …
        throw ApiError{400, "bad_json", std::string("the body is not usable JSON: ") + e.what()};
    }
    if (!j.is_object()) throw ApiError{400, "bad_json", "the body must be a JSON object {…}"};
    return j;
}

namespace {

const std::set<std::string> rule_keys{
    "rules",         "time_category",          "initial_position_counts", "counters_from_setup", "fifty_extensions",
    "online_claims", "intended_mate_incorrect"};

}  // namespace

std::set<std::string> with_rule_keys(std::set<std::string> keys) {
    keys.insert(rule_keys.begin(), rule_keys.end());
    return keys;
}

void read_rules(const Fields& f, face::RuleInput& in) {
    f.text("rules", in.rules);
    f.text("time_category", in.time_category);
    bool counts = true;
    f.flag("initial_position_counts", counts);
    in.initial_position_counts = counts ? "true" : "false";
    f.text("counters_from_setup", in.counters_from_setup);
    f.texts("fifty_extensions", in.fifty_extensions);
    f.flag("online_claims", in.online_claims_only);
    f.flag("intended_mate_incorrect", in.intended_mate_incorrect);
}

face::GameInput read_position(const Fields& f) {
    face::GameInput in;
    f.text("fen", in.fen);
    f.text("moves", in.moves);
    f.text("pgn", in.pgn_text);
    if (!in.pgn_text.empty()) in.pgn = "pgn";
    if (in.pgn.empty() && (f.has("game") || f.has("ply")))
        throw ApiError{400, "bad_field", "\"game\" and \"ply\" apply to a game given as \"pgn\""};
    f.number("game", in.game, 1, 1'000'000'000);
    f.number("ply", in.ply, 0, 1'000'000);
    for (const char* key : {"fen", "moves", "pgn"}) {
        std::string text;
        f.text(key, text);
        face::require_utf8(key, text);
    }
    return in;
}

ApiError journal_error(const JournalError& e) {
    switch (e.code) {
        case JournalError::Code::no_such_session: return {404, "no_such_session", e.message};
        case JournalError::Code::busy: return {503, "journal_busy", e.message};
        case JournalError::Code::conflict: return {409, "conflict", e.message};
        case JournalError::Code::read_only: return {500, "read_only", e.message};
        case JournalError::Code::io: return {500, "io", e.message};
        default: return {500, code_name(e.code), e.message};
    }
}

std::optional<SessionId> parse_id(std::string_view text) {
    SessionId id = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), id);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || id < 1) return std::nullopt;
    return id;
}

std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i <= s.size()) {
        const std::size_t j = std::min(s.find(sep, i), s.size());
        out.emplace_back(s.substr(i, j - i));
        i = j + 1;
    }
    return out;
}

std::string query_value(const Request& req, const std::string& key) {
    const auto it = req.query.find(key);
    return it == req.query.end() ? std::string() : it->second;
}

}  // namespace arbiter::serve
