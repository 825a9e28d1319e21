// hall_service.cpp — /api/v1/watch: the hall monitor's boards and alerts for the hall page.
#include "hall_service.hpp"

#include <chrono>
#include <functional>
#include <iostream>

#include "http/http_kit.hpp"
#include "json/json.hpp"
#include "json/json_object.hpp"
#include "requests/request_fields.hpp"
#include "sources.hpp"
#include "state.hpp"
#include "text.hpp"
#include "turn.hpp"

namespace arbiter::watch {

namespace {

using face::Json;

// The face core's HTTP kit (http_kit.hpp), as the service answers: one error body; the service's
// access check (HallOptions::guard) for the users.
using face::HttpError;
using face::json_response;

face::Response json_answer(int status, const Json& j) { return json_response(status, j); }

}  // namespace

struct HallService::Impl {
    HallOptions options;
    Hall hall;
    std::unique_ptr<StateFile> state;
    Sources sources;
    std::mutex m;
    std::condition_variable cv;
    std::set<std::string> acked;  // keys of acknowledged alerts
    std::uint64_t version = 1;
    bool stopping = false;
    std::thread thread;
    std::mutex stop_mutex;

    explicit Impl(HallOptions o)
        : options(std::move(o)),
          hall(options.watch),
          sources(options.sources, options.streams,
                  SourceOptions{.interval = std::chrono::milliseconds(options.interval_ms), .tls = options.tls}) {
        if (!options.state.empty()) {
            state = std::make_unique<StateFile>(options.state);
            state->load(hall);
            for (const std::string& k : state->acknowledged()) acked.insert(k);
        }
    }

    void loop() {
        while (true) {
            const auto started = std::chrono::steady_clock::now();
            const News news = poll_news(sources);
            for (const SourceProblem& p : news.problems)
                std::cerr << "arbiter serve --watch: " << face::printable(p.text) << '\n';
            {
                std::lock_guard lock(m);
                bool any = false;
                // The same turn as `arbiter watch` (turn.hpp), under the page's lock.
                read_news(hall, news, true, [&](std::vector<Alert>& alerts) {
                    try {
                        if (state) state->save(hall, hall.changed_boards(), alerts);
                    } catch (const std::exception& e) {
                        std::cerr << "arbiter serve --watch: " << e.what() << '\n';
                    }
                    for (const Alert& a : alerts)
                        if (a.withdrawn || a.closed) acked.erase(a.key());
                    any = any || !alerts.empty() || !hall.changed_boards().empty();
                });
                if (any) ++version;
            }
            cv.notify_all();
            // Until the next turn, or sooner when a stream or URL has news (or stop() rings).
            sources.wait(started + std::chrono::milliseconds(options.interval_ms));
            std::lock_guard lock(m);
            if (stopping) return;
        }
    }

    // Under the lock.
    Json snapshot() const {
        Json boards = Json::array();
        std::map<std::string, int> open;  // unacknowledged alerts by board
        const std::vector<Alert> all = hall.alerts();
        for (const Alert& a : all)
            if (!acked.count(a.key())) ++open[a.board];
        for (const BoardView& b : hall.boards()) {
            auto text = [](const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); };
            auto clock = [](std::int64_t ms) { return ms < 0 ? Json(nullptr) : Json(ms); };
            boards.push_back(
                Json{{"board", b.id},
                     {"white", b.white},
                     {"black", b.black},
                     {"round", b.round},
                     {"source", text(b.source)},
                     {"result", b.result},
                     {"fen", text(b.fen)},
                     {"plies", b.plies},
                     {"move", text(b.last_move)},
                     {"clocks", Json{{"white", clock(b.white_clock_ms)}, {"black", clock(b.black_clock_ms)}}},
                     {"ended", b.ended ? Json(*b.ended) : Json(nullptr)},
                     {"open_alerts", open[b.id]}});
        }
        Json alerts = Json::array();
        for (auto it = all.rbegin(); it != all.rend(); ++it) {
            Json j = alert_json(*it);
            j["acknowledged"] = acked.count(it->key()) > 0;
            alerts.push_back(std::move(j));
        }
        return Json{{"version", version}, {"boards", std::move(boards)}, {"alerts", std::move(alerts)}};
    }

    // Under the lock: one board with its alerts and their evidence, or null.
    Json board_detail(const std::string& id) const {
        for (const BoardView& b : hall.boards()) {
            if (b.id != id) continue;
            Json alerts = Json::array();
            const std::vector<Alert> all = hall.alerts();
            for (auto it = all.rbegin(); it != all.rend(); ++it) {
                if (it->board != id) continue;
                Json j = alert_json(*it);
                j["acknowledged"] = acked.count(it->key()) > 0;
                Json ev = Json::array();
                for (const Evidence& e : hall.evidence(*it))
                    ev.push_back(
                        Json{{"ply", e.ply}, {"fen", e.fen}, {"move", e.move.empty() ? Json(nullptr) : Json(e.move)}});
                j["evidence"] = std::move(ev);
                alerts.push_back(std::move(j));
            }
            return Json{{"board", id},
                        {"white", b.white},
                        {"black", b.black},
                        {"round", b.round},
                        {"fen", b.fen.empty() ? Json(nullptr) : Json(b.fen)},
                        {"plies", b.plies},
                        {"alerts", std::move(alerts)}};
        }
        return nullptr;
    }

    face::Response acknowledge(const face::Request& req) {
        // The one JSON reader (bad_json with its byte) and the keys read as every request's.
        const Json j = face::parse_json_object(req.body, "the body");
        const face::Fields f(j, {"board", "type", "kind", "ply"});
        Alert a;
        for (const char* key : {"board", "type", "kind", "ply"})
            if (!f.has(key))
                throw face::FieldError(
                    std::string("\"") + key + "\" is missing: the body is {\"board\",\"type\",\"kind\",\"ply\"}", key);
        f.text("board", a.board);
        f.text("type", a.type);
        f.text("kind", a.kind);
        f.number("ply", a.ply, 0, 1'000'000'000);
        const std::string key = a.key();
        std::lock_guard lock(m);
        bool found = false;
        for (const Alert& x : hall.alerts()) found = found || x.key() == key;
        if (!found) throw HttpError{face::Code::not_found, "no such alert in force"};
        acked.insert(key);
        if (state) state->acknowledge(key);
        ++version;
        cv.notify_all();
        return json_answer(200, Json{{"acknowledged", true}});
    }

    face::Response stream() {
        face::Response r;
        r.content_type = "text/event-stream";
        r.headers.emplace_back("Cache-Control", "no-store");
        r.headers.emplace_back("X-Accel-Buffering", "no");
        auto sent = std::make_shared<std::uint64_t>(0);
        r.stream = [this, sent](std::string& chunk) {
            std::unique_lock lock(m);
            if (*sent != 0)
                cv.wait_for(lock, std::chrono::milliseconds(options.heartbeat_ms),
                            [&] { return stopping || version != *sent; });
            if (stopping) return false;
            chunk = *sent == 0 ? "retry: 1000\n" : "";
            if (version != *sent) {
                chunk += "event: hall\ndata: " + face::dump(snapshot()) + "\n\n";
                *sent = version;
            } else {
                chunk += ": keep-alive\n\n";
            }
            return true;
        };
        return r;
    }
};

HallService::HallService(HallOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
    impl_->thread = std::thread([this] { impl_->loop(); });
}

HallService::~HallService() { stop(); }

void HallService::stop() {
    {
        std::lock_guard lock(impl_->m);
        impl_->stopping = true;
    }
    impl_->cv.notify_all();
    impl_->sources.wake();
    // The signal thread and the main thread may both stop the service: one joins.
    std::lock_guard once(impl_->stop_mutex);
    if (impl_->thread.joinable()) impl_->thread.join();
}

bool HallService::handles(const std::string& path) const noexcept { return path.rfind("/api/v1/watch", 0) == 0; }

face::Response HallService::handle(const face::Request& req) {
    return face::answer(req, [this](const face::Request& q) { return route(q); });
}

face::Response HallService::route(const face::Request& req) {
    if (impl_->options.guard)
        if (auto refused = impl_->options.guard(req, req.method == "POST")) return *refused;
    // The hall's operations of the core's table (face_core/requests/operations.hpp): watch.*.
    face::RouteMatch m = face::match_route(req.path);
    std::erase_if(m.ops, [](const face::Operation* o) { return !o->name.starts_with("watch"); });
    if (m.ops.empty()) throw HttpError{face::Code::not_found, "no such route: " + req.path};
    const std::string_view op = m.of_method(req).name;
    if (m.body_limit() > 0)
        if (auto too_large = face::body_too_large(req, m.body_limit())) throw *too_large;
    if (op == "watch") {
        std::lock_guard lock(impl_->m);
        return json_answer(200, impl_->snapshot());
    }
    if (op == "watch.board") {
        const auto id = req.query.find("id");
        if (id == req.query.end()) throw face::FieldError("give the board as ?id=BOARD", "id");
        std::lock_guard lock(impl_->m);
        Json j = impl_->board_detail(id->second);
        if (j.is_null()) throw HttpError{face::Code::not_found, "no such board: " + id->second};
        return json_answer(200, j);
    }
    if (op == "watch.stream") return impl_->stream();
    return impl_->acknowledge(req);  // watch.ack
}

}  // namespace arbiter::watch
