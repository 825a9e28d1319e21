// operations.hpp — every operation arbiter offers, declared once: its name, what it does, and how
// each face reaches it (the CLI's command, the service's method and route with its body limit and
// whether it needs a token, the Python and JavaScript names). The operations on a position are
// position_requests.hpp's registry, which answers them; the others (sessions, the journal, the
// audit, the hall's) are answered by the face that holds their state, through the core's writers.
// The service and the hall route every request by this table (http_kit.hpp's match_route);
// `arbiter help --operations` prints it; tests hold the CLI's commands, the Python module, the
// JavaScript package and docs/api.md's endpoints to it.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "json/json.hpp"

namespace arbiter::face {

/// The faces, as a set of bits.
enum Faces : unsigned {
    in_cli = 1u << 0,
    in_service = 1u << 1,
    in_python = 1u << 2,
    in_javascript = 1u << 3,
};

struct Operation {
    std::string_view name;        ///< "status", "session.event", …: its name in every face's docs
    std::string_view summary;     ///< one line
    unsigned faces = 0;           ///< the Faces that offer it
    std::string_view command;     ///< the CLI's words ("session event"), empty when the CLI has none
    std::string_view method;      ///< the service's HTTP method, empty without a route
    std::string_view route;       ///< its path; a segment "{id}" is a session's number (1 or more)
    std::size_t body_limit = 0;   ///< the largest body the route takes, in bytes
    bool open = false;            ///< answered without a token (health, the rule sets, the board)
    std::string_view python;      ///< Python's name for it (`arbiter.NAME`), empty when only request() has it
    std::string_view javascript;  ///< JavaScript's (a method of load()'s API), likewise
};

/// Every operation, in the order docs/api.md lists their routes.
const std::vector<Operation>& operation_table();
/// The operation called `name`, or nullptr.
const Operation* find_operation(std::string_view name);
/// The table as `arbiter help --operations --json` prints it: [{"name","summary","faces":["cli",
/// "service","python","javascript"],"cli":"arbiter session new","service":"POST /api/v1/sessions",
/// "token":true,"python","javascript"}], null where a face has none ("token": null too). Python
/// and JavaScript reach every position operation by request(NAME) as well.
Json operations_json();

}  // namespace arbiter::face
