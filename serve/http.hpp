// http.hpp — `arbiter serve` on cpp-httplib: listens (over TLS when given a certificate), adapts
// requests to the Service, streams Server-Sent Events, and holds the journal's serve lock so that a
// second server refuses.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "http/routes.hpp"

namespace arbiter::serve {

/// The connection threads `arbiter serve --threads` takes, and its default; the request timeout's
/// most, in seconds.
inline constexpr std::size_t min_threads = 4, max_threads = 10'000, default_threads = 1024;
inline constexpr int max_request_timeout_s = 3600;

struct ServeOptions {
    std::string journal;
    std::string listen = "127.0.0.1:8080";
    std::string token_file;
    std::size_t threads = default_threads;  ///< the connection threads (cpp-httplib: one a connection)
    int request_timeout_s = 20;             ///< the most a request (line, headers, body) may take to arrive
    /// The certificate (its chain after it) and its private key, PEM: both or neither. With them the
    /// server speaks HTTPS only and reads them again on SIGHUP.
    std::string tls_cert, tls_key;
    bool insecure_http = false;          ///< plain HTTP on an address other than loopback, said explicitly
    bool accept_broken_journal = false;  ///< serve a journal whose hash chain is broken (warned on every page)
    /// Routes served beside the service's own (the hall monitor of `serve --watch`, docs/watch.md),
    /// made with the service's access check (the journal's users and the token guard them too);
    /// none when empty. May throw face::InputError.
    std::function<std::unique_ptr<face::Routes>(face::Guard guard)> routes;
};

/// Runs until SIGINT or SIGTERM (SIGHUP reloads the TLS certificate); returns the exit status. Bad
/// options, a certificate or key that cannot be used, a journal already served, or a non-loopback
/// address without a token or without TLS (unless insecure_http) throw face::InputError (exit 2).
int run(const ServeOptions& options);

}  // namespace arbiter::serve
