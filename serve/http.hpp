// http.hpp — `arbiter serve` on cpp-httplib: listens, adapts requests to the Service, streams
// Server-Sent Events, and holds the journal's serve lock so that a second server refuses.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "routes.hpp"

namespace arbiter::serve {

struct ServeOptions {
    std::string journal;
    std::string listen = "127.0.0.1:8080";
    std::string token_file;
    std::size_t threads = 1024;  ///< the connection threads (cpp-httplib: one a connection)
    int request_timeout_s = 20;  ///< the most a request (line, headers, body) may take to arrive
    /// Routes served beside the service's own (the hall monitor of `serve --watch`, docs/watch.md),
    /// made once the token is known (it guards them too); none when empty. May throw
    /// face::InputError.
    std::function<std::unique_ptr<face::Routes>(const std::string& token)> routes;
};

/// Runs until SIGINT or SIGTERM; returns the exit status. Bad options, a journal already served
/// or a non-loopback address without a token throw face::InputError (exit 2).
int run(const ServeOptions& options);

}  // namespace arbiter::serve
