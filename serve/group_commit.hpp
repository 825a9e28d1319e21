// group_commit.hpp — the journal writer of the service: events of many requests share one
// transaction and one fsync (group commit), each request returning when its own event is durable.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

#include "arbiter/journal.hpp"

namespace arbiter::serve {

class GroupCommit {
public:
    /// `journal_mutex` guards every call on the journal (one SQLite connection).
    GroupCommit(Journal& journal, std::mutex& journal_mutex) : journal_(journal), journal_mutex_(journal_mutex) {}
    /// Journals one event: it joins the batch being gathered and returns when the transaction
    /// holding it is committed and synced.
    std::optional<JournalError> append(const Journal::Append& append);

private:
    struct Pending;
    Journal& journal_;
    std::mutex& journal_mutex_;
    std::mutex commit_mutex_;
    std::condition_variable commit_cv_;
    std::vector<Pending*> queued_;  // the events waiting for the next transaction
    bool committing_ = false;       // whether one is being committed now (by the leader of its batch)
};

}  // namespace arbiter::serve
