// service.hpp — the core of `arbiter serve`: the routes of the JSON API (/api/v1), the board SVG
// and the console's files, as a function from a plain Request to a plain Response, over the
// sessions of one journal. No sockets here (http.cpp adapts it to cpp-httplib), so that every
// route gives the CLI's own JSON and the rules of docs/api.md in one place.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/journal.hpp"
#include "group_commit.hpp"
#include "http/routes.hpp"
#include "session_cache.hpp"

namespace arbiter::serve {

class RulesThreads;
class Access;
struct Principal;

using Request = face::Request;
using Response = face::Response;
using face::max_body;
using face::max_pgn_body;

struct ServiceOptions {
    std::string token;              ///< when set, every route but health, board.svg and the static files needs it
    std::size_t max_streams = 900;  ///< SSE listeners held at once (each holds a thread); beyond: 503
    int heartbeat_ms = 15'000;      ///< an SSE comment line this often, so that dead clients are seen
    /// Serve a journal whose hash chain is broken (docs/api.md, Security): warned on every page.
    /// Without it the constructor throws face::InputError naming the first bad record.
    bool accept_broken_journal = false;
};

class Service {
public:
    Service(Journal journal, ServiceOptions options);
    ~Service();
    Service(const Service&) = delete;
    Service& operator=(const Service&) = delete;

    Response handle(const Request& req);
    /// Wakes and ends every SSE stream (the server is stopping).
    void stop();
    /// The access check, for routes served beside these (the hall's).
    face::Guard guard();
    /// True when requests must carry a token (a --token-file, or users in the journal).
    bool access_required();
    /// The operations of face::operation_table() the service answers (the hall's are served beside).
    static std::vector<std::string_view> operations();

private:
    Journal journal_;
    ServiceOptions options_;
    std::mutex journal_mutex_;  // one SQLite connection: every journal call under this
    GroupCommit commit_;        // the journal writer
    std::unique_ptr<RulesThreads> rules_;
    std::unique_ptr<Access> access_;
    std::string broken_;  // the chain's problem, when served anyway (--accept-broken-journal)
    SessionCache sessions_;
    std::atomic<bool> stopping_{false};
    std::atomic<std::size_t> streams_{0};

    // The state JSON of a session, built on a rules thread.
    std::string state_text(const JournaledSession& js);
    Response route(const Request& req);
    // A request routed to an operation: the request, who asked (null for an open route) and the
    // route's session number.
    struct Call {
        const Request& req;
        const Principal* who;
        SessionId id;
        std::string_view op;
    };
    using Handler = Response (*)(Service&, const Call&);
    static const std::map<std::string_view, Handler>& handlers();
    EntryPtr entry(SessionId id);  // throws ApiError no_such_session
    Response create_session(const Request& req, const Principal& who);
    Response delete_session(SessionId id, const Principal& who);
    Response list_sessions();
    Response get_session(SessionId id);
    Response history(SessionId id);
    Response journal_state();
    Response post_event(SessionId id, const Request& req, const Principal& who);
    Response pgn(SessionId id);
    Response stream(SessionId id);
    Response position_route(const std::string& what, const Request& req);
};

}  // namespace arbiter::serve
