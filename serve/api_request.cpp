// api_request.cpp — reading a request of the JSON API and answering its errors (api_request.hpp).
#include "api_request.hpp"

#include <algorithm>
#include <charconv>

#include "errors.hpp"
#include "json/json_object.hpp"
#include "text.hpp"

namespace arbiter::serve {

Json parse_object(const std::string& body) { return face::parse_json_object(body, "the body"); }

ApiError journal_error(const JournalError& e) { return ApiError(face::code_of(e.code), e.message); }

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
