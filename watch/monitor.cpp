// monitor.cpp — `arbiter watch`'s reading loop (monitor.hpp).
#include "monitor.hpp"

#include <iostream>
#include <set>
#include <thread>

#include "errors.hpp"
#include "json/json.hpp"
#include "sources.hpp"
#include "state.hpp"
#include "text.hpp"
#include "turn.hpp"
#include "watch.hpp"

namespace arbiter::watch {

namespace {

void print(const std::vector<Alert>& alerts) {
    for (const Alert& a : alerts) std::cout << face::dump(alert_json(a)) << '\n';
    std::cout.flush();
}

}  // namespace

int run_monitor(const MonitorOptions& o) {
    if (o.sources.empty() && o.streams.empty())
        throw face::InputError(face::Code::bad_usage, "give at least one SOURCE or --stream URL", "SOURCE");
    WatchOptions options;
    if (o.rules != "auto") {
        const auto id = parse_rule_set(o.rules);
        if (!id)
            throw face::InputError(face::Code::unknown_rule_set,
                                   "--rules: unknown rule set '" + o.rules + "' (expected auto or a rule-set id)",
                                   "rules");
        options.audit.rules = *id;
    }
    options.stale_after = std::chrono::seconds(o.stale_after);
    if (!o.ca_file.empty())
        if (const std::string problem = check_ca_file(o.ca_file); !problem.empty())
            throw face::InputError(face::Code::bad_usage, "--ca-file " + o.ca_file + ": " + problem, "--ca-file");
    for (const std::string& s : o.streams)
        if (!is_url(s))
            throw face::InputError(face::Code::bad_usage, "--stream " + s + ": not an http:// or https:// URL",
                                   "--stream");
    Hall hall(options);
    std::unique_ptr<StateFile> state;
    if (!o.state.empty()) {
        try {
            state = std::make_unique<StateFile>(o.state);
            state->load(hall);
        } catch (const std::exception& e) {
            throw face::InputError(face::Code::bad_state, e.what(), "--state");
        }
    }
    SourceOptions so;
    so.interval = std::chrono::milliseconds(o.interval_ms);
    so.tls = {.ca_file = o.ca_file, .insecure = o.insecure};
    so.stream_timeout = std::chrono::seconds(o.stream_timeout);
    so.once = o.once;
    std::unique_ptr<Sources> sources;
    try {
        sources = std::make_unique<Sources>(o.sources, o.streams, so);
    } catch (const std::invalid_argument& e) {
        throw face::InputError(face::Code::bad_usage, e.what(), "SOURCE");
    }
    std::set<std::string> failed;  // sources that could not be read (with --once: exit 2)
    while (true) {
        const auto started = std::chrono::steady_clock::now();
        const News news = poll_news(*sources);
        for (const SourceProblem& p : news.problems) {
            std::cerr << "arbiter watch: " << face::printable(p.text) << '\n';
            if (p.failed) failed.insert(p.source);
        }
        // The same turn as the service's hall page (turn.hpp); with --once, no tick.
        read_news(hall, news, !o.once, [&](std::vector<Alert>& alerts) {
            if (state) state->save(hall, hall.changed_boards(), alerts);
            print(alerts);
        });
        if (o.once) break;
        sources->wait(started + std::chrono::milliseconds(o.interval_ms));
    }
    return failed.empty() ? 0 : 2;
}

}  // namespace arbiter::watch
