// cmd_watch.cpp — `arbiter watch [--rules ID|auto] [--interval-ms N] [--once] [--state FILE]
// [--stream URL]... [--ca-file F] [--insecure] [--stale-after S] SOURCE...`: the options of the
// hall monitor on the command line; its run is the watch face's (watch/monitor.hpp).
#include "cli.hpp"
#include "monitor.hpp"

namespace arbiter::cli {

void add_watch(CLI::App& app) {
    auto* cmd = app.add_subcommand("watch",
                                   "Follow live PGN feeds (files, directories, http(s):// URLs, streams) and alert the "
                                   "arbiter, one JSON line each");
    auto o = std::make_shared<watch::MonitorOptions>();
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
        const int status = watch::run_monitor(*o);
        if (status != 0)
            throw InputError(Code::source_unreadable, "a source could not be read (named above)", "SOURCE",
                             std::nullopt, status);
    });
}

}  // namespace arbiter::cli
