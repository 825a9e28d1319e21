// rules_threads.cpp — the rules' threads of the service (rules_threads.hpp).
#include "rules_threads.hpp"

namespace arbiter::serve {

RulesThreads::RulesThreads(int n) {
    for (int i = 0; i < n; ++i) threads_.emplace_back([this] { work(); });
}

RulesThreads::~RulesThreads() {
    {
        std::lock_guard l(m_);
        stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
}

void RulesThreads::work() {
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock l(m_);
            cv_.wait(l, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return;
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        job();
    }
}

}  // namespace arbiter::serve
