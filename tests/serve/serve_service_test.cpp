// The service without sockets (serve/service.hpp): Service::handle takes a plain Request and
// gives a plain Response, so routing, refusals and the JSON of the answers are tested here in C++
// (the socket side is tests/serve/*.py).
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "arbiter/arbiter.hpp"
#include "http/http_kit.hpp"
#include "json/rules_json.hpp"
#include "requests/game_input.hpp"
#include "requests/operations.hpp"
#include "service.hpp"

namespace arbiter::serve {
namespace {

namespace fs = std::filesystem;

class ServiceTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("arbiter-service-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        service_.reset();
        fs::remove_all(dir_);
    }

    Service& service(ServiceOptions options = {}) {
        auto journal = Journal::open((dir_ / "j.arbiter").string(), Journal::Mode::create_if_missing);
        EXPECT_TRUE(journal.has_value());
        service_ = std::make_unique<Service>(std::move(*journal), options);
        return *service_;
    }

    static Request request(std::string method, std::string path, std::string body = {}) {
        Request r;
        r.method = std::move(method);
        r.path = std::move(path);
        r.body = std::move(body);
        return r;
    }

    static face::Json json(const Response& r) { return face::Json::parse(r.body); }
    static std::string header(const Response& r, const std::string& name) {
        for (const auto& [k, v] : r.headers)
            if (k == name) return v;
        return {};
    }
    static std::string code(const Response& r) { return json(r).at("error").at("code").get<std::string>(); }

    fs::path dir_;
    std::unique_ptr<Service> service_;
};

TEST_F(ServiceTest, HealthAnswersWithTheVersion) {
    const Response r = service().handle(request("GET", "/api/v1/health"));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.content_type, "application/json");
    EXPECT_EQ(json(r).at("status"), "ok");
    EXPECT_EQ(json(r).at("version"), std::string(arbiter::version));
}

TEST_F(ServiceTest, UnknownRoutesAndPagesAre404) {
    Service& s = service();
    for (const char* path : {"/api/v1/nope", "/api/v1/sessions/abc", "/api/v1/sessions/1/what/else", "/no-page.html"}) {
        const Response r = s.handle(request("GET", path));
        EXPECT_EQ(r.status, 404) << path;
        EXPECT_EQ(code(r), "not_found") << path;
    }
    const Response missing = s.handle(request("GET", "/api/v1/sessions/99"));
    EXPECT_EQ(missing.status, 404);
}

TEST_F(ServiceTest, WrongMethodNamesTheAllowedOnes) {
    Service& s = service();
    const Response r = s.handle(request("DELETE", "/api/v1/sessions"));
    EXPECT_EQ(r.status, 405);
    EXPECT_EQ(code(r), "method_not_allowed");
    EXPECT_EQ(json(r).at("allow"), "GET, HEAD, POST");  // a GET route takes HEAD too
    bool header = false;
    for (const auto& [name, value] : r.headers) header |= name == "Allow" && value == "GET, HEAD, POST";
    EXPECT_TRUE(header) << "RFC 9110: the Allow header on a 405";
    EXPECT_EQ(s.handle(request("GET", "/api/v1/status")).status, 405);
    EXPECT_EQ(s.handle(request("PUT", "/api/v1/health")).status, 405);
}

// Every operation of the core's table with a route is answered by the service (the hall's, watch.*,
// by the routes served beside it): each route answers with its method, as its operation, never as an
// unknown resource; and the service answers no operation the table does not list.
TEST_F(ServiceTest, EveryRouteOfTheOperationTableIsAnswered) {
    Service& s = service();
    const auto served = Service::operations();
    std::set<std::string_view> expected;
    for (const face::Operation& o : face::operation_table())
        if (!o.route.empty() && !o.name.starts_with("watch")) expected.insert(o.name);
    EXPECT_EQ(std::set<std::string_view>(served.begin(), served.end()), expected);
    const Response made = s.handle(request("POST", "/api/v1/sessions", "{}"));
    ASSERT_EQ(made.status, 201) << made.body;
    const std::string id = std::to_string(json(made).at("id").get<std::uint64_t>());
    for (const face::Operation& o : face::operation_table()) {
        if (!expected.contains(o.name) || o.name == "session.stream" || o.name == "session.delete") continue;
        std::string path(o.route);
        if (const auto at = path.find("{id}"); at != std::string::npos) path.replace(at, 4, id);
        const std::string body = o.name == "session.event" ? R"({"type":"move","move":"e4"})" : "{}";
        const Response r = s.handle(request(std::string(o.method), path, o.method == "GET" ? "" : body));
        EXPECT_TRUE(r.status < 400 || (code(r) != "not_found" && code(r) != "method_not_allowed"))
            << o.name << ": " << r.status << " " << r.body;
    }
    EXPECT_EQ(s.handle(request("DELETE", "/api/v1/sessions/" + id)).status, 200);
}

// The language of a claim's texts (docs/i18n.md): the body's lang, else ?lang=, else
// Accept-Language (its weights; languages without a catalog passed over), else English; the
// answer says which (Content-Language) and that it varies with the header; the message and the
// codes are the same in every language.
TEST_F(ServiceTest, AClaimIsAnsweredInTheLanguageAsked) {
    Service& s = service();
    const std::string body = R"({"moves":"Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8","kind":"threefold")";
    const auto claim = [&](const std::string& extra, const std::string& accept, const std::string& query = "") {
        Request r = request("POST", "/api/v1/claim", body + extra + "}");
        r.accept_language = accept;
        if (!query.empty()) r.query.emplace("lang", query);
        return s.handle(r);
    };
    const Response en = claim("", "");
    ASSERT_EQ(en.status, 200) << en.body;
    EXPECT_EQ(header(en, "Content-Language"), "en");
    EXPECT_EQ(header(en, "Vary"), "Accept-Language");
    const Response ar = claim("", "de-DE, ar;q=0.9, fa;q=0.8");
    EXPECT_EQ(header(ar, "Content-Language"), "ar");
    EXPECT_NE(json(ar).at("reason").get<std::string>().find("الأبيض"), std::string::npos) << ar.body;
    EXPECT_EQ(json(ar).at("reason_message"), json(en).at("reason_message"));
    EXPECT_EQ(json(ar).at("article"), json(en).at("article"));
    const Response fa = claim("", "fa-IR;q=0.5, ar;q=0.9, en;q=0", "fa");  // ?lang= before the header
    EXPECT_EQ(header(fa, "Content-Language"), "fa");
    EXPECT_NE(json(fa).at("reason").get<std::string>().find("سفید"), std::string::npos) << fa.body;
    EXPECT_EQ(header(claim(R"(,"lang":"en")", "ar"), "Content-Language"), "en");  // the body first
    EXPECT_EQ(header(claim("", "de, *;q=0.1"), "Content-Language"), "en");
    const Response bad = claim("", "", "de");
    EXPECT_EQ(bad.status, 400);
    EXPECT_EQ(code(bad), "bad_value");
    EXPECT_EQ(json(bad).at("error").value("field", ""), "lang") << bad.body;
    EXPECT_EQ(face::accepted_language("fa;q=0.5,ar"), find_language("ar"));
    EXPECT_EQ(face::accepted_language("de, fr"), nullptr);
    EXPECT_EQ(face::accepted_language(""), nullptr);
}

TEST_F(ServiceTest, ATokenGuardsEverythingButHealth) {
    ServiceOptions o;
    o.token = "0123456789abcdef-token";
    Service& s = service(o);
    EXPECT_EQ(s.handle(request("GET", "/api/v1/health")).status, 200);
    Request r = request("GET", "/api/v1/sessions");
    const Response refused = s.handle(r);
    EXPECT_EQ(refused.status, 401);
    EXPECT_EQ(code(refused), "unauthorized");
    EXPECT_EQ(header(refused, "WWW-Authenticate"), "Bearer");
    r.authorization = "Bearer wrong-token-of-some-length";
    EXPECT_EQ(s.handle(r).status, 401);
    r.authorization = "Bearer " + o.token;
    EXPECT_EQ(s.handle(r).status, 200);
}

TEST_F(ServiceTest, BadBodiesAreRefusedWithTheirCode) {
    Service& s = service();
    const Response not_json = s.handle(request("POST", "/api/v1/sessions", "{"));
    EXPECT_EQ(not_json.status, 400);
    EXPECT_EQ(code(not_json), "bad_json");
    EXPECT_EQ(code(s.handle(request("POST", "/api/v1/sessions", "[1]"))), "bad_json");
    const Response too_large = s.handle(request("POST", "/api/v1/sessions", std::string(max_body + 1, ' ')));
    EXPECT_EQ(too_large.status, 413);
    EXPECT_EQ(code(too_large), "too_large");
    const Response field = s.handle(request("POST", "/api/v1/sessions", R"({"rules":"fide-1999"})"));
    EXPECT_EQ(field.status, 400);
    EXPECT_FALSE(code(field).empty());
    const Response no_position = s.handle(request("POST", "/api/v1/status", "{}"));
    EXPECT_EQ(no_position.status, 400);
    EXPECT_EQ(code(no_position), "bad_usage");  // the CLI's code for no position (was bad_position)
}

TEST_F(ServiceTest, StatusIsTheFaceCoresJson) {
    const std::string moves = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";
    const Response r = service().handle(request("POST", "/api/v1/status", R"({"moves":")" + moves + R"("})"));
    ASSERT_EQ(r.status, 200) << r.body;
    face::GameInput in;
    in.moves = moves;
    const auto record = in.build();
    EXPECT_EQ(r.body, face::dump(face::to_json(draw_status(*record), *record)) + "\n");
}

TEST_F(ServiceTest, ASessionIsCreatedShownAndPlayed) {
    Service& s = service();
    const Response created = s.handle(request("POST", "/api/v1/sessions", R"({"white":"A","black":"B"})"));
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string where = header(created, "Location");
    ASSERT_EQ(where, "/api/v1/sessions/1");
    const Response shown = s.handle(request("GET", where));
    EXPECT_EQ(shown.status, 200);
    EXPECT_EQ(shown.body, created.body);
    const Response started = s.handle(request("POST", where + "/events", R"({"type":"start","at_ms":0})"));
    EXPECT_EQ(started.status, 200) << started.body;
    const Response moved = s.handle(request("POST", where + "/events", R"({"type":"move","move":"e4","at_ms":100})"));
    EXPECT_EQ(moved.status, 200) << moved.body;
    const Response illegal = s.handle(request("POST", where + "/events", R"({"type":"move","move":"e4","at_ms":200})"));
    EXPECT_GE(illegal.status, 400) << illegal.body;
    EXPECT_FALSE(code(illegal).empty());
    const Response listed = s.handle(request("GET", "/api/v1/sessions"));
    EXPECT_EQ(listed.status, 200);
    EXPECT_NE(listed.body.find("\"id\":1"), std::string::npos) << listed.body;
    const Response pgn = s.handle(request("GET", where + "/pgn"));
    EXPECT_EQ(pgn.status, 200);
    EXPECT_NE(pgn.body.find("1. e4"), std::string::npos) << pgn.body;
}

// The rules' work runs on the service's own threads (rules_threads.hpp): a connection thread
// that goes through every route, the analysis included (a session's start position and moves,
// the position routes, a replay from the journal, a listener's stream), sets up none of the
// analysis's per-thread tables, which would cost about 2 MB on each of --threads threads.
TEST_F(ServiceTest, TheRulesWorkIsDoneOffTheConnectionThreads) {
    // A thread of the test's own stands for a connection thread (the test's main thread may
    // have run the analysis in another test).
    std::string failures;
    auto connection = [&](const std::function<void()>& f) {
        std::thread t([&] {
            f();
            if (analysis_thread_memory() != 0)
                failures += "this connection thread set up " + std::to_string(analysis_thread_memory()) +
                            " bytes of the analysis's tables\n";
        });
        t.join();
    };
    // Each answer needs the exact analysis: a start position with a mate to find (the
    // automatic check after every ply), a bishop ending, a dead-position question.
    const std::string open_fen = "4k3/8/8/8/8/8/8/2B1K1N1 w - - 0 1";
    connection([&] {
        Service& s = service();
        const Response created = s.handle(
            request("POST", "/api/v1/sessions", R"({"time_control":"5400+30","start_fen":")" + open_fen + R"("})"));
        ASSERT_EQ(created.status, 201) << created.body;
        ASSERT_EQ(s.handle(request("POST", "/api/v1/sessions", "{}")).status, 201);
        const std::string where = header(created, "Location");
        EXPECT_EQ(s.handle(request("POST", where + "/events", R"({"type":"start","at_ms":0})")).status, 200);
        for (const auto& [move, at] : {std::pair{"Nf3", 100}, {"Kd7", 200}, {"Ne5+", 300}}) {
            const Response r = s.handle(
                request("POST", where + "/events",
                        R"({"type":"move","move":")" + std::string(move) + R"(","at_ms":)" + std::to_string(at) + "}"));
            EXPECT_EQ(r.status, 200) << move << ": " << r.body;
        }
        Response stream = s.handle(request("GET", where + "/stream"));
        ASSERT_TRUE(stream.stream);
        std::string chunk;
        EXPECT_TRUE(stream.stream(chunk));
        EXPECT_NE(chunk.find("event: state"), std::string::npos);
        EXPECT_EQ(s.handle(request("GET", where)).status, 200);
        EXPECT_EQ(s.handle(request("GET", "/api/v1/sessions")).status, 200);
        EXPECT_EQ(s.handle(request("GET", where + "/pgn")).status, 200);
        const std::string game =
            R"("fen":"4k3/8/8/8/8/3BK3/8/6N1 w - - 0 1","moves":"Bc4 Ke7 Bd3 Ke8 Bc4 Ke7 Bd3 Ke8")";
        for (const char* route : {"/api/v1/status", "/api/v1/claim", "/api/v1/dead"}) {
            const std::string kind = std::string(route) == "/api/v1/claim" ? R"(,"kind":"threefold")" : "";
            const Response r = s.handle(request("POST", route, "{" + game + kind + "}"));
            EXPECT_EQ(r.status, 200) << route << ": " << r.body;
        }
        const Response dead = s.handle(request("POST", "/api/v1/dead", R"({"fen":")" + open_fen + R"("})"));
        EXPECT_EQ(dead.status, 200) << dead.body;
        Request board = request("GET", "/board.svg");
        board.query.emplace("fen", open_fen);
        EXPECT_EQ(s.handle(board).status, 200);
    });
    // A new service on the same journal replays the sessions on first use.
    connection([&] {
        Service& s = service();
        EXPECT_EQ(s.handle(request("GET", "/api/v1/sessions")).status, 200);
        EXPECT_EQ(s.handle(request("GET", "/api/v1/sessions/1")).status, 200);
        EXPECT_EQ(s.handle(request("POST", "/api/v1/sessions/1/events", R"({"type":"move","move":"Kd6","at_ms":400})"))
                      .status,
                  200);
    });
    EXPECT_EQ(failures, "");
    // The check itself: the analysis run on a thread does set the tables up there.
    std::size_t on_a_thread = 0;
    std::thread([&] {
        auto pos = position_from_fen(open_fen);
        ASSERT_TRUE(pos.has_value());
        (void)HelpmateAnalyzer().can_checkmate(*pos, Color::white);
        on_a_thread = analysis_thread_memory();
    }).join();
    EXPECT_GT(on_a_thread, std::size_t{1} << 20);
}

}  // namespace
}  // namespace arbiter::serve
