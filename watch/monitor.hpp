// monitor.hpp — `arbiter watch`'s run: the hall monitor over its sources, one JSON line per alert
// on standard output, problems with the sources on standard error, the state file kept
// (docs/watch.md). The command line registers the options (cli/cmd_watch.cpp).
#pragma once

#include <string>
#include <vector>

namespace arbiter::watch {

/// What `arbiter watch` takes (its options, docs/watch.md).
struct MonitorOptions {
    std::string rules = "auto";
    int interval_ms = 500;
    bool once = false;
    std::string state;
    std::vector<std::string> sources, streams;
    std::string ca_file;
    bool insecure = false;
    int stale_after = 300;
    int stream_timeout = 60;
};

/// Runs until stopped (with `once`: every source read once); returns 0, or 2 with `once` when a
/// source could not be read. Bad options throw face::InputError naming the option.
int run_monitor(const MonitorOptions& options);

}  // namespace arbiter::watch
