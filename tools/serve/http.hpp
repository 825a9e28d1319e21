// http.hpp — `arbiter serve` on cpp-httplib: listens, adapts requests to the Service, streams
// Server-Sent Events, and holds the journal's serve lock so that a second server refuses.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace arbiter::serve {

struct ServeOptions {
    std::string journal;
    std::string listen = "127.0.0.1:8080";
    std::string token_file;
    std::size_t threads = 1024;  ///< the connection threads (cpp-httplib: one a connection)
    /// The hall monitor (docs/watch.md): PGN sources to follow, shown on /hall.html; its state
    /// file and how often it reads them.
    std::vector<std::string> watch;
    std::string watch_state;
    int watch_interval_ms = 500;
    std::vector<std::string> watch_streams;  ///< --watch-stream URLs (watch --stream)
    std::string watch_ca_file;               ///< as watch --ca-file
    int request_timeout_s = 20;              ///< the most a request (line, headers, body) may take to arrive
};

/// Runs until SIGINT or SIGTERM; returns the exit status. Bad options, a journal already served
/// or a non-loopback address without a token throw cli::InputError (exit 2).
int run(const ServeOptions& options);

}  // namespace arbiter::serve
