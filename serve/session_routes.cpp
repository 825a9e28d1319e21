// session_routes.cpp — the routes of sessions: create, list, show, delete, post an event (checked
// by the session, journaled by the group commit with who entered it, a conflict with another
// writer retried once), its history, PGN, and the journal's chain (docs/api.md).
#include "access.hpp"
#include "api_request.hpp"
#include "arbiter/arbiter.hpp"
#include "errors.hpp"
#include "rules_threads.hpp"
#include "service.hpp"
#include "session/session_json.hpp"
#include "text.hpp"

namespace arbiter::serve {

Response Service::create_session(const Request& req, const Principal& who) {
    // The fields of a new session, declared once (face::session_field_table) with the rule options.
    const face::NewSessionInput in = face::new_session_input(parse_object(req.body));
    const SessionConfig cfg = face::session_config(in);  // its refusals answered as the CLI's (http_kit)
    auto e = std::make_shared<SessionEntry>();
    {
        auto s = rules_->run([&] {  // the start position's automatic checks: the rules' work
            std::lock_guard j2(journal_mutex_);
            return JournaledSession::create(journal_, cfg, nullptr, who.name);
        });
        if (!s) throw journal_error(s.error());
        e->js.emplace(std::move(*s));
    }
    e->refresh(state_text(*e->js));
    const SessionId id = e->js->id();
    sessions_.add(id, e);
    Response r;
    r.status = 201;
    r.body = e->state + "\n";
    r.headers.emplace_back("Location", "/api/v1/sessions/" + std::to_string(id));
    return r;
}

Response Service::list_sessions() {
    std::vector<SessionId> ids;
    {
        std::lock_guard j(journal_mutex_);
        auto got = journal_.sessions();
        if (!got) throw journal_error(got.error());
        ids = *got;
    }
    Json out = Json::array();
    for (SessionId id : ids) {
        EntryPtr e;
        try {
            e = entry(id);
        } catch (const ApiError& err) {
            out.push_back(face::damaged_session_row(id, err.code, err.message));
            continue;
        }
        std::lock_guard l(e->m);
        out.push_back(face::session_row(e->js->session(), id));
    }
    return json_response(200, out);
}

Response Service::get_session(SessionId id) {
    const EntryPtr e = entry(id);
    std::lock_guard l(e->m);
    Response r;
    r.body = e->state + "\n";  // built when the state last changed
    return r;
}

Response Service::delete_session(SessionId id, const Principal& who) {
    {
        std::lock_guard j(journal_mutex_);
        if (auto err = journal_.remove(id, who.name)) throw journal_error(*err);
    }
    sessions_.remove(id);
    return json_response(200, Json{{"id", id}, {"deleted", true}, {"by", who.name}});
}

Response Service::history(SessionId id) {
    entry(id);  // a session that does not replay is answered as its other routes answer it
    std::lock_guard j(journal_mutex_);
    auto stored = journal_.load(id);
    if (!stored) throw journal_error(stored.error());
    return json_response(200, face::history_json(*stored));
}

Response Service::journal_state() {
    std::lock_guard j(journal_mutex_);
    auto head = journal_.head();
    if (!head) throw journal_error(head.error());
    Json out{{"head", *head}, {"chain", broken_.empty() ? "whole" : "broken"}};
    if (!broken_.empty()) out["problem"] = broken_;
    return json_response(200, out);
}

Response Service::post_event(SessionId id, const Request& req, const Principal& who) {
    // Refused as `session event` refuses it (http_kit): bad_json, unknown_event_type, missing_field, …
    const Event ev = face::event_from_json(req.body);
    const EntryPtr e = entry(id);
    {
        // The session's sections and boards against the user's; a correction past a ruling is the chief's.
        std::lock_guard l(e->m);
        Access::require(who, Need::event, &e->js->session().config());
    }
    if (ev.type == EventType::retract && ev.force) Access::require(who, Need::chief);
    std::lock_guard w(e->write);
    for (int attempt = 0;; ++attempt) {
        // The session's check, in memory (the journal untouched), on a rules thread.
        auto staged = rules_->run([&] { return e->js->stage(ev); });
        std::optional<JournalError> err;
        if (!staged)
            err = staged.error();
        else
            err = commit_.append(staged->append(id, who.name));
        if (err && err->code == JournalError::Code::conflict && attempt == 0) {
            // Another process (the CLI) appended meanwhile: reload the session and try again.
            std::optional<JournaledSession> reloaded;
            {
                auto s = rules_->run([&] {
                    std::lock_guard j(journal_mutex_);
                    return JournaledSession::open(journal_, id);
                });
                if (!s) throw journal_error(s.error());
                reloaded.emplace(std::move(*s));
            }
            std::string text = state_text(*reloaded);
            std::lock_guard l(e->m);
            e->js.emplace(std::move(*reloaded));
            e->refresh(std::move(text));
            continue;
        }
        if (err && err->refusal) {
            const Json refusal = face::refusal_json(*err->refusal, err->message, id);
            throw ApiError(face::InputError(*err->refusal, err->message), 409, Json{{"refusal", refusal}});
        }
        if (err) throw journal_error(*err);
        std::lock_guard l(e->m);
        e->js->commit(std::move(*staged));
        e->refresh(state_text(*e->js));
        Response r;
        r.body = e->state + "\n";
        return r;
    }
}

Response Service::pgn(SessionId id) {
    const EntryPtr e = entry(id);
    std::lock_guard l(e->m);
    Response r;
    r.content_type = "application/x-chess-pgn; charset=utf-8";
    r.body = export_pgn(e->js->session());
    return r;
}

}  // namespace arbiter::serve
