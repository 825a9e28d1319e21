// http_kit.hpp — what every face that answers HTTP shares (the service, serve/, and the hall
// monitor's routes, watch/hall_service.cpp), over face::Request and face::Response so that neither
// includes the other: the error body of every refusal (with its extra headers), 405 and 413, the
// headers of every answer, and the one place a route's exceptions become answers.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/message.hpp"
#include "errors.hpp"
#include "http/routes.hpp"
#include "json/json.hpp"
#include "requests/operations.hpp"

namespace arbiter::face {

/// A request answered with an error: the status and {"error":{"code","message","field"?,
/// "offset"?}} with `extra`'s keys beside "error" (the refusal of a 409). The status is the code's
/// (error_codes.hpp), never written beside it.
struct HttpError {
    HttpError(Code c, std::string text, Json more = nullptr)
        : status(row_of(c).http_status), code(name_of(c)), message(std::move(text)), extra(std::move(more)) {}
    /// A refusal of the face core (any code an InputError carries, a library reader's too): its
    /// words as a JSON caller reads them (message_for), its field and offset, the status
    /// `answer_status` or its code's (http_status_of).
    explicit HttpError(const InputError& e, std::optional<int> answer_status = std::nullopt, Json more = nullptr);

    int status;
    std::string code;
    std::string message;
    Json extra = nullptr;
    std::string field{};
    std::optional<std::uint64_t> offset{};
    /// Headers of the answer besides the usual ones (WWW-Authenticate on a 401, Retry-After on a 429).
    std::vector<std::pair<std::string, std::string>> headers{};
};

/// A JSON answer: the object on one line.
Response json_response(int status, const Json& j);
/// The answer of an HttpError.
Response error_response(const HttpError& e);

/// 405 for a method the route does not take: `methods` ("GET, HEAD", "POST") in the message, as
/// "allow" and in the Allow header.
HttpError method_not_allowed(const Request& req, const char* methods);
/// Throws method_not_allowed unless the request's method is one of `methods` ("GET", "GET, POST");
/// a route that takes GET takes HEAD too, and its Allow says so.
void allow_only(const Request& req, std::string_view methods);
/// 413 when the body is over `limit` bytes.
std::optional<HttpError> body_too_large(const Request& req, std::size_t limit);

/// The operations whose route is a path (operation_table(): one per method), and the session's
/// number where the route has "{id}".
struct RouteMatch {
    std::vector<const Operation*> ops;  ///< empty: no route has the path
    std::uint64_t id = 0;

    /// Whether the path is answered without a token (health, the rule sets, the board).
    [[nodiscard]] bool open() const noexcept;
    /// The largest body the path takes, 0 when it is not checked.
    [[nodiscard]] std::size_t body_limit() const noexcept;
    /// The operation of the request's method (a GET's route takes HEAD too), else throws
    /// method_not_allowed naming the path's methods in the table's order.
    [[nodiscard]] const Operation& of_method(const Request& req) const;
};
/// The routes of operation_table() that `path` matches: each segment equal, or "{id}" a whole
/// number from 1.
RouteMatch match_route(std::string_view path);

/// The language an Accept-Language header asks for first among those with a catalog
/// ("fa-IR,fa;q=0.9,en;q=0.8" → fa; a q of 0 refuses one), or null when it names none of them.
const Language* accepted_language(std::string_view header);
/// The request's language for the texts of an answer: the body's key `lang` when given (nullopt:
/// the body decides), else the query's `lang`, else Accept-Language, else English; the code to
/// put into the request as its `lang`.
std::optional<std::string> request_language(const Request& req, const Json& body);

/// Runs `route`, turns what it throws into its answer (an HttpError as it is; an InputError by
/// http_error; bad_alloc 500 out_of_memory; any other exception 500 internal) and adds the headers
/// every answer carries (nosniff, no referrer, the content security policy; no-store on JSON).
Response answer(const Request& req, const std::function<Response(const Request&)>& route);

}  // namespace arbiter::face
