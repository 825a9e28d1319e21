// http_client.hpp — what the hall monitor's http:// and https:// feeds share (docs/watch.md,
// "Sources"): URLs and redirect targets, certificates checked against the system's store plus an
// optional --ca-file (or not at all with --insecure), and the outcome of one request. The requests
// themselves, polled and streamed, are made by poll_loop.hpp on libcurl.
#pragma once

#include <optional>
#include <string>
#include <string_view>

struct ssl_ctx_st;

namespace arbiter::watch {

/// Certificates: the system's store, plus `ca_file` when given; `insecure` checks none.
struct TlsOptions {
    std::string ca_file{};
    bool insecure = false;
};

struct Url {
    bool tls = false;  ///< https
    std::string host{}, path{};
    int port = 80;
    /// "https://host:port/path" (the port only when it is not the scheme's; an IPv6 address in
    /// brackets): what libcurl is asked and what a person is shown.
    [[nodiscard]] std::string text() const;
};

/// Makes a TLS client context check the server's certificate as `tls` says: against one store for
/// the whole process (the system's CAs and --ca-file, read once: not once for each of 1,000 feeds),
/// and its name against `host` (a name or an IP address), both during the handshake, so that a
/// refusal carries OpenSSL's reason ("hostname mismatch", "self-signed certificate"…).
void trust_server_certificates(ssl_ctx_st* ctx, const TlsOptions& tls, const std::string& host);

/// "" when `path` holds CA certificates (PEM) that OpenSSL can load, else what is wrong.
std::string check_ca_file(const std::string& path);

/// Parses "http://host[:port][/path]" or "https://…"; nullopt with `error` set otherwise.
std::optional<Url> parse_url(std::string_view spec, std::string& error);

/// Where `location` (a Location header) points from `base`: an absolute URL or a path.
std::optional<Url> resolve_location(const Url& base, std::string_view location, std::string& error);

/// The outcome of one request (redirects followed): a polled URL's body or 304, a stream that the
/// server ended (`body`, empty: its games went to the feed as they came), or a failure.
struct FetchResult {
    enum class Kind { body, not_modified, failed };
    Kind kind = Kind::failed;
    int status = 0;         ///< the last HTTP status, 0 when none came
    std::string body{};     ///< Kind::body: the PGN
    std::string problem{};  ///< Kind::failed: what went wrong, for a line on stderr
};

}  // namespace arbiter::watch
