// api_request.hpp — reading a request of the JSON API and answering its errors (docs/api.md):
// the body as a JSON object (its fields are read by the face core's Fields, request_fields.hpp),
// a session id and query values, and the answer an ApiError is.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/journal.hpp"
#include "http/http_kit.hpp"
#include "http/routes.hpp"
#include "json/json.hpp"
#include "requests/game_input.hpp"
#include "requests/request_fields.hpp"

namespace arbiter::serve {

using face::Json;
using Request = face::Request;
using Response = face::Response;

/// A request answered with an error (the face core's HTTP kit, http_kit.hpp, shared with the hall).
using ApiError = face::HttpError;
using face::error_response;
using face::json_response;

/// The body as a JSON object, or InputError bad_json naming the byte (the face core's one reader).
Json parse_object(const std::string& body);
/// The status an error of the journal is answered with (404 no_such_session, 503 journal_busy, …).
ApiError journal_error(const JournalError& e);

// The fields of a request: the face core's (a FieldError is answered 400 bad_field).
using face::FieldError;
using face::Fields;
using face::read_position;
using face::read_rules;
using face::with_rule_keys;

/// A session id of a path ("12"): a whole number from 1.
std::optional<SessionId> parse_id(std::string_view text);
std::vector<std::string> split(std::string_view s, char sep);
/// The value of a query parameter, "" when absent.
std::string query_value(const Request& req, const std::string& key);

}  // namespace arbiter::serve
