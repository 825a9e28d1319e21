// sse.cpp — GET /api/v1/sessions/{id}/stream: a session's state as server-sent events, the current
// state first, then the state after every accepted event, with a comment line as heartbeat
// (docs/api.md).
#include <chrono>

#include "api_request.hpp"
#include "service.hpp"

namespace arbiter::serve {

Response Service::stream(SessionId id) {
    const EntryPtr e = entry(id);
    if (streams_.fetch_add(1) >= options_.max_streams) {
        --streams_;
        throw ApiError{face::Code::too_many_streams,
                       "this server holds " + std::to_string(options_.max_streams) + " streams already"};
    }
    // Decrements the count when the stream (and the function holding this) is destroyed.
    {
        std::lock_guard l(e->m);
        ++e->listeners;
    }
    auto held = std::shared_ptr<void>(nullptr, [this, e](void*) {
        --streams_;
        std::lock_guard l(e->m);
        --e->listeners;
    });
    Response r;
    r.content_type = "text/event-stream";
    r.headers.emplace_back("Cache-Control", "no-store");
    r.headers.emplace_back("X-Accel-Buffering", "no");
    auto sent = std::make_shared<std::optional<std::uint64_t>>();
    r.stream = [this, e, held, sent](std::string& chunk) {
        std::unique_lock l(e->m);
        const bool first = !sent->has_value();
        if (!first)
            e->cv.wait_for(l, std::chrono::milliseconds(options_.heartbeat_ms),
                           [&] { return stopping_ || e->deleted || e->version != **sent; });
        if (stopping_ || e->deleted) return false;
        const bool caught_up = !first && e->version == **sent;
        chunk = first ? "retry: 1000\n" : "";
        if (first) {
            chunk += e->message();  // a console that (re)connects gets the current state first
        } else if (e->version != **sent) {
            // The state after every accepted event since the last message (the latest alone when
            // this listener fell more than recent_kept behind).
            if (e->recent.empty() || e->recent.front().first > **sent + 1) {
                chunk += e->message();
            } else {
                for (const auto& [v, m] : e->recent)
                    if (v > **sent) chunk += m;
            }
        } else if (caught_up) {
            chunk += ": keep-alive\n\n";
        }
        *sent = e->version;
        return true;
    };
    return r;
}

}  // namespace arbiter::serve
