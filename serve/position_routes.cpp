// position_routes.cpp — POST /api/v1/status, /claim and /dead: a position or a game in, the
// JSON of `arbiter status|claim|dead --json` out (docs/api.md), answered by the face core
// (position_requests.hpp) on one of the rules' threads.
#include "api_request.hpp"
#include "requests/position_requests.hpp"
#include "rules_threads.hpp"
#include "service.hpp"

namespace arbiter::serve {

Response Service::position_route(const std::string& what, const Request& req) {
    const Json j = parse_object(req.body);
    // The position's analysis on a rules thread, like a session's (rules_threads.hpp); the core's
    // refusals pass as they are (Service::handle): the CLI's code, field and offset.
    return json_response(200, rules_->run([&] { return face::position_answer(what, j); }));
}

}  // namespace arbiter::serve
