// operation_table_test.cpp — every operation declared once (face_core/requests/operations.hpp):
// one name each, the position registry's operations all in it with the route POST /api/v1/NAME,
// the routes matched as the service and the hall route them (a session's number, HEAD beside GET,
// 405 naming the path's methods), and docs/api.md's endpoint table naming exactly the table's
// routes, so that a route added in one place and not the other fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "http/http_kit.hpp"
#include "requests/operations.hpp"
#include "requests/position_requests.hpp"

namespace arbiter::face {
namespace {

std::string read_doc(const std::string& path) {
    std::ifstream in(std::string(ARBITER_SOURCE_DIR) + "/" + path);
    EXPECT_TRUE(in) << path;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Request request(std::string method, std::string path) {
    Request r;
    r.method = std::move(method);
    r.path = std::move(path);
    return r;
}

TEST(OperationTable, OneNameEachAndEveryPositionOperation) {
    std::set<std::string_view> names;
    for (const Operation& o : operation_table()) {
        EXPECT_TRUE(names.insert(o.name).second) << o.name << " twice";
        EXPECT_FALSE(o.summary.empty()) << o.name;
        EXPECT_NE(o.faces, 0u) << o.name;
        // A face named is a face with a way in: the CLI's words, a route.
        EXPECT_EQ((o.faces & in_cli) != 0, !o.command.empty()) << o.name;
        EXPECT_EQ(o.method.empty(), o.route.empty()) << o.name;
        EXPECT_EQ((o.faces & in_service) != 0, !o.route.empty()) << o.name;
        if (!o.python.empty()) EXPECT_TRUE(o.faces & in_python) << o.name;
        if (!o.javascript.empty()) EXPECT_TRUE(o.faces & in_javascript) << o.name;
    }
    for (const auto& op : position_operation_table()) {
        const Operation* o = find_operation(op.name);
        ASSERT_NE(o, nullptr) << op.name;
        EXPECT_EQ(o->route, "/api/v1/" + std::string(op.name));
        EXPECT_EQ(o->method, "POST");
        EXPECT_EQ(o->command, op.name) << "every position operation is a command of the CLI";
        // A request that may carry a PGN game may be 16 MiB.
        EXPECT_EQ(o->body_limit, op.keys.contains("pgn") ? max_pgn_body : max_body) << op.name;
    }
    EXPECT_EQ(find_operation("statu"), nullptr);
}

TEST(OperationTable, RoutesAreMatchedAsTheServiceRoutesThem) {
    RouteMatch m = match_route("/api/v1/sessions/12/events");
    ASSERT_EQ(m.ops.size(), 1u);
    EXPECT_EQ(m.ops[0]->name, "session.event");
    EXPECT_EQ(m.id, 12u);
    EXPECT_EQ(m.of_method(request("POST", m.ops[0]->route.data())).name, "session.event");

    for (const char* none : {"/api/v1/sessions/0", "/api/v1/sessions/x", "/api/v1/sessions/", "/api/v1/sessions/1/",
                             "/api/v1/sessions/1/events/2", "/api/v1/sessions/-1", "/api/v1/statu", "/api/v1/",
                             "/index.html", "/api/v1/sessions/99999999999999999999999"})
        EXPECT_TRUE(match_route(none).ops.empty()) << none;

    // One path, two operations: the method chooses; HEAD is a GET's.
    m = match_route("/api/v1/sessions");
    ASSERT_EQ(m.ops.size(), 2u);
    EXPECT_EQ(m.of_method(request("GET", "/api/v1/sessions")).name, "session.list");
    EXPECT_EQ(m.of_method(request("HEAD", "/api/v1/sessions")).name, "session.list");
    EXPECT_EQ(m.of_method(request("POST", "/api/v1/sessions")).name, "session.new");
    EXPECT_FALSE(m.open());
    EXPECT_EQ(m.body_limit(), max_body);
    try {
        (void)m.of_method(request("PUT", "/api/v1/sessions"));
        ADD_FAILURE() << "PUT was taken";
    } catch (const HttpError& e) {
        EXPECT_EQ(e.status, 405);
        EXPECT_EQ(e.extra["allow"], "GET, HEAD, POST");
    }
    m = match_route("/api/v1/sessions/7");
    ASSERT_EQ(m.ops.size(), 2u);
    EXPECT_EQ(m.of_method(request("DELETE", "/api/v1/sessions/7")).name, "session.delete");
    EXPECT_EQ(m.id, 7u);

    EXPECT_TRUE(match_route("/api/v1/health").open());
    EXPECT_TRUE(match_route("/board.svg").open());
    EXPECT_EQ(match_route("/api/v1/claim").body_limit(), max_pgn_body);
    EXPECT_EQ(match_route("/api/v1/perft").body_limit(), max_body);
}

// docs/api.md's endpoint table ("| `METHOD PATH` | …", a session's number written ID) and the
// table's routes are the same set.
TEST(OperationTable, TheDocsListEveryRouteAndNoOther) {
    const std::string api = read_doc("docs/api.md");
    const std::size_t from = api.find("## Endpoints");
    ASSERT_NE(from, std::string::npos);
    const std::string section = api.substr(from, api.find("\n## ", from + 1) - from);
    std::set<std::string> documented;
    static const std::regex row(R"(\n\| `(GET|POST|DELETE|PUT) (/api/v1/[^` ?]*|/board\.svg)[^`]*`)");
    for (auto it = std::sregex_iterator(section.begin(), section.end(), row); it != std::sregex_iterator(); ++it) {
        std::string path = (*it)[2].str();
        path = std::regex_replace(path, std::regex("/ID(/|$)"), "/{id}$1");
        documented.insert((*it)[1].str() + " " + path);
    }
    std::set<std::string> table;
    for (const Operation& o : operation_table())
        if (!o.route.empty()) table.insert(std::string(o.method) + " " + std::string(o.route));
    EXPECT_EQ(documented, table);
}

TEST(OperationTable, TheJsonListsEveryFace) {
    const Json j = operations_json();
    ASSERT_EQ(j.size(), operation_table().size());
    for (const Json& o : j) {
        if (o["name"] == "session.event") {
            EXPECT_EQ(o["cli"], "arbiter session event");
            EXPECT_EQ(o["service"], "POST /api/v1/sessions/{id}/events");
            EXPECT_EQ(o["token"], true);
            EXPECT_EQ(o["faces"], Json::array({"cli", "service"}));
            EXPECT_TRUE(o["python"].is_null());
        }
        if (o["name"] == "audit") {
            EXPECT_TRUE(o["service"].is_null());
            EXPECT_TRUE(o["token"].is_null());
            EXPECT_EQ(o["python"], "audit");
        }
    }
}

}  // namespace
}  // namespace arbiter::face
