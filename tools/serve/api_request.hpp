// api_request.hpp — reading a request of the JSON API and answering its errors (docs/api.md):
// the body as a JSON object, typed fields whose unknown keys and wrong types are 400 bad_field
// naming the key, the rule options and the position of a request, and the error an ApiError is.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/journal.hpp"
#include "game_input.hpp"
#include "routes.hpp"
#include "rules_json.hpp"

namespace arbiter::serve {

using face::Json;
using Request = face::Request;
using Response = face::Response;

/// A request answered with an error: {"error":{"code","message"}} and the status.
struct ApiError {
    int status;
    std::string code;
    std::string message;
    Json extra = nullptr;  // more top-level keys (the refusal of a 409)
};

Response json_response(int status, const Json& j);
Response error_response(const ApiError& e);
/// The body as a JSON object, or 400 bad_json naming the byte.
Json parse_object(const std::string& body);
/// The status an error of the journal is answered with (404 no_such_session, 503 journal_busy, …).
ApiError journal_error(const JournalError& e);

// Reads the keys of a JSON object into typed fields; unknown keys and wrong types are 400
// bad_field naming the key.
class Fields {
public:
    explicit Fields(const Json& j, const std::set<std::string>& allowed);
    [[nodiscard]] bool has(const char* key) const { return j_.contains(key) && !j_.at(key).is_null(); }
    void text(const char* key, std::string& out) const;
    void flag(const char* key, bool& out) const;
    template <class Int>
    void number(const char* key, Int& out, long long lo, long long hi) const {
        if (has(key)) out = static_cast<Int>(whole_number(key, lo, hi));
    }
    void texts(const char* key, std::vector<std::string>& out) const;

private:
    const Json& j_;
    long long whole_number(const char* key, long long lo, long long hi) const;
    [[noreturn]] static void bad(const char* key, const std::string& what);
};

/// The keys of a request that takes the rule options, besides `keys`.
std::set<std::string> with_rule_keys(std::set<std::string> keys);
/// The rule options of a request (the CLI's rule options).
void read_rules(const Fields& f, face::RuleInput& in);
/// The position of a status, claim or dead request (the POSITION options of the CLI).
face::GameInput read_position(const Fields& f);

/// A session id of a path ("12"): a whole number from 1.
std::optional<SessionId> parse_id(std::string_view text);
std::vector<std::string> split(std::string_view s, char sep);
/// The value of a query parameter, "" when absent.
std::string query_value(const Request& req, const std::string& key);

}  // namespace arbiter::serve
