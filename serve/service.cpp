// service.cpp — the routes of `arbiter serve` (docs/api.md): the CLI's JSON over HTTP. Here the
// service itself and its routing; each kind of route, the request fields, the token, the journal
// writer, the rules' threads, the session cache and the event stream are files of their own.
#include "service.hpp"

#include <algorithm>
#include <map>
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

// Each operation of the core's table (face_core/requests/operations.hpp) that the service answers,
// by its name; the hall's routes are served beside these (face::Routes).
const std::map<std::string_view, Service::Handler>& Service::handlers() {
    static const std::map<std::string_view, Handler> table = [] {
        std::map<std::string_view, Handler> h = {
            {"health",
             [](Service& s, const Call&) {
                 return json_response(200, Json{{"status", "ok"},
                                                {"version", std::string(arbiter::version)},
                                                {"journal", s.broken_.empty() ? "whole" : "broken"}});
             }},
            // The console's rule-set menu (no secret: before the token, as health).
            {"rule_sets", [](Service&, const Call&) { return json_response(200, face::rule_sets_json()); }},
            {"board", [](Service&, const Call& c) { return board(c.req); }},
            {"session.new",
             [](Service& s, const Call& c) {
                 Access::require(*c.who, Need::chief);
                 return s.create_session(c.req, *c.who);
             }},
            {"session.list", [](Service& s, const Call&) { return s.list_sessions(); }},
            {"session.show", [](Service& s, const Call& c) { return s.get_session(c.id); }},
            {"session.delete",
             [](Service& s, const Call& c) {
                 Access::require(*c.who, Need::chief);
                 return s.delete_session(c.id, *c.who);
             }},
            {"session.history", [](Service& s, const Call& c) { return s.history(c.id); }},
            {"journal", [](Service& s, const Call&) { return s.journal_state(); }},
            {"session.event", [](Service& s, const Call& c) { return s.post_event(c.id, c.req, *c.who); }},
            {"session.export", [](Service& s, const Call& c) { return s.pgn(c.id); }},
            {"session.stream", [](Service& s, const Call& c) { return s.stream(c.id); }},
        };
        // Every operation on a position or a game, as the core lists them (POST /api/v1/status,
        // claim, dead, moves, play, perft): the JSON of the CLI's --json and of Python and JavaScript.
        for (std::string_view op : face::position_operations())
            h.emplace(op, [](Service& s, const Call& c) { return s.position_route(std::string(c.op), c.req); });
        return h;
    }();
    return table;
}

std::vector<std::string_view> Service::operations() {
    std::vector<std::string_view> out;
    for (const auto& [name, handler] : handlers()) out.push_back(name);
    return out;
}

Response Service::route(const Request& req) {
    const std::string& path = req.path;
    face::RouteMatch m = face::match_route(path);
    std::erase_if(m.ops, [](const face::Operation* o) { return !handlers().contains(o->name); });
    if (m.ops.empty() && path.rfind("/api/", 0) != 0) {  // the console's files
        const std::string name = path == "/" ? "/index.html" : path;
        const Asset* a = find_asset(name);
        if (!a) throw ApiError{face::Code::not_found, "no such page: " + path};
        face::allow_only(req, "GET");
        Response r;
        r.content_type = a->content_type;
        r.body.assign(a->data, a->size);
        return r;
    }
    if (m.open()) {
        const face::Operation& op = m.of_method(req);
        return handlers().at(op.name)(*this, Call{req, nullptr, m.id, op.name});
    }
    const Principal who = access_->who(req);
    if (auto too_large = face::body_too_large(req, m.ops.empty() ? max_body : m.body_limit())) throw *too_large;
    if (m.ops.empty()) throw ApiError{face::Code::not_found, "no such resource: " + path};
    const face::Operation& op = m.of_method(req);
    return handlers().at(op.name)(*this, Call{req, &who, m.id, op.name});
}

}  // namespace arbiter::serve
