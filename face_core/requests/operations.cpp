// operations.cpp — the table of every operation (operations.hpp). The position operations' names
// and summaries come from their registry (position_requests.cpp); the rest are written here once.
#include "requests/operations.hpp"

#include <string>

#include "http/routes.hpp"
#include "requests/position_requests.hpp"

namespace arbiter::face {

namespace {

constexpr unsigned everywhere = in_cli | in_service | in_python | in_javascript;

// Python's and JavaScript's names for a position operation, beside request(NAME).
struct NamedIn {
    std::string_view op, python, javascript;
};
constexpr NamedIn position_names[] = {
    {"status", "Game.status", "status"},
    {"claim", "Game.claim", "claim"},
    {"dead", "dead", "dead"},
    {"moves", "Position.legal_moves", "Position.legalMoves"},
    {"play", "Position.push", "Position.play"},
    {"perft", "Position.perft", "Position.perft"},
};

// A path's methods are named in the table's order (a 405's Allow): GET before POST and DELETE.
std::vector<Operation> build() {
    std::vector<Operation> t = {
        {"health", "whether the service is up, its version and its journal's chain", in_service, "", "GET",
         "/api/v1/health", 0, true},
        {"rule_sets", "the rule sets, the default first", in_service, "", "GET", "/api/v1/rule_sets", 0, true},
        {"session.list", "the sessions of a journal", in_cli | in_service, "session list", "GET", "/api/v1/sessions",
         max_body},
        {"session.new", "start a session (a live game under a rule set, journaled)", in_cli | in_service, "session new",
         "POST", "/api/v1/sessions", max_body},
        {"session.show", "a session's state: scoresheet, clocks, offers, rulings", in_cli | in_service, "session show",
         "GET", "/api/v1/sessions/{id}", max_body},
        {"session.delete", "delete a session (its records stay in the journal's chain)", in_cli | in_service,
         "session delete", "DELETE", "/api/v1/sessions/{id}", max_body},
        {"session.history", "every journaled event of a session, with who entered it and when", in_cli | in_service,
         "session show", "GET", "/api/v1/sessions/{id}/history", max_body},
        {"journal", "the journal's hash chain: its head, whole or broken", in_cli | in_service, "session verify", "GET",
         "/api/v1/journal", max_body},
        {"session.event", "apply one event to a session, as the Laws allow it", in_cli | in_service, "session event",
         "POST", "/api/v1/sessions/{id}/events", max_body},
        {"session.export", "a session's scoresheet as PGN", in_cli | in_service, "session export", "GET",
         "/api/v1/sessions/{id}/pgn", max_body},
        {"session.stream", "a session's state after every accepted event (Server-Sent Events)", in_service, "", "GET",
         "/api/v1/sessions/{id}/stream", max_body},
        {"session.import", "a PGN game as a new session", in_cli, "session import"},
    };
    // The operations on a position or a game: their registry's names and summaries.
    for (const PositionOperation& op : position_operation_table()) {
        // A body of 16 MiB where the request may carry a PGN game.
        Operation o{
            op.name, op.summary, everywhere, op.name, "POST", "", op.keys.contains("pgn") ? max_pgn_body : max_body};
        for (const NamedIn& n : position_names)
            if (n.op == op.name) {
                o.python = n.python;
                o.javascript = n.javascript;
            }
        t.push_back(o);
    }
    const std::vector<Operation> rest = {
        {"board", "an SVG board of a FEN, with highlights and arrows", in_service | in_python | in_javascript, "",
         "GET", "/board.svg", 0, true, "Position._repr_svg_", "boardSvg"},
        {"audit", "audit PGN games against the draw rules", in_cli | in_python | in_javascript, "audit", "", "", 0,
         false, "audit", "audit"},
        {"watch", "the hall: every board and its alerts", in_cli | in_service, "watch", "GET", "/api/v1/watch"},
        {"watch.board", "one board of the hall and its alerts, with their evidence", in_service, "", "GET",
         "/api/v1/watch/board"},
        {"watch.stream", "the hall after every change (Server-Sent Events)", in_service, "", "GET",
         "/api/v1/watch/stream"},
        {"watch.ack", "acknowledge an alert of the hall", in_service, "", "POST", "/api/v1/watch/ack", max_body},
    };
    t.insert(t.end(), rest.begin(), rest.end());
    return t;
}

}  // namespace

const std::vector<Operation>& operation_table() {
    static const std::vector<Operation> table = [] {
        std::vector<Operation> t = build();
        // A position operation's route is its name (POST /api/v1/NAME): kept beside the table.
        static std::vector<std::string> routes;
        routes.reserve(t.size());
        for (Operation& o : t)
            if (o.route.empty() && !o.method.empty()) o.route = routes.emplace_back("/api/v1/" + std::string(o.name));
        return t;
    }();
    return table;
}

const Operation* find_operation(std::string_view name) {
    for (const Operation& o : operation_table())
        if (o.name == name) return &o;
    return nullptr;
}

Json operations_json() {
    const auto text_or_null = [](std::string_view t) { return t.empty() ? Json(nullptr) : Json(std::string(t)); };
    Json out = Json::array();
    for (const Operation& o : operation_table()) {
        Json faces = Json::array();
        for (const auto& [bit, name] : {std::pair{in_cli, "cli"}, std::pair{in_service, "service"},
                                        std::pair{in_python, "python"}, std::pair{in_javascript, "javascript"}})
            if (o.faces & bit) faces.push_back(name);
        const bool routed = !o.method.empty();
        out.push_back(Json{
            {"name", std::string(o.name)},
            {"summary", std::string(o.summary)},
            {"faces", faces},
            {"cli", o.command.empty() ? Json(nullptr) : Json("arbiter " + std::string(o.command))},
            {"service", routed ? Json(std::string(o.method) + " " + std::string(o.route)) : Json(nullptr)},
            {"token", routed ? Json(!o.open) : Json(nullptr)},
            {"python", text_or_null(o.python)},
            {"javascript", text_or_null(o.javascript)},
        });
    }
    return out;
}

}  // namespace arbiter::face
