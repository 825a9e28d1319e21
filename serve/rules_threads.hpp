// rules_threads.hpp — the two threads of the service that do all the rules' work (creating a
// session, checking an event, building a state with its actions, replaying a session from the
// journal, the position routes status, claim and dead), not the connection threads: the
// dead-position analysis sets up about 2 MB of tables in each thread that ever runs it
// (analysis_thread_memory() in arbiter/helpmate.hpp), and the connection threads are many
// (--threads). A connection thread only parses, copies the state JSON built here and writes;
// tests/serve/serve_service_test.cpp checks that it sets up no table.
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
