// position_routes.cpp — POST /api/v1/status, /claim and /dead: a position or a game in, the
// JSON of `arbiter status|claim|dead --json` out (docs/api.md), answered by the face core
// (position_requests.hpp) on one of the rules' threads.
#include "api_request.hpp"
#include "http/http_kit.hpp"
#include "requests/option_table.hpp"
#include "requests/position_requests.hpp"
#include "rules_threads.hpp"
#include "service.hpp"

namespace arbiter::serve {

Response Service::position_route(const std::string& what, const Request& req) {
    Json j = parse_object(req.body);
    // The texts' language: the body's "lang", else ?lang=, else Accept-Language (docs/i18n.md).
    const bool texts = face::request_option_keys(what).contains("lang");
    if (texts)
        if (auto lang = face::request_language(req, j)) j["lang"] = *lang;
    // The position's analysis on a rules thread, like a session's (rules_threads.hpp); the core's
    // refusals pass as they are (Service::handle): the CLI's code, field and offset.
    Response r = json_response(200, rules_->run([&] { return face::position_answer(what, j); }));
    if (texts) {
        r.headers.emplace_back("Content-Language", j.value("lang", std::string("en")));
        r.headers.emplace_back("Vary", "Accept-Language");
    }
    return r;
}

}  // namespace arbiter::serve
