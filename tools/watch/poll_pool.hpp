// poll_pool.hpp — the few threads that ask the hall monitor's polled URLs (docs/watch.md,
// "Sources"): one schedule ordered by when each URL is next due, served by a small pool rather
// than a thread a URL (1,000 URLs asked once a second cost some 3,000 thread wake-ups a second
// otherwise: a timer, the answer, the hand-over). One thread, the leader, asks the URLs as their
// turns come, taking together the turns that fall within a few milliseconds of each other; a
// second one watches the schedule, and when a turn is overdue by a tenth of a second (a leader
// held up by a slow or silent server, or more requests than one thread can make) it leads too,
// and a new watcher is found (the pool grows up to a bound); a leader with nothing due steps down
// while another leads. A slow or silent server never holds up the others.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <queue>
#include <set>
#include <thread>
#include <utility>
#include <vector>

namespace arbiter::watch {

class UrlFeed;

class PollPool {
public:
    using Clock = std::chrono::steady_clock;
    /// Schedules every feed at its first turn (`first(feed)`) and starts two threads (a leader
    /// and its watcher); the pool grows up to `max_threads` while requests are slow. A turn may be
    /// taken up to `early` before it is due, with others.
    PollPool(const std::vector<UrlFeed*>& feeds, std::size_t max_threads, std::chrono::milliseconds early,
             const std::function<Clock::time_point(const UrlFeed&)>& first);
    /// Stops: no new request starts, those in progress are cut, the threads are joined.
    ~PollPool();
    PollPool(const PollPool&) = delete;
    PollPool& operator=(const PollPool&) = delete;

    /// The threads now running (for tests and the benchmark).
    [[nodiscard]] std::size_t threads() const;

private:
    void run();
    void lead(std::unique_lock<std::mutex>& lock);  // under mutex_, as the next two
    void watch(std::unique_lock<std::mutex>& lock);
    void start_thread();  // under mutex_

    using Turn = std::pair<Clock::time_point, UrlFeed*>;
    mutable std::mutex mutex_;
    std::condition_variable leader_cv_, watcher_cv_, follower_cv_, stop_cv_;
    std::priority_queue<Turn, std::vector<Turn>, std::greater<>> due_;
    std::multiset<UrlFeed*> busy_;  // feeds being asked now
    std::size_t max_threads_, followers_ = 0, leaders_ = 0;
    std::chrono::milliseconds early_;
    bool stopping_ = false, watcher_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace arbiter::watch
