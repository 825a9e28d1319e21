// cmd_watch.cpp — `arbiter watch [--rules ID|auto] [--interval-ms N] [--once] [--state FILE]
// [--stream URL]... [--ca-file F] [--insecure] [--stale-after S] SOURCE...`: the hall monitor on
// the command line, one JSON line per alert (docs/watch.md).
#include <iostream>
#include <set>
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
    std::vector<std::string> sources, streams;
    std::string ca_file;
    bool insecure = false;
    int stale_after = 300;
    int stream_timeout = 60;
};

void print(const std::vector<watch::Alert>& alerts) {
    for (const watch::Alert& a : alerts) std::cout << dump(watch::alert_json(a)) << '\n';
    std::cout.flush();
}

int run_watch(const WatchCommand& o) {
    if (o.sources.empty() && o.streams.empty())
        throw InputError("bad_usage", "give at least one SOURCE or --stream URL", "SOURCE");
    watch::WatchOptions options;
    if (o.rules != "auto") {
        const auto id = parse_rule_set(o.rules);
        if (!id)
            throw InputError("bad_usage",
                             "--rules: unknown rule set '" + o.rules + "' (expected auto or a rule-set id)", "--rules");
        options.audit.rules = *id;
    }
    options.stale_after = std::chrono::seconds(o.stale_after);
    if (!o.ca_file.empty())
        if (const std::string problem = watch::check_ca_file(o.ca_file); !problem.empty())
            throw InputError("bad_usage", "--ca-file " + o.ca_file + ": " + problem, "--ca-file");
    for (const std::string& s : o.streams)
        if (!watch::is_url(s))
            throw InputError("bad_usage", "--stream " + s + ": not an http:// or https:// URL", "--stream");
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
    watch::SourceOptions so;
    so.interval = std::chrono::milliseconds(o.interval_ms);
    so.tls = {.ca_file = o.ca_file, .insecure = o.insecure};
    so.stream_timeout = std::chrono::seconds(o.stream_timeout);
    so.once = o.once;
    std::unique_ptr<watch::Sources> sources;
    try {
        sources = std::make_unique<watch::Sources>(o.sources, o.streams, so);
    } catch (const std::invalid_argument& e) {
        throw InputError("bad_usage", e.what(), "SOURCE");
    }
    std::set<std::string> failed;  // sources that could not be read (with --once: exit 2)
    while (true) {
        const auto started = std::chrono::steady_clock::now();
        std::vector<watch::SourceText> changed;
        std::vector<watch::SourceProblem> problems;
        std::vector<std::string> gone;
        sources->poll(changed, problems, gone);
        for (const watch::SourceProblem& p : problems) {
            std::cerr << "arbiter watch: " << printable(p.text) << '\n';
            if (p.failed) failed.insert(p.source);
        }
        for (const watch::SourceText& s : changed) {
            std::vector<watch::Alert> alerts;
            hall.read(s.name, s.text, alerts);
            if (state) state->save(hall, hall.changed_boards(), alerts);
            print(alerts);
        }
        for (const std::string& g : gone) {
            std::vector<watch::Alert> alerts;
            hall.source_gone(g, watch::is_url(g) ? "not_found" : "deleted", alerts);
            if (state) state->save(hall, hall.changed_boards(), alerts);
            print(alerts);
        }
        if (o.once) break;
        std::vector<watch::Alert> alerts;
        hall.tick(std::chrono::steady_clock::now(), alerts);
        if (state) state->save(hall, hall.changed_boards(), alerts);
        print(alerts);
        sources->wait(started + std::chrono::milliseconds(o.interval_ms));
    }
    return failed.empty() ? 0 : 2;
}

}  // namespace

void add_watch(CLI::App& app) {
    auto* cmd = app.add_subcommand("watch",
                                   "Follow live PGN feeds (files, directories, http(s):// URLs, streams) and alert the "
                                   "arbiter, one JSON line each");
    auto o = std::make_shared<WatchCommand>();
    cmd->add_option("--rules", o->rules, "Rule set for every game, or auto (from each game's tags; default)");
    cmd->add_option("--interval-ms", o->interval_ms, "How often every source is read (default 500)")
        ->check(whole_number(10, 3'600'000));
    cmd->add_flag("--once", o->once,
                  "Read every source once, print the alerts for the current state and exit (2 when a source could "
                  "not be read)");
    cmd->add_option("--state", o->state,
                    "SQLite file that keeps boards and alerts across restarts (created when missing)");
    cmd->add_option("--stream", o->streams,
                    "An http(s):// URL that keeps its connection open and sends PGN games as they change "
                    "(repeatable)");
    cmd->add_option("--ca-file", o->ca_file, "PEM file of CA certificates trusted for https, besides the system's");
    cmd->add_flag("--insecure", o->insecure, "Do not check https certificates at all");
    cmd->add_option("--stale-after", o->stale_after,
                    "feed_stale for a game in progress whose feed has not changed for this many seconds (default "
                    "300, 0: never)")
        ->check(whole_number(0, 86'400));
    cmd->add_option("--stream-timeout", o->stream_timeout,
                    "A stream silent for this many seconds is connected again (default 60)")
        ->check(whole_number(1, 86'400));
    cmd->add_option("SOURCE", o->sources, "PGN files, directories of .pgn files, http(s):// URLs to poll");
    cmd->callback([o] {
        const int status = run_watch(*o);
        if (status != 0)
            throw InputError("source_unreadable", "a source could not be read (named above)", "SOURCE", std::nullopt,
                             status);
    });
}

}  // namespace arbiter::cli
