// hall_service.hpp — the hall monitor inside `arbiter serve --watch SOURCE...`: a thread reads the
// sources as `arbiter watch` does, and the API under /api/v1/watch gives the boards and the alerts
// (newest first, with acknowledgement) and streams them over Server-Sent Events to the hall page
// (/hall.html). Routes the service serves beside its own (face::Routes, the face core), so that
// neither face includes the other. See docs/watch.md and docs/api.md.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "http/routes.hpp"
#include "sources.hpp"
#include "watch.hpp"

namespace arbiter::watch {

struct HallOptions {
    std::vector<std::string> sources;
    std::vector<std::string> streams{};  ///< --stream URLs (docs/watch.md)
    TlsOptions tls{};
    std::string state;  ///< the state file (SQLite), or "" for none
    int interval_ms = 1000;
    /// The service's access check (`arbiter serve --watch`: serve/access.hpp): reads need a user,
    /// acknowledging an alert an arbiter. None: every request goes through.
    face::Guard guard{};
    int heartbeat_ms = 15'000;
    WatchOptions watch;
};

class HallService final : public face::Routes {
public:
    /// Opens the state file (throws std::runtime_error naming it when it cannot) and starts
    /// reading the sources.
    explicit HallService(HallOptions options);
    ~HallService();
    HallService(const HallService&) = delete;
    HallService& operator=(const HallService&) = delete;

    /// True for the paths this service answers (/api/v1/watch…).
    [[nodiscard]] bool handles(const std::string& path) const noexcept override;
    face::Response handle(const face::Request& req) override;
    /// Ends the reading thread and every stream.
    void stop() override;

private:
    face::Response route(const face::Request& req);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::watch
