// state.hpp — the hall monitor's state file (`arbiter watch --state FILE`, SQLite): every board's
// moves and the alerts in force, acknowledged or not, so that a restarted watch rebuilds its
// boards and does not alert the arbiter twice.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "watch.hpp"

namespace arbiter::watch {

class StateFile {
public:
    /// Opens (creating when missing) the state file. Throws std::runtime_error naming the file
    /// when it cannot be opened or is not a watch state file (a journal, say).
    explicit StateFile(const std::string& path);
    ~StateFile();
    StateFile(const StateFile&) = delete;
    StateFile& operator=(const StateFile&) = delete;

    /// Rebuilds the hall's boards and alerts; returns how many boards were restored.
    std::size_t load(Hall& hall);
    /// Writes, in one transaction, the boards the batch of alerts concerns or `changed` names,
    /// and the alerts given and withdrawn.
    void save(const Hall& hall, const std::vector<std::string>& changed, const std::vector<Alert>& batch);
    /// Marks an alert (by Alert::key()) acknowledged; false when it is not in force.
    bool acknowledge(const std::string& key);
    /// The keys of the acknowledged alerts in force.
    [[nodiscard]] std::vector<std::string> acknowledged();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::watch
