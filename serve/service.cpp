// service.cpp — the routes of `arbiter serve` (docs/api.md): the CLI's JSON over HTTP. Here the
// service itself and its routing; each kind of route, the request fields, the token, the journal
// writer, the rules' threads, the session cache and the event stream are files of their own.
#include "service.hpp"

#include <algorithm>
#include <string_view>

#include "access.hpp"
#include "api_request.hpp"
#include "arbiter/arbiter.hpp"
#include "assets.hpp"
#include "board_route.hpp"
#include "errors.hpp"
#include "requests/position_requests.hpp"
#include "rules_threads.hpp"
#include "session/session_json.hpp"
#include "text.hpp"

namespace arbiter::serve {

Service::Service(Journal journal, ServiceOptions options)
    : journal_(std::move(journal)),
      options_(std::move(options)),
      commit_(journal_, journal_mutex_),
      rules_(std::make_unique<RulesThreads>(2)),
      access_(std::make_unique<Access>(AccessOptions{.journal = &journal_, .token = options_.token})) {
    // A journal edited outside arbiter is not served unless told (then warned on every page).
    auto chain = journal_.verify();
    if (!chain) throw face::InputError(chain.error().code, chain.error().message, "journal");
    if (!chain->whole()) {
        if (!options_.accept_broken_journal)
            throw face::InputError(face::Code::broken_journal,
                                   "journal '" + journal_.path() +
                                       "' does not match its hash chain: " + chain->problem +
                                       " (arbiter session verify names it; --accept-broken-journal serves it anyway)",
                                   "journal");
        broken_ = chain->problem;
    }
}

face::Guard Service::guard() { return access_->guard(); }

bool Service::access_required() { return access_->required(); }

std::string Service::state_text(const JournaledSession& js) {
    return rules_->run([&] { return face::dump(face::state_json(js.session(), js.id())); });
}

Service::~Service() { stop(); }

void Service::stop() {
    stopping_ = true;
    sessions_.wake_all();
}

EntryPtr Service::entry(SessionId id) {
    return sessions_.get(id, [&] {
        auto e = std::make_shared<SessionEntry>();
        auto s = rules_->run([&] {  // a replay: the rules' work
            std::lock_guard j(journal_mutex_);
            return JournaledSession::open(journal_, id);
        });
        if (!s) throw journal_error(s.error());
        e->js.emplace(std::move(*s));
        e->refresh(state_text(*e->js));
        return e;
    });
}

// Every refusal answered by the face core's HTTP kit: an InputError with its own code, field and
// offset (as the CLI gives them), the headers of every answer.
Response Service::handle(const Request& req) {
    Response r = face::answer(req, [this](const Request& q) { return route(q); });
    if (!broken_.empty()) r.headers.emplace_back("X-Arbiter-Journal", "broken");
    return r;
}

Response Service::route(const Request& req) {
    const std::string& path = req.path;
    const bool post = req.method == "POST";
    if (path.rfind("/api/", 0) != 0) {
        if (path == "/board.svg") {
            face::allow_only(req, "GET");
            return board(req);
        }
        const std::string name = path == "/" ? "/index.html" : path;
        const Asset* a = find_asset(name);
        if (!a) throw ApiError{face::Code::not_found, "no such page: " + path};
        face::allow_only(req, "GET");
        Response r;
        r.content_type = a->content_type;
        r.body.assign(a->data, a->size);
        return r;
    }
    if (path == "/api/v1/health") {
        face::allow_only(req, "GET");
        return json_response(200, Json{{"status", "ok"},
                                       {"version", std::string(arbiter::version)},
                                       {"journal", broken_.empty() ? "whole" : "broken"}});
    }
    if (path == "/api/v1/rule_sets") {  // the console's rule-set menu (no secret: before the token, as health)
        face::allow_only(req, "GET");
        return json_response(200, face::rule_sets_json());
    }
    const Principal who = access_->who(req);
    const std::size_t limit =
        path == "/api/v1/status" || path == "/api/v1/claim" || path == "/api/v1/dead" ? max_pgn_body : max_body;
    if (auto too_large = face::body_too_large(req, limit)) throw *too_large;
    if (path == "/api/v1/sessions") {
        face::allow_only(req, "GET, POST");
        if (!post) return list_sessions();
        Access::require(who, Need::chief);
        return create_session(req, who);
    }
    if (path == "/api/v1/journal") {
        face::allow_only(req, "GET");
        return journal_state();
    }
    // Every operation on a position or a game, as the core lists them (POST /api/v1/status,
    // claim, dead, moves, play, perft): the JSON of the CLI's --json and of Python and JavaScript.
    if (path.rfind("/api/v1/", 0) == 0) {
        const std::string_view op = std::string_view(path).substr(8);
        const auto& ops = face::position_operations();
        if (std::find(ops.begin(), ops.end(), op) != ops.end()) {
            face::allow_only(req, "POST");
            return position_route(std::string(op), req);
        }
    }
    const std::string sessions = "/api/v1/sessions/";
    if (path.rfind(sessions, 0) == 0) {
        const auto parts = split(std::string_view(path).substr(sessions.size()), '/');
        const auto id = parse_id(parts[0]);
        if (!id || parts.size() > 2) throw ApiError{face::Code::not_found, "no such resource: " + path};
        if (parts.size() == 1) {
            face::allow_only(req, "GET, DELETE");
            if (req.method != "DELETE") return get_session(*id);
            Access::require(who, Need::chief);
            return delete_session(*id, who);
        }
        if (parts[1] == "events") {
            face::allow_only(req, "POST");
            return post_event(*id, req, who);
        }
        if (parts[1] == "history") {
            face::allow_only(req, "GET");
            return history(*id);
        }
        if (parts[1] == "pgn") {
            face::allow_only(req, "GET");
            return pgn(*id);
        }
        if (parts[1] == "stream") {
            face::allow_only(req, "GET");
            return stream(*id);
        }
    }
    throw ApiError{face::Code::not_found, "no such resource: " + path};
}

}  // namespace arbiter::serve
