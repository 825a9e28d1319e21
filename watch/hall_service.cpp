// hall_service.cpp — /api/v1/watch: the hall monitor's boards and alerts for the hall page.
#include "hall_service.hpp"

#include <chrono>
#include <functional>
#include <iostream>

#include "rules_json.hpp"
#include "sources.hpp"
#include "state.hpp"
#include "text.hpp"

namespace arbiter::watch {

namespace {

using face::Json;

face::Response json_answer(int status, const Json& j) {
    face::Response r;
    r.status = status;
    r.body = face::dump(j) + "\n";
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}

face::Response error_answer(int status, const std::string& code, const std::string& message) {
    return json_answer(status, Json{{"error", face::error_json(code, message)}});
}

bool same_token(const std::string& a, const std::string& b) {
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i % (b.size() + 1)]);
    return diff == 0;
}

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
            std::vector<SourceText> changed;
            std::vector<SourceProblem> problems;
            std::vector<std::string> gone;
            sources.poll(changed, problems, gone);
            for (const SourceProblem& p : problems)
                std::cerr << "arbiter serve --watch: " << face::printable(p.text) << '\n';
            {
                std::lock_guard lock(m);
                bool any = false;
                // The sources' news, then the feeds that went quiet: the same alerts as `arbiter watch`.
                std::vector<std::function<void(std::vector<Alert>&)>> steps;
                for (const SourceText& s : changed)
                    steps.push_back([&](std::vector<Alert>& out) { hall.read(s.name, s.text, out); });
                for (const std::string& g : gone)
                    steps.push_back([&](std::vector<Alert>& out) {
                        hall.source_gone(g, is_url(g) ? face::alert_kind::not_found : face::alert_kind::deleted, out);
                    });
                steps.push_back([&](std::vector<Alert>& out) { hall.tick(std::chrono::steady_clock::now(), out); });
                for (const auto& step : steps) {
                    std::vector<Alert> alerts;
                    step(alerts);
                    try {
                        if (state) state->save(hall, hall.changed_boards(), alerts);
                    } catch (const std::exception& e) {
                        std::cerr << "arbiter serve --watch: " << e.what() << '\n';
                    }
                    for (const Alert& a : alerts)
                        if (a.withdrawn || a.closed) acked.erase(a.key());
                    any = any || !alerts.empty() || !hall.changed_boards().empty();
                }
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
        Json j;
        try {
            j = Json::parse(req.body);
        } catch (const std::exception&) {
            return error_answer(400, "bad_json", "the body must be {\"board\",\"type\",\"kind\",\"ply\"}");
        }
        if (!j.is_object() || !j.contains("board") || !j["board"].is_string() || !j.contains("type") ||
            !j["type"].is_string() || !j.contains("kind") || !j["kind"].is_string() || !j.contains("ply") ||
            !j["ply"].is_number_unsigned())
            return error_answer(400, "bad_field", "the body must be {\"board\",\"type\",\"kind\",\"ply\"}");
        Alert a{.board = j["board"], .type = j["type"], .kind = j["kind"], .ply = j["ply"]};
        const std::string key = a.key();
        std::lock_guard lock(m);
        bool found = false;
        for (const Alert& x : hall.alerts()) found = found || x.key() == key;
        if (!found) return error_answer(404, "not_found", "no such alert in force");
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
    face::Response r;
    if (!impl_->options.token.empty()) {
        const std::string prefix = "Bearer ";
        const std::string& h = req.authorization;
        if (h.rfind(prefix, 0) != 0 || !same_token(h.substr(prefix.size()), impl_->options.token)) {
            r = error_answer(401, "unauthorized", "this server needs Authorization: Bearer TOKEN (the --token-file's)");
            r.headers.emplace_back("WWW-Authenticate", "Bearer");
            return r;
        }
    }
    const bool get = req.method == "GET" || req.method == "HEAD";
    if (req.path == "/api/v1/watch") {
        if (!get) return error_answer(405, "method_not_allowed", req.method + " " + req.path + ": use GET");
        std::lock_guard lock(impl_->m);
        r = json_answer(200, impl_->snapshot());
    } else if (req.path == "/api/v1/watch/board") {
        if (!get) return error_answer(405, "method_not_allowed", req.method + " " + req.path + ": use GET");
        const auto id = req.query.find("id");
        if (id == req.query.end()) return error_answer(400, "bad_field", "give the board as ?id=BOARD");
        std::lock_guard lock(impl_->m);
        Json j = impl_->board_detail(id->second);
        if (j.is_null()) return error_answer(404, "not_found", "no such board: " + id->second);
        r = json_answer(200, j);
    } else if (req.path == "/api/v1/watch/stream") {
        if (!get) return error_answer(405, "method_not_allowed", req.method + " " + req.path + ": use GET");
        r = impl_->stream();
    } else if (req.path == "/api/v1/watch/ack") {
        if (req.method != "POST")
            return error_answer(405, "method_not_allowed", req.method + " " + req.path + ": use POST");
        if (req.body.size() > face::max_body) return error_answer(413, "too_large", "the body is over 1 MiB");
        r = impl_->acknowledge(req);
    } else {
        r = error_answer(404, "not_found", "no such route: " + req.path);
    }
    r.headers.emplace_back("X-Content-Type-Options", "nosniff");
    return r;
}

}  // namespace arbiter::watch
