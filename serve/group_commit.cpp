// group_commit.cpp — the journal writer of the service (group_commit.hpp).
#include "group_commit.hpp"

namespace arbiter::serve {

// An append waiting for the group commit, on the stack of the request thread that waits for it.
struct GroupCommit::Pending {
    Journal::Append append;
    std::optional<JournalError> result;
    bool done = false;
};

// The first waiter finding no commit under way commits
// the whole queue (leader); the others wait, and one of those whose event came too late for
// that transaction leads the next. So N events arriving during one fsync cost one more fsync.
std::optional<JournalError> GroupCommit::append(const Journal::Append& append) {
    Pending me{append, std::nullopt, false};
    std::unique_lock l(commit_mutex_);
    queued_.push_back(&me);
    while (!me.done) {
        if (committing_) {
            commit_cv_.wait(l);
            continue;
        }
        committing_ = true;
        std::vector<Pending*> batch;
        batch.swap(queued_);
        l.unlock();
        std::vector<Journal::Append> appends;
        appends.reserve(batch.size());
        for (const Pending* p : batch) appends.push_back(p->append);
        std::vector<std::optional<JournalError>> results;
        {
            std::lock_guard j(journal_mutex_);
            results = journal_.append_all(appends);
        }
        l.lock();
        for (std::size_t i = 0; i < batch.size(); ++i) {
            batch[i]->result = std::move(results[i]);
            batch[i]->done = true;
        }
        committing_ = false;
        commit_cv_.notify_all();
    }
    return me.result;
}

}  // namespace arbiter::serve
