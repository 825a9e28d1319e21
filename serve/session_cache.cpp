// session_cache.cpp — the sessions the service holds in memory (session_cache.hpp).
#include "session_cache.hpp"

namespace arbiter::serve {

void SessionEntry::refresh(std::string text) {
    state = std::move(text);
    ++version;
    if (listeners > 0) {
        recent.emplace_back(version, message());
        if (recent.size() > recent_kept) recent.pop_front();
    } else {
        recent.clear();
    }
    cv.notify_all();
}

std::string SessionEntry::message() const {
    return "id: " + std::to_string(js->session().events_applied()) + "\nevent: state\ndata: " + state + "\n\n";
}

EntryPtr SessionCache::get(SessionId id, const std::function<EntryPtr()>& load) {
    std::lock_guard lock(m_);
    if (auto it = entries_.find(id); it != entries_.end()) return it->second;
    EntryPtr e = load();
    entries_.emplace(id, e);
    return e;
}

void SessionCache::add(SessionId id, EntryPtr e) {
    std::lock_guard lock(m_);
    entries_.emplace(id, std::move(e));
}

void SessionCache::remove(SessionId id) {
    std::lock_guard lock(m_);
    const auto it = entries_.find(id);
    if (it == entries_.end()) return;
    {
        std::lock_guard l(it->second->m);
        it->second->deleted = true;
        it->second->cv.notify_all();
    }
    entries_.erase(it);
}

void SessionCache::wake_all() {
    std::lock_guard lock(m_);
    for (auto& [id, e] : entries_) {
        std::lock_guard l(e->m);
        e->cv.notify_all();
    }
}

}  // namespace arbiter::serve
