// session_cache.hpp — the sessions the service holds in memory: each one's journaled session, its
// state JSON (built when it changes, so that a GET costs a copy) and the last states as SSE
// messages for its listeners; and the map from id to them, loaded from the journal on first use.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "arbiter/journal.hpp"

namespace arbiter::serve {

struct SessionEntry {
    // Events of one session are applied one at a time: `write` is held from the check of an
    // event to its taking effect (while its append waits for the group commit). Readers take
    // only `m`, which guards js, the state and the SSE messages; js changes under both.
    std::mutex write;
    std::mutex m;
    std::condition_variable cv;
    std::optional<JournaledSession> js;
    std::string state;  // the state JSON, one line
    std::uint64_t version = 0;
    // The last states as SSE messages, so that a listener woken after several events gets each.
    std::deque<std::pair<std::uint64_t, std::string>> recent;
    // Kept only while someone listens: a listener that connects gets the current state first.
    static constexpr std::size_t recent_kept = 64;
    std::size_t listeners = 0;
    bool deleted = false;  // the session was deleted: its streams end

    // Takes the new state JSON (Service::state_text) and makes the SSE message (call with `m` held).
    void refresh(std::string text);
    /// The current state as an SSE message.
    [[nodiscard]] std::string message() const;
};

using EntryPtr = std::shared_ptr<SessionEntry>;

class SessionCache {
public:
    /// The entry of a session, made by `load` (which may throw) the first time it is asked for.
    EntryPtr get(SessionId id, const std::function<EntryPtr()>& load);
    void add(SessionId id, EntryPtr e);
    /// Forgets a deleted session: its entry is marked and its listeners woken (their streams end).
    void remove(SessionId id);
    /// Wakes every listener (the server is stopping).
    void wake_all();

private:
    std::mutex m_;
    std::map<SessionId, EntryPtr> entries_;
};

}  // namespace arbiter::serve
