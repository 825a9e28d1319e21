// rules_threads.hpp — the threads of the service that do the rules' work on sessions (checking an
// event, building a state with its actions), not the connection threads: the dead-position
// analysis keeps a memo of about 1 MB in each thread that ever runs it (thread_local), and the
// connection threads are many (--threads).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace arbiter::serve {

class RulesThreads {
public:
    explicit RulesThreads(int n);
    ~RulesThreads();
    RulesThreads(const RulesThreads&) = delete;
    RulesThreads& operator=(const RulesThreads&) = delete;
    /// Runs f on one of the threads and returns its result (or throws its exception).
    template <class F>
    auto run(F f) -> decltype(f()) {
        auto task = std::make_shared<std::packaged_task<decltype(f())()>>(std::move(f));
        auto result = task->get_future();
        {
            std::lock_guard l(m_);
            queue_.emplace_back([task] { (*task)(); });
        }
        cv_.notify_one();
        return result.get();
    }

private:
    void work();
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> queue_;
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace arbiter::serve
