// routes.hpp — a request and its answer as the service sees them, without sockets (the service's
// routes, serve/service.hpp), and the interface of routes that another face serves through
// the service (the hall monitor's /api/v1/watch, watch/hall_service.hpp), so that the service
// and the hall monitor never include each other: the program that runs both (`arbiter serve
// --watch`) joins them.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace arbiter::face {

struct Request {
    std::string method;  ///< GET, POST, …
    std::string path;    ///< decoded path, without the query
    std::multimap<std::string, std::string> query;
    std::string authorization;    ///< the Authorization header, empty when absent
    std::string remote;           ///< the client's address (for the limit on wrong tokens), empty when unknown
    std::string accept_language;  ///< the Accept-Language header, empty when absent
    std::string body;
};

struct Response {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    /// Server-Sent Events: called again and again; appends the next chunk (waiting for it) and
    /// returns false when the stream ends (the client went away, the server stops).
    std::function<bool(std::string& chunk)> stream;
};

/// Whether a request may go on (nullopt), or its refusal (401, 403, 429): asked by routes served
/// beside the service (the hall's) with `write` true for a request that changes something. The
/// service's access check (serve/access.hpp) gives it; a face without users lets all through.
using Guard = std::function<std::optional<Response>(const Request& req, bool write)>;

/// Body limits (docs/api.md): 1 MiB, or 16 MiB for the routes that take a PGN.
inline constexpr std::size_t max_body = 1u << 20;
inline constexpr std::size_t max_pgn_body = 16u << 20;

/// Routes served beside the service's own: the server asks `handles` first for every request.
class Routes {
public:
    virtual ~Routes() = default;
    /// True for the paths these routes answer.
    [[nodiscard]] virtual bool handles(const std::string& path) const noexcept = 0;
    virtual Response handle(const Request& req) = 0;
    /// Ends every stream and thread (the server is stopping).
    virtual void stop() = 0;
};

}  // namespace arbiter::face
