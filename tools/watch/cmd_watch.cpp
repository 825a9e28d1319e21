// cmd_watch.cpp — `arbiter watch [--rules ID|auto] [--interval-ms N] [--once] [--state FILE]
// SOURCE...`: the hall monitor on the command line, one JSON line per alert (docs/watch.md).
#include <iostream>
#include <thread>

#include "cli.hpp"
#include "sources.hpp"
#include "state.hpp"
#include "watch.hpp"

namespace arbiter::cli {

namespace {

struct WatchCommand {
    std::string rules = "auto";
    int interval_ms = 500;
    bool once = false;
    std::string state;
    std::vector<std::string> sources;
};

int run_watch(const WatchCommand& o) {
    watch::WatchOptions options;
    if (o.rules != "auto") {
        const auto id = parse_rule_set(o.rules);
        if (!id)
            throw InputError("bad_usage",
                             "--rules: unknown rule set '" + o.rules + "' (expected auto or a rule-set id)", "--rules");
        options.audit.rules = *id;
    }
    watch::Hall hall(options);
    std::unique_ptr<watch::StateFile> state;
    if (!o.state.empty()) {
        try {
            state = std::make_unique<watch::StateFile>(o.state);
            state->load(hall);
        } catch (const std::exception& e) {
            throw InputError("bad_state", e.what(), "--state");
        }
    }
    watch::Sources sources(o.sources, std::chrono::milliseconds(o.interval_ms));
    bool missing = false;
    while (true) {
        const auto started = std::chrono::steady_clock::now();
        std::vector<watch::SourceText> changed;
        std::vector<std::string> problems;
        sources.poll(changed, problems, o.once);
        for (const std::string& p : problems) {
            std::cerr << "arbiter watch: " << printable(p) << '\n';
            missing = missing || p.find("not there") != std::string::npos;
        }
        for (const watch::SourceText& s : changed) {
            std::vector<watch::Alert> alerts;
            hall.read(s.name, s.text, alerts);
            if (state) state->save(hall, hall.changed_boards(), alerts);
            for (const watch::Alert& a : alerts) std::cout << dump(watch::alert_json(a)) << '\n';
            std::cout.flush();
        }
        if (o.once) break;
        std::this_thread::sleep_until(started + std::chrono::milliseconds(o.interval_ms));
    }
    return missing ? 2 : 0;
}

}  // namespace

void add_watch(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "watch", "Follow live PGN feeds (files, directories, http:// URLs) and alert the arbiter, one JSON line each");
    auto o = std::make_shared<WatchCommand>();
    cmd->add_option("--rules", o->rules, "Rule set for every game, or auto (from each game's tags; default)");
    cmd->add_option("--interval-ms", o->interval_ms, "How often every source is read (default 500)")
        ->check(whole_number(10, 3'600'000));
    cmd->add_flag("--once", o->once, "Read every source once, print the alerts for the current state and exit");
    cmd->add_option("--state", o->state,
                    "SQLite file that keeps boards and alerts across restarts (created when missing)");
    cmd->add_option("SOURCE", o->sources, "PGN files, directories of .pgn files, http:// URLs")->required();
    cmd->callback([o] {
        const int status = run_watch(*o);
        if (status != 0) throw InputError("source_missing", "a source was not there", "SOURCE", std::nullopt, status);
    });
}

}  // namespace arbiter::cli
