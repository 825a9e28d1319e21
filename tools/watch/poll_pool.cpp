// poll_pool.cpp — polled URLs served by a few threads from one schedule.
#include "poll_pool.hpp"

#include <algorithm>

#include "url_feed.hpp"

namespace arbiter::watch {

namespace {

// A turn overdue by more than this calls the watcher in to lead too.
constexpr std::chrono::milliseconds slow{100};

}  // namespace

PollPool::PollPool(const std::vector<UrlFeed*>& feeds, std::size_t max_threads, std::chrono::milliseconds early,
                   const std::function<Clock::time_point(const UrlFeed&)>& first)
    : max_threads_(std::max<std::size_t>(max_threads, 2)), early_(early) {
    std::lock_guard lock(mutex_);
    for (UrlFeed* feed : feeds) due_.emplace(first(*feed), feed);
    start_thread();
    start_thread();
}

PollPool::~PollPool() {
    std::unique_lock lock(mutex_);
    stopping_ = true;
    leader_cv_.notify_all();
    watcher_cv_.notify_all();
    follower_cv_.notify_all();
    // A request in progress ends when its socket is shut; one just starting may miss the first
    // stop(), hence the repetition until no feed is being asked.
    while (!busy_.empty()) {
        const std::vector<UrlFeed*> asked(busy_.begin(), busy_.end());
        lock.unlock();
        for (UrlFeed* feed : asked) feed->cut();
        lock.lock();
        stop_cv_.wait_for(lock, std::chrono::milliseconds(20), [&] { return busy_.empty(); });
    }
    lock.unlock();
    for (std::thread& t : threads_) t.join();
}

std::size_t PollPool::threads() const {
    std::lock_guard lock(mutex_);
    return threads_.size();
}

void PollPool::start_thread() {
    threads_.emplace_back([this] { run(); });
}

// Each thread leads when there is no leader, watches when there is no watcher, and waits to be
// called otherwise.
void PollPool::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (leaders_ == 0) {
            lead(lock);
        } else if (!watcher_) {
            watch(lock);
        } else {
            ++followers_;
            follower_cv_.wait(lock);
            --followers_;
        }
    }
}

// Asks the URLs as their turns come, taking together those due within `early_`. A leader that
// finds nothing due while another leads steps down, so that one thread at most waits for the
// next turn.
void PollPool::lead(std::unique_lock<std::mutex>& lock) {
    ++leaders_;
    while (!stopping_) {
        const auto now = Clock::now();
        if (due_.empty() || due_.top().first > now + early_) {
            if (leaders_ > 1) break;
            if (due_.empty())
                leader_cv_.wait(lock);
            else
                leader_cv_.wait_until(lock, due_.top().first);
            continue;
        }
        UrlFeed* feed = due_.top().second;
        due_.pop();
        const auto busy = busy_.insert(feed);
        lock.unlock();
        const std::optional<std::chrono::milliseconds> wait = feed->poll_once();
        lock.lock();
        busy_.erase(busy);
        if (wait && !stopping_) {
            due_.emplace(Clock::now() + *wait, feed);
            if (due_.top().second == feed) leader_cv_.notify_one();  // the earliest turn changed
        }
        if (stopping_) stop_cv_.notify_all();
    }
    --leaders_;
}

// Looks at the schedule every tenth of a second: when a turn is overdue by more than that (a
// leader held up by a slow server, or more requests than the leaders can make one after
// another), this thread leads too, and another (a follower, or a new thread while there are fewer
// than the bound) becomes the watcher.
void PollPool::watch(std::unique_lock<std::mutex>& lock) {
    watcher_ = true;
    while (!stopping_) {
        watcher_cv_.wait_for(lock, slow);
        if (stopping_ || due_.empty() || Clock::now() - due_.top().first < slow) continue;
        watcher_ = false;
        if (followers_ > 0)
            follower_cv_.notify_one();
        else if (threads_.size() < max_threads_)
            start_thread();
        lead(lock);
        return;
    }
    watcher_ = false;
}

}  // namespace arbiter::watch
